import SiteModel
import Support

/// A made-up catalogue for benchmarks: cleaners with reviews, rentals with owners, and quote collections,
/// the same for the same seed and sizes. Listing `i` of a kind is drawn from its own seed, so it does not
/// change when other kinds grow.
public struct SyntheticCatalogue: Sendable {
    public struct Size: Sendable {
        public var cleaners: Int
        public var rentals: Int
        /// Quotes in all, in collections of about `quotesPerCollection`.
        public var quotes: Int

        public init(cleaners: Int, rentals: Int, quotes: Int) {
            self.cleaners = cleaners
            self.rentals = rentals
            self.quotes = quotes
        }

        public var owners: Int { max(1, rentals / 5) }
        public var collections: Int { max(1, (quotes + SyntheticCatalogue.quotesPerCollection - 1) / SyntheticCatalogue.quotesPerCollection) }
    }

    public static let quotesPerCollection = 20
    /// Shared media files listings name, so media stays small whatever the size.
    public static let portraitCount = 24
    public static let photoCount = 24

    /// By kind, each kind's listings in slug order.
    public let listings: [String: [SyntheticListing]]

    public init(size: Size, seed: UInt64) {
        let names = (0..<size.cleaners).parallelMap { Self.personName(seed: seed, kind: 1, index: $0) }
        let ownerNames = (0..<size.owners).parallelMap { Self.personName(seed: seed, kind: 2, index: $0) }
        let cleanerSlugs = names.enumerated().map { Self.slug($0.element, $0.offset) }
        let ownerSlugs = ownerNames.enumerated().map { Self.slug($0.element, $0.offset) }
        var listings: [String: [SyntheticListing]] = [:]
        listings["cleaners"] = (0..<size.cleaners).parallelMap { index in
            var choose = SeededChoices(seed: Self.seed(seed, kind: 3, index: index))
            return Self.cleaner(name: names[index], slug: cleanerSlugs[index], &choose)
        }
        listings["reviews"] = (0..<size.cleaners).parallelMap { index in
            var choose = SeededChoices(seed: Self.seed(seed, kind: 4, index: index))
            return (0..<choose.int(0...4)).map { number in Self.review(of: cleanerSlugs[index], number: number + 1, &choose) }
        }.flatMap { $0 }
        listings["owners"] = (0..<size.owners).parallelMap { index in
            var choose = SeededChoices(seed: Self.seed(seed, kind: 5, index: index))
            return Self.owner(name: ownerNames[index], slug: ownerSlugs[index], &choose)
        }
        listings["rentals"] = (0..<size.rentals).parallelMap { index in
            var choose = SeededChoices(seed: Self.seed(seed, kind: 6, index: index))
            return Self.rental(index: index, owner: ownerSlugs[choose.int(0...(ownerSlugs.count - 1))], &choose)
        }
        listings["quotes"] = (0..<size.collections).parallelMap { index in
            var choose = SeededChoices(seed: Self.seed(seed, kind: 7, index: index))
            let first = index * Self.quotesPerCollection
            return Self.quoteCollection(index: index, count: min(Self.quotesPerCollection, size.quotes - first), &choose)
        }
        self.listings = listings.mapValues { $0.sorted { $0.slug < $1.slug } }
    }

    public var listingCount: Int { listings.values.reduce(0) { $0 + $1.count } }

    static func seed(_ seed: UInt64, kind: UInt64, index: Int) -> UInt64 {
        var mixer = SplitMix64(seed: seed &+ kind &* 0x1000_0000_0000 &+ UInt64(index))
        return mixer.next()
    }

    static func personName(seed: UInt64, kind: UInt64, index: Int) -> String {
        var choose = SeededChoices(seed: Self.seed(seed, kind: kind, index: index))
        if choose.chance(5) { return choose.pick(Vocabulary.accentedNames) }
        return choose.pick(Vocabulary.firstNames) + " " + choose.pick(Vocabulary.surnames)
    }

    /// Names repeat, so the slug carries the listing's number.
    static func slug(_ name: String, _ index: Int) -> String {
        Slug.from(text: name) + "-\(index + 1)"
    }

    static func email(_ slug: String) -> SyntheticValue {
        .text(slug.replacingOccurrences(of: "-", with: ".") + "@example.net")
    }

    static func phone(_ choose: inout SeededChoices) -> SyntheticValue {
        .text("+353 8\(choose.int(3...9)) 555 \(String(choose.int(1000...9999)))")
    }

    static func cleaner(name: String, slug: String, _ choose: inout SeededChoices) -> SyntheticListing {
        var fields: [(String, SyntheticValue)] = [("name", .text(name))]
        if choose.chance(80) { fields.append(("photo", .text("cleaners/portrait-\(choose.int(1...portraitCount)).svg"))) }
        fields.append(("hourly_rate", .bare(choose.fixed(1500...3500, fractionDigits: 2))))
        fields.append(("county", .bare(choose.pick(Vocabulary.counties))))
        fields.append(("languages", .list(choose.pick(choose.int(1...3), of: Vocabulary.languages).map(SyntheticValue.bare))))
        if choose.chance(70) {
            fields.append(("availability", .list(choose.pick(choose.int(2...6), of: Vocabulary.weekdays).map(SyntheticValue.bare))))
        }
        fields.append(("services", .list(choose.pick(choose.int(1...5), of: Vocabulary.services).map(SyntheticValue.text))))
        fields.append(("eco_products", .bare(choose.chance(50) ? "true" : "false")))
        if choose.chance(30) { fields.append(("website", .text("https://example.org/cleaners/\(slug)"))) }
        fields.append(("joined", .bare(choose.date(from: CalendarDate(year: 2020, month: 1, day: 1)!, days: 2400).description)))
        fields.append(("bio", .text(Prose.markdown(paragraphs: choose.int(3...6), &choose))))
        fields.append(("phone", phone(&choose)))
        fields.append(("email", email(slug)))
        return SyntheticListing(kind: "cleaners", slug: slug, fields: fields)
    }

