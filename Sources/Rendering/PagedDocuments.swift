import CatalogueIndex
import OrderedCollections
import SiteModel

/// The documents an app shows lists from, a slice at a time: the API root, each kind's listings in pages
/// (`api/<kind>/page/N.json`), each facet's values (`api/<kind>/<facet>.json`) and each value's listings in
/// pages (`api/<kind>/<facet>/<value>.json`, then `…/<value>/page/N.json`). Pages hold cards, not whole
/// listings: a card names its listing's own document, so an edit changes the listing's document and the
/// few pages that show its card, and a mirror fetches only those.
extension SiteRenderer {
    static let apiRootPath = "api/index.json"

    /// `api/index.json`: where an app starts. The build, its date, every kind with its count, first page and
    /// facets, and the sync entry point. Made with the sync documents (`derivedFiles`), which number the build.
    func apiRoot(build: Int, date: CalendarDate) -> OutputFile {
        let kinds: [Value] = catalogue.kinds.map { collection in
            let schema = collection.schema
            return .object([
                "name": .string(schema.name),
                "title": .string(schema.title),
                "singular": .string(schema.singular),
                "count": .int(Int64(collection.listings.count)),
                "schema": schemaURL("\(schema.name).listing"),
                "pages": .object([
                    "count": .int(Int64(pageCount(collection.listings.count))), "size": .int(Int64(site.pageSize)),
                    "first": .string(site.url("api/\(schema.name)/page/1.json")),
                ]),
                "fields": .list(fieldPresentations(schema)),
                "facets": .list(collection.facets.map { facet in
                    .object([
                        "name": .string(facet.field.name), "label": .string(facet.field.label),
                        "url": .string(site.url(facetDocumentPath(facet, kind: schema.name))),
                    ])
                }),
                // None with nothing to pick, when no daily file is written.
                "daily": schema.daily == nil || !DailyPicks.havePool(collection) ? .null : .string(site.url("api/\(schema.name)/daily/{date}.json")),
            ])
        }
        let root: Value = .object([
            "$schema": schemaURL("index"),
            "api_version": .int(Int64(SyncDocuments.apiVersion)),
            "title": .string(site.title),
            "url": .string(site.baseURL),
            "language": .string(site.language),
            "currency": .string(site.currency),
            "build": .int(Int64(build)),
            "date": .date(date),
            "sync": .string(site.url(SyncDocuments.headPath)),
            "kinds": .list(kinds),
        ])
        return OutputFile(path: Self.apiRootPath, contents: .bytes(JSONWriter.bytes(root)))
    }

    /// How the kind's pages show each public field and derived field, for an app to show values as they do: its
    /// `label`, and its `format` (`currency`, in the site's `currency`; `rating`, out of `out_of`) or null.
    private func fieldPresentations(_ schema: KindSchema) -> [Value] {
        let declared = schema.fields.filter { !$0.isPrivate }.map { ($0.name, $0.label, $0.format, $0.maximum) }
        let derived = schema.derived.map { ($0.name, $0.label, $0.format, $0.maximum) }
        return (declared + derived).map { name, label, format, maximum in
            .object([
                "name": .string(name), "label": .string(label), "format": format.map { .string($0.rawValue) } ?? .null,
                "out_of": format == .rating ? .number(maximum ?? DisplayFormat.defaultRatingMaximum) : .null,
            ])
        }
    }

    /// The kind's pages at `pages` (counting from 0).
    func kindPageDocuments(_ collection: KindCollection, pages: [Int]) -> [OutputFile] {
        let name = collection.schema.name
        return pageDocuments(collection.listings, of: collection, facet: nil, pages: pages) { number in
            "api/\(name)/page/\(number).json"
        }
    }

    /// The facet's document: its values, their counts and first pages.
    func facetDocument(_ facet: Facet, in collection: KindCollection) -> OutputFile {
        let kind = collection.schema.name
        let document: Value = .object([
            "$schema": schemaURL("facet"),
            "kind": .string(kind), "facet": .string(facet.field.name), "label": .string(facet.field.label),
            "values": .list(facet.values.map { value in
                .object([
                    "value": .string(value.text), "slug": .string(value.slug), "count": .int(Int64(value.listings.count)),
                    "url": .string(site.url(valuePagePath(facet, value, kind: kind, number: 1))),
                ])
            }),
        ])
        return OutputFile(path: facetDocumentPath(facet, kind: kind), contents: .bytes(JSONWriter.bytes(document)))
    }

