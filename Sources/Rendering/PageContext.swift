import OrderedCollections
import CatalogueIndex
import SiteModel
import Support

/// What a page's template sees: its top-level fields (`site`, `page`, `kind`, `listings`…), and the page's
/// render key, made from the same fields. A field that many pages share goes in as a `KeyedValue`, which
/// carries the smaller value render keys take in its place; so the key of a page always follows its context.
///
/// A field may also be a `MadeList`, whose items are made as the template walks them, or an object that holds
/// one (`PaginationValue`): its place among the fields holds null, which only this type sees.
///
/// A page's context holds only the fields its templates can read (`TemplateSet.namesRead(by:)`): the others
/// are not made (`set` takes them unevaluated) nor keyed, as they cannot change the page. A listing page whose
/// kind has its own template made the generic field rows (`fields`) for nothing: 1.5 % of an L build's CPU.
struct PageContext: Sendable {
    private var fields: OrderedDictionary<String, Value>
    /// Stand-ins of the fields set from a `KeyedValue`, a `MadeList` or a `PaginationValue`, by name.
    private var standIns: [String: Value] = [:]
    private var madeLists: [String: MadeList] = [:]
    private var objectContexts: [String: PageContext] = [:]
    /// The names the page's templates read; nil for a context that holds every field set (an object's).
    private let reads: Set<String>?

    init(_ fields: OrderedDictionary<String, Value> = [:]) {
        self.fields = fields
        reads = nil
    }

    /// A page's context: `site`, which every page of a kind shares, then `fields`, of those its templates read
    /// (`reading`).
    init(site: SharedValue, reading: Set<String>, _ fields: OrderedDictionary<String, Value>) {
        self.fields = [:]
        reads = reading
        set("site", site)
        self.fields.merge(fields.filter { reading.contains($0.key) }) { _, field in field }
    }

    /// Whether the page's templates read the field `name`.
    func reads(_ name: String) -> Bool {
        reads?.contains(name) ?? true
    }

    subscript(name: String) -> Value? {
        get { madeLists[name].map { .list(Array($0)) } ?? objectContexts[name]?.value ?? fields[name] }
        set {
            guard reads(name) else { return }
            fields[name] = newValue
            standIns[name] = nil
            madeLists[name] = nil
            objectContexts[name] = nil
        }
    }

    /// Sets the field, made only when the page's templates read it.
    mutating func set(_ name: String, _ value: @autoclosure () -> Value) {
        guard reads(name) else { return }
        self[name] = value()
    }

    mutating func set(_ name: String, _ keyed: @autoclosure () -> some KeyedValue) {
        guard reads(name) else { return }
        let keyed = keyed()
        self[name] = keyed.value
        standIns[name] = keyed.keyStandIn
    }

    mutating func set(_ name: String, _ list: @autoclosure () -> MadeList) {
        guard reads(name) else { return }
        let list = list()
        self[name] = .null
        standIns[name] = list.keyStandIn
        madeLists[name] = list
    }

    mutating func set(_ name: String, _ pagination: @autoclosure () -> PaginationValue) {
        guard reads(name) else { return }
        let pagination = pagination()
        self[name] = .null
        standIns[name] = pagination.keyStandIn
        objectContexts[name] = pagination.context
    }

    /// The field as a template's tag sees it (`TemplateValue.init(field:)`), a made list or an object's context
    /// as it is.
    func templateField(named name: String) -> TemplateValue? {
        guard let field = fields[name] else { return nil }
        // A made list or an object's context holds null among the fields: only then are the others looked in.
        guard case .null = field else { return TemplateValue(field: field) }
        if let list = madeLists[name] { return .madeList(list) }
        return objectContexts[name].map(TemplateValue.context)
    }

    /// The whole context as one value, made lists and objects' contexts made: for checks of its shape, not for
    /// rendering.
    var value: Value {
        var made = fields
        for (name, list) in madeLists { made[name] = .list(Array(list)) }
        for (name, object) in objectContexts { made[name] = object.value }
        return .object(made)
    }

    /// What the page is rendered from, with this context (see `RenderKey`).
    func renderKey(fingerprint: String, template: String) -> SHA256.Digest {
        RenderKey.of(fingerprint: fingerprint, template: template, context: .object(fields), standIns: standIns)
    }
}

/// A value a template sees, with a smaller value that determines it for render keys. Each conforming type
/// makes both from the same inputs, in one place.
protocol KeyedValue: Sendable {
    var value: Value { get }
    var keyStandIn: Value { get }
}

/// A value many pages share (a kind with its facets and counts), whose digest is made once and stands in for it.
struct SharedValue: KeyedValue {
    let value: Value
    let keyStandIn: Value

    init(_ value: Value) {
        self.value = value
        keyStandIn = .string(RenderKey.digest(of: value))
    }
}