    static func review(of cleaner: String, number: Int, _ choose: inout SeededChoices) -> SyntheticListing {
        let reviewer = choose.chance(5) ? choose.pick(Vocabulary.accentedNames) : choose.pick(Vocabulary.firstNames)
        return SyntheticListing(kind: "reviews", slug: "\(cleaner)-\(number)", fields: [
            ("cleaner", .text(cleaner)),
            ("stars", .bare(String(choose.int(1...5)))),
            ("reviewer", .text(String(reviewer.split(separator: " ")[0]))),
            ("date", .bare(choose.date(from: CalendarDate(year: 2024, month: 1, day: 1)!, days: 1000).description)),
            ("text", .text(Prose.sentences(choose.int(1...3), &choose))),
            ("reviewer_email", .text("reviewer.\(cleaner.count).\(number)@example.net")),
        ])
    }

    static func owner(name: String, slug: String, _ choose: inout SeededChoices) -> SyntheticListing {
        var fields: [(String, SyntheticValue)] = [
            ("name", .text(name)),
            ("city", .text(choose.pick(Vocabulary.towns))),
            ("joined", .bare(choose.date(from: CalendarDate(year: 2020, month: 1, day: 1)!, days: 2400).description)),
        ]
        if choose.chance(70) { fields.append(("about", .text(Prose.markdown(paragraphs: choose.int(1...2), &choose)))) }
        fields.append(("phone", phone(&choose)))
        fields.append(("email", email(slug)))
        return SyntheticListing(kind: "owners", slug: slug, fields: fields)
    }

    static func rental(index: Int, owner: String, _ choose: inout SeededChoices) -> SyntheticListing {
        let title = choose.pick(Vocabulary.adjectives) + " " + choose.pick(Vocabulary.rentalItems)
        let slug = Slug.from(text: title) + "-\(index + 1)"
        var fields: [(String, SyntheticValue)] = [
            ("title", .text(title)),
            ("photos", .list((0..<choose.int(1...3)).map { _ in .text("rentals/photo-\(choose.int(1...photoCount)).svg") })),
            ("category", .bare(choose.pick(Vocabulary.rentalCategories))),
            ("price_per_day", .bare(choose.fixed(500...9000, fractionDigits: 2))),
        ]
        if choose.chance(60) { fields.append(("deposit", .bare(choose.fixed(2000...30000, fractionDigits: 2)))) }
        fields += [
            ("condition", .text(choose.pick(Vocabulary.conditions))),
            ("city", .text(choose.pick(Vocabulary.towns))),
            ("owner", .text(owner)),
            ("listed", .bare(choose.date(from: CalendarDate(year: 2023, month: 1, day: 1)!, days: 1300).description)),
            ("lat", .bare(choose.fixed(5150000...5540000, fractionDigits: 5))),
            ("lon", .bare("-" + choose.fixed(600000...1000000, fractionDigits: 5))),
            ("description", .text(Prose.markdown(paragraphs: choose.int(2...4), &choose))),
            ("pickup_address", .text("\(choose.int(1...120)) \(choose.pick(Vocabulary.words).capitalized) Road, \(choose.pick(Vocabulary.towns))")),
        ]
        return SyntheticListing(kind: "rentals", slug: slug, fields: fields)
    }

    static func quoteCollection(index: Int, count: Int, _ choose: inout SeededChoices) -> SyntheticListing {
        let title = "On " + choose.pick(Vocabulary.words) + " and " + choose.pick(Vocabulary.words)
        let quotes: [SyntheticValue] = (0..<max(1, count)).map { _ in
            var entry: [(String, SyntheticValue)] = [
                ("text", .text(Prose.sentences(1, &choose))),
                ("source", .text(choose.pick(Vocabulary.authors) + ", " + choose.pick(Vocabulary.works))),
                ("source_kind", .bare(choose.pick(Vocabulary.sourceKinds))),
                ("category", .bare(choose.pick(Vocabulary.quoteCategories))),
            ]
            if choose.chance(40) { entry.append(("year", .bare(String(choose.int(1600...2020))))) }
            return .object(entry)
        }
        return SyntheticListing(kind: "quotes", slug: Slug.from(text: title) + "-\(index + 1)", fields: [
            ("title", .text(title)),
            ("added", .bare(choose.date(from: CalendarDate(year: 2022, month: 1, day: 1)!, days: 1500).description)),
            ("description", .text(Prose.markdown(paragraphs: 1, &choose))),
            ("quotes", .list(quotes)),
        ])
    }
}

extension Range where Bound == Int {
    func parallelMap<Result: Sendable>(_ transform: @Sendable (Int) -> Result) -> [Result] {
        Array(self).parallelMap(transform)
    }
}