    /// The facet value's pages at `pages` (counting from 0).
    func facetValueDocuments(_ value: FacetValue, of facet: Facet, in collection: KindCollection, pages: [Int]) -> [OutputFile] {
        let kind = collection.schema.name
        let described: Value = .object(["name": .string(facet.field.name), "value": .string(value.text), "slug": .string(value.slug)])
        let isEntries = collection.schema.facetIsOverEntries(facet.field.name)
        return pageDocuments(value.listings, of: collection, facet: described, isEntries: isEntries, pages: pages) { number in
            valuePagePath(facet, value, kind: kind, number: number)
        }
    }

    /// The slug of the listing that holds an entry.
    static func collectionSlug(of entry: Listing) -> String {
        entry.fields["collection"]?.objectValue?["slug"]?.text ?? entry.slug
    }

    private func facetDocumentPath(_ facet: Facet, kind: String) -> String { "api/\(kind)/\(facet.field.name).json" }

    private func valuePagePath(_ facet: Facet, _ value: FacetValue, kind: String, number: Int) -> String {
        let base = "api/\(kind)/\(facet.field.name)/\(value.slug)"
        return number == 1 ? base + ".json" : base + "/page/\(number).json"
    }

    private func pageCount(_ items: Int) -> Int { max(1, (items + site.pageSize - 1) / site.pageSize) }

    private func pageDocuments(
        _ listings: some RandomAccessCollection<Listing>, of collection: KindCollection, facet: Value?, isEntries: Bool = false, pages: [Int],
        path: (Int) -> String
    ) -> [OutputFile] {
        Pagination.pages(of: listings, size: site.pageSize, basePath: "", in: pages).map { page in
            let document: Value = .object([
                "$schema": schemaURL("\(collection.schema.name).page"),
                "kind": .string(collection.schema.name),
                "facet": facet ?? .null,
                "page": .int(Int64(page.number)), "pages": .int(Int64(page.count)),
                "total": .int(Int64(listings.count)), "page_size": .int(Int64(site.pageSize)),
                "prev": page.number > 1 ? .string(site.url(path(page.number - 1))) : .null,
                "next": page.number < page.count ? .string(site.url(path(page.number + 1))) : .null,
                "items": .list(page.items.map { card($0, in: collection, isEntry: isEntries) }),
            ])
            return OutputFile(path: path(page.number), contents: .bytes(JSONWriter.bytes(document)))
        }
    }

    /// What a list shows of a listing: its slug, title, its own document, its page when it has one, when it
    /// last changed, and the kind's key figures (its date, sort, facet and range fields).
    private func card(_ listing: Listing, in collection: KindCollection, isEntry: Bool) -> Value {
        let schema = collection.schema
        let owner = isEntry ? Self.collectionSlug(of: listing) : listing.slug
        var fields: OrderedDictionary<String, Value> = [
            "slug": .string(listing.slug),
            "title": .string(contexts.title(of: listing, schema: schema)),
            "document": .string(site.url("api/\(schema.name)/\(owner).json")),
        ]
        if let url = listing.fields["url"] { fields["url"] = url }
        fields["updated"] = .date(versions.updated(listing, isEntry: isEntry))
        for name in contexts.layout(schema).keyFields where fields[name] == nil {
            if let value = listing.fields[name] { fields[name] = value }
        }
        return .object(fields)
    }

    /// The fields a card carries besides its title: the kind's date field, sort fields (an entry's too),
    /// facets and search range, in that order.
    static func keyFields(of schema: KindSchema) -> [String] {
        var names: [String] = []
        for name in [schema.dateField].compactMap({ $0 }) + (schema.sort + schema.entrySort).map(\.field) + schema.facets
            + [schema.searchRange].compactMap({ $0 }) where !names.contains(name) && name != schema.titleField
        {
            names.append(name)
        }
        return names
    }
}