/// The digests of cards as they look off the first screen (`PageContexts.cardDigest`), by position in the list
/// they were made for (a kind's listings, or its entries): made once for a whole render rather than once per
/// list page showing a listing. Kept by position rather than by slug: a table by slug of 420,000 digests was
/// 53 MB at 430,000 listings, an array is 13 MB. A card asked for at a position that holds another listing
/// (or none) is digested when asked, as is every card of `none`, which an in-place edit uses: made only for
/// a whole render, the digests never stand for a listing edited since.
struct CardDigests: Sendable {
    private let base: [Listing]
    private let digests: [SHA256.Digest]

    static let none = CardDigests(base: [], digests: [])

    private init(base: [Listing], digests: [SHA256.Digest]) {
        self.base = base
        self.digests = digests
    }

    init(_ listings: [Listing], schema: KindSchema, contexts: PageContexts) {
        self.init(base: listings, digests: listings.parallelMap { contexts.cardDigest($0, schema: schema) })
    }

    /// The digest of `listing`'s card, which stands at `position` in its kind's list.
    func digest(of listing: Listing, at position: Int, schema: KindSchema, contexts: PageContexts) -> String {
        (madeDigest(of: listing, at: position) ?? contexts.cardDigest(listing, schema: schema)).hex
    }

    /// The digest of `listing`'s card when it was made for the render, with `listing` at `position`; else nil.
    func madeDigest(of listing: Listing, at position: Int) -> SHA256.Digest? {
        let isMade = digests.indices.contains(position) && base[position].slug == listing.slug && base[position].kind == listing.kind
        return isMade ? digests[position] : nil
    }
}

/// A listing page's `cards`: for each derived `list` field that gathers listings of a kind with pages (an
/// owner's `items`), their cards in its order. Render keys take each card as its digest off the first screen,
/// which determines it, as list pages do: an owner's page key encoded every gathered card whole, which made
/// it three times the key of a cleaner's page.
struct GatheredCards: KeyedValue {
    let value: Value
    let keyStandIn: Value

    /// `cards`: by field name, each card with its digest where the render made it.
    init(_ cards: [(field: String, cards: [(card: Value, digest: SHA256.Digest?)])]) {
        var value: OrderedDictionary<String, Value> = [:], standIn: OrderedDictionary<String, Value> = [:]
        for (field, made) in cards {
            value[field] = .list(made.map(\.card))
            standIn[field] = .list(made.map { card, digest in .string((digest ?? RenderKey.compactDigest(of: card)).hex) })
        }
        self.value = .object(value)
        keyStandIn = .object(standIn)
    }
}

/// A list page's cards: each listing as lists show it, the first few marked as on the first screen, made as
/// the template walks them. Render keys take each card as its digest off the first screen and whether it is on
/// the first screen, from which the card follows; so a page whose key is unchanged makes no card (a build after
/// one edit made every list page's cards to skip all but a few of them).
enum CardList {
    /// The listings at `range` of `listings`.
    static func made(
        _ listings: some PlacedListings & Sendable, range: Range<Int>, schema: KindSchema, contexts: PageContexts, digests: CardDigests
    ) -> MadeList {
        let keyStandIn = Value.list(range.map { index in
            let digest = digests.digest(of: listings[index], at: listings.basePosition(at: index), schema: schema, contexts: contexts)
            return .list([.string(digest), .bool(isOnFirstScreen(index, of: range))])
        })
        return MadeList(count: range.count, keyStandIn: keyStandIn) { offset in
            let index = range.lowerBound + offset
            return contexts.card(listings[index], schema: schema, firstScreen: isOnFirstScreen(index, of: range))
        }
    }

    private static func isOnFirstScreen(_ index: Int, of range: Range<Int>) -> Bool {
        index - range.lowerBound < PageContexts.firstScreenCards
    }
}

/// The `pagination` value of one page of a list, made by `PageContexts.paginationValues`: an object whose
/// `pages` is made as a template walks it, and the value render keys take in its place.
struct PaginationValue: Sendable {
    let context: PageContext
    let keyStandIn: Value
}

/// The links to every page of one list, made as they are read, with the digest of all of them as they look on
/// other pages than their own, for render keys. Made once for the list, since its pages are made in groups
/// and each group making them grew with the square of the list's length; and held as little more than the
/// digest, as every list's are held until the render ends.
struct PaginationLinks: Sendable {
    let count: Int
    /// The list's own path as pages link it (`/cleaners/county/cork/`).
    private let listPath: String
    /// The digest of every link as it looks on other pages than its own: what render keys take for `pages`.
    let keyStandIn: Value

    init(count: Int, listPath: String) {
        self.count = count
        self.listPath = listPath
        keyStandIn = .string(RenderKey.digest(ofListOf: count) { [listPath] index in
            Self.link(to: index + 1, current: false, listPath: listPath)
        })
    }

    func link(to number: Int, current: Bool) -> Value {
        Self.link(to: number, current: current, listPath: listPath)
    }

    private static func link(to number: Int, current: Bool, listPath: String) -> Value {
        .object([
            "number": .int(Int64(number)), "path": .string(Pagination<Listing>.path(of: number, basePath: listPath)),
            "current": .bool(current),
        ])
    }
}
