import Algorithms
import Enrichment
import OrderedCollections
import SiteModel
import Support

/// The site's listings grouped by kind, with derived fields filled in, in each kind's declared order,
/// and what browsing needs: facet values and the newest listings.
public struct Catalogue: Sendable {
    public let site: SiteConfig
    /// The day the build counts from (`--now`): daily picks start on it.
    public let buildDate: CalendarDate
    /// In the site's navigation order.
    public let kinds: [KindCollection]
    /// The most recent listings across the kinds visitors browse that declare a date field, newest first.
    public let newest: [Listing]
    /// Free pages; those in the navigation first, in their order, then the rest by title.
    public let pages: [FreePage]
    /// How text sorts, in the site's language.
    public let collation: Collation
    /// Who refers to whom, for in-place edits; shared with the catalogues that replace one listing.
    let referrers: ReferrerIndex
    /// Where indexing's errors point in the listings' files, for in-place edits too.
    let locator: FieldLocator

    public static let newestCount = 8

    /// Throws the problems only indexing finds: a derived value past `NumberLimit`, facet values sharing a URL,
    /// each at the value in its file that `locator` finds.
    public init(
        site: SiteConfig, schemas: [KindSchema], listings: consuming [String: [Listing]], pages: [FreePage] = [], buildDate: CalendarDate,
        formatter: DisplayFormatter, locator: FieldLocator
    ) throws(BuildFailure) {
        self.site = site
        self.pages = pages.sorted { a, b in
            (a.navigationOrder ?? Int.max, a.title, a.slug) < (b.navigationOrder ?? Int.max, b.title, b.slug)
        }
        self.buildDate = buildDate
        let collation = Collation(language: site.language)
        self.collation = collation
        referrers = ReferrerIndex()
        self.locator = locator
        let (derived, problems) = deriveFields(
            schemas: schemas, listings: consume listings, buildDate: buildDate, formatter: formatter, collation: collation, locator: locator)
        guard problems.isEmpty else { throw BuildFailure(problems) }
        let indexed = schemas.parallelMap { schema in
            let sorted = sortListings(derived[schema.name] ?? [], by: schema, collation: collation)
            let entries = entryListings(of: sorted, schema: schema, collation: collation)
            let (facets, problems) = facets(of: schema, listings: sorted, entries: entries, collation: collation, locator: locator)
            return (KindCollection(schema: schema, listings: sorted, entries: entries, facets: facets), problems)
        }
        guard !indexed.contains(where: { !$0.1.isEmpty }) else { throw BuildFailure(indexed.flatMap(\.1)) }
        kinds = indexed.map(\.0)
        let dated = kinds.filter(\.schema.isBrowsed).flatMap { collection -> [(CalendarDate, Listing)] in
            guard let dateField = collection.schema.dateField else { return [] }
            return collection.listings.compactMap { listing in
                if case .date(let date)? = listing.fields[dateField] { return (date, listing) }
                return nil
            }
        }
        // The few newest picked, not every dated listing sorted: 0.3 s with a core idle at 10× L.
        newest = dated.min(count: Catalogue.newestCount) { a, b in
            a.0 != b.0 ? a.0 > b.0 : (a.1.kind, a.1.slug) < (b.1.kind, b.1.slug)
        }.map(\.1)
    }

    init(
        site: SiteConfig, buildDate: CalendarDate, kinds: [KindCollection], newest: [Listing], pages: [FreePage], collation: Collation,
        referrers: ReferrerIndex = ReferrerIndex(), locator: FieldLocator
    ) {
        self.site = site
        self.collation = collation
        self.buildDate = buildDate
        self.kinds = kinds
        self.newest = newest
        self.pages = pages
        self.referrers = referrers
        self.locator = locator
    }

    /// The catalogue without what only reading and indexing needed: each listing's references, media uses and
    /// file, which name problems that have all been found by now (the files' paths alone were 41 MB at 430,000
    /// listings). A build that keeps nothing for an in-place edit renders from this; an in-place edit still needs
    /// them (a derived sum over other listings may overflow at one of theirs).
    public func withoutSourceDetails() -> Catalogue {
        func compact(_ listings: [Listing]) -> [Listing] { listings.map { $0.withoutSourceDetails() } }
        let kinds = kinds.map { collection in
            let (listings, entries) = (compact(collection.listings), compact(collection.entries))
            return KindCollection(
                schema: collection.schema, listings: listings, entries: entries,
                facets: collection.facets.map { facet in
                    facet.over(collection.schema.facetIsOverEntries(facet.field.name) ? entries : listings)
                })
        }
        return Catalogue(
            site: site, buildDate: buildDate, kinds: kinds, newest: compact(newest), pages: pages, collation: collation, locator: .fileOnly)
    }

    public var listingCount: Int { kinds.reduce(0) { $0 + $1.listings.count } }

    public func collection(_ kind: String) -> KindCollection? {
        kinds.first { $0.schema.name == kind }
    }
}

public struct KindCollection: Sendable {
    public let schema: KindSchema
    public let listings: [Listing]
    /// A collection kind's entries, each as a listing of its own that links into its collection's page.
    public let entries: [Listing]
    public let facets: [Facet]

    init(schema: KindSchema, listings: [Listing], entries: [Listing], facets: [Facet]) {
        self.schema = schema
        self.listings = listings
        self.entries = entries
        self.facets = facets
    }

    /// The kind's index page, relative to the output root.
    public var outputPath: String { "\(schema.name)/" }
}

/// Each entry of a collection kind as a listing: the entry's fields, then `collection` (its listing's
/// title and link). It links to `#entry-N` on the collection's page, N counting from 0 in file order.
func entryListings(of listings: [Listing], schema: KindSchema, collation: Collation) -> [Listing] {
    guard let entriesField = schema.entriesField else { return [] }
    var entries: [Listing] = []
    let layouts = FieldLayouts()
    for listing in listings {
        // A kind without pages has no page to link into.
        var page: (url: String, path: String)?
        if case .string(let url)? = listing.fields["url"], case .string(let path)? = listing.fields["path"] { page = (url, path) }
        // One value for the collection, which all its entries share.
        var collectionFields: OrderedDictionary<String, Value> = [
            "slug": .string(listing.slug), "title": listing.fields[schema.titleField] ?? .string(listing.slug),
        ]
        if let page {
            collectionFields["path"] = .string(page.path)
            collectionFields["url"] = .string(page.url)
        }
        // Made once: an object's fields are boxed, and a box made per entry would be one more allocation each.
        let collection = Value.object(collectionFields)
        for (index, entry) in (listing.fields[entriesField]?.listValue ?? []).enumerated() {
            guard var fields = entry.objectValue else { continue }
            let anchor = "#entry-\(index)", slug = "\(listing.slug)-\(index)"
            fields.updateValue(.string(slug), forKey: "slug", insertingAt: 0)
            if let page {
                fields.updateValue(.string(page.url + anchor), forKey: "url", insertingAt: 1)
                fields.updateValue(.string(page.path + anchor), forKey: "path", insertingAt: 2)
            }
            fields["collection"] = collection
            entries.append(Listing(kind: schema.name, slug: slug, file: listing.file, fields: layouts.sharing(fields)))
        }
    }
    return schema.entrySort.isEmpty ? entries : sortListings(entries, keys: schema.entrySort, collation: collation)
}
