import CatalogueIndex
import OrderedCollections
import SiteModel
import Support

/// What search knows of one listing: the words it is found by, the range value it is filtered by, and the
/// card a result shows. (The facet files are made from the catalogue's facets, `searchFacetFiles`.)
public struct SearchDocument: Sendable {
    public let kind: String
    public let title: String
    /// The public text of every other field (string, enum and Markdown fields, in lists and objects too,
    /// and the titles of the listings it refers to), joined with spaces. Empty in a document that waits
    /// only for its card file, its terms taken (`SearchDocumentsMade`).
    public private(set) var text: String
    /// The value of the kind's `search_range` field (an int or a decimal); null without one.
    public let range: Value
    public let card: Card
    /// The place of its value of the kind's cluster facet (`clusterFacet`); -1 without one.
    let cluster: Int

    public struct Card: Sendable {
        /// Root-relative without the site's base path (`cleaners/aoife-byrne/`), so the index works at any sub-path.
        public let path: String
        /// The smallest variant of the card's photo.
        public let thumbnail: String?
        /// "Hourly rate €22.50": the card's figures and rating, with their labels.
        public let figures: [String]
        /// The card's place and tags: "Cork · English, Polish".
        public let facetLine: String
        /// The start of its first Markdown (or else text) field, for the snippet.
        public let summary: String
        /// A collection's entries, in order, for the search page to link the one a query finds (`#entry-<n>`) and
        /// show its text; nil for a listing of another kind.
        public var entries: [Entry]? = nil
    }

    /// What a result shows of a collection's entry, and what the page matches a query's words and facets against.
    public struct Entry: Sendable {
        /// Its first public text field (a quote's text), which the result shows.
        public let title: String
        /// The words of its other fields as the index reads them (`searchText`), a field's from the next's by " · ":
        /// the page shows the one with the query's words when the title has none (a quote found by its author).
        public let text: String
        /// By facet over the entries, its values.
        public let facets: OrderedDictionary<String, [String]>

        var value: Value {
            .list([.string(title), .string(text), .object(facets.mapValues { .list($0.map(Value.string)) })])
        }
    }

    /// The document without its text, which only its terms came from.
    var withoutText: SearchDocument {
        var document = self
        document.text = ""
        return document
    }
}

extension SiteRenderer {
    /// The searched documents, made a run at a time in document order (every listing with a page, by kind in
    /// navigation order, each kind in its search order), and what the index takes from them as they come
    /// (`SearchDocumentsMade`). Only a corpus kept for an edit in place holds the documents themselves: at
    /// XL they held 150 MB beside the terms.
    func searchDocuments(
        _ kinds: [SearchedKind], keepingDocuments: Bool, perRun: Int, handOnCards: (([OutputFile]) -> Void)?
    ) -> SearchDocumentsMade {
        let groups = kinds.flatMap { kind in
            kind.order.map { CardGroup(kind: kind.collection.schema.name, cluster: kind.cluster(ofListingAt: $0)) }
        }
        let weights = kinds.flatMap { kind in kind.order.map { 1 + entries(of: kind.collection.listings[$0], kind.collection.schema).count } }
        var made = SearchDocumentsMade(
            count: groups.count, cardStarts: Self.cardFileStarts(groups) { weights[$0] }, cardSchema: schemaURL("search.cards"),
            keepingDocuments: keepingDocuments, handOnCards: handOnCards)
        for kind in kinds {
            for run in kind.order.indices.runs(of: perRun) {
                made.add(Array(kind.order[run]).parallelMap { place in
                    searchDocument(kind.collection.listings[place], kind.collection, cluster: kind.cluster(ofListingAt: place))
                })
            }
        }
        return made
    }

    public static let searchDocumentsPerRun = 4_096

    /// The facet whose values cluster a kind's documents, so that a filter on it reads one stretch of them and
    /// its results' cards come from few files: of the facets with one value a listing, the one with most values.
    func clusterFacet(_ collection: KindCollection) -> Facet? {
        var chosen: Facet?
        for facet in collection.facets where !collection.schema.facetIsOverEntries(facet.field.name) {
            if case .list = facet.field.type { continue }
            if facet.values.count > (chosen?.values.count ?? 0) { chosen = facet }
        }
        return chosen
    }

    /// By slug, the place of the listing's value of the cluster facet.
    private func clusters(_ collection: KindCollection) -> [String: Int] {
        var places: [String: Int] = [:]
        for (index, value) in (clusterFacet(collection)?.values ?? []).enumerated() {
            for listing in value.listings where places[listing.slug] == nil { places[listing.slug] = index }
        }
        return places
    }

    /// The kind with its search order, made once for the index's documents, facet files and sort files.
    func searchedKind(_ collection: KindCollection) -> SearchedKind {
        let clusters = clusters(collection)
        let keys = collection.listings.map { clusters[$0.slug] ?? Int.max }
        let order = collection.listings.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
        return SearchedKind(collection: collection, clusters: clusters, order: order)
    }

    func searchDocument(_ listing: Listing, _ collection: KindCollection, cluster: Int) -> SearchDocument {
        let schema = collection.schema
        var range: Value = .null
        if let field = schema.searchRange {
            switch listing.fields[field] {
            case .int(let number)?: range = .int(number)
            case .decimal(let number)?: range = .decimal(number)
            default: break
            }
        }
        let parts = CardParts(listing, layout: contexts.layout(schema), facetValuePaths: contexts.facetValuePaths)
        let lines = [parts.place.map(\.text)] + parts.tags.map { $0.values.map(\.text) }
        let facetLine = lines.filter { !$0.isEmpty }.map { $0.joined(separator: ", ") }.joined(separator: " · ")
        return SearchDocument(
            kind: schema.name, title: contexts.title(of: listing, schema: schema), text: searchText(listing, schema: schema),
            range: range,
            card: .init(
                path: listing.outputPath, thumbnail: thumbnail(parts.photo), figures: (parts.figures.map { ($0.label, $0.text) } + (parts.rating.map { [($0.label, $0.text)] } ?? [])).map { "\($0) \($1)" },
                facetLine: facetLine, summary: summary(listing, schema), entries: cardEntries(listing, schema)),
            cluster: cluster)
    }

    /// A collection's entries as its card holds them; nil for a listing of another kind.
    private func cardEntries(_ listing: Listing, _ schema: KindSchema) -> [SearchDocument.Entry]? {
        guard schema.entriesField != nil else { return nil }
        let titleField = contexts.layout(schema).entryTitleField
        let fields = schema.entryFields.filter { !$0.isPrivate && $0.name != titleField }
        let facets = schema.facets.filter(schema.facetIsOverEntries)
        return entries(of: listing, schema).map { entry in
            var parts: [String] = []
            for field in fields { if let value = entry[field.name] { Self.collectSearchText(value, field, into: &parts) } }
            return SearchDocument.Entry(
                title: titleField.flatMap { entry[$0]?.text } ?? "", text: parts.joined(separator: " \u{B7} "),
                facets: OrderedDictionary(uniqueKeysWithValues: facets.map { ($0, facetTexts(entry[$0])) }))
        }
    }

    /// A collection's entries; none for a listing of another kind.
    private func entries(of listing: Listing, _ schema: KindSchema) -> [Value] {
        schema.entriesField.flatMap { listing.fields[$0]?.listValue } ?? []
    }

    /// Text, enum and Markdown fields (Markdown as its source), references by their title, and a bool field that
    /// is true by its label (a cleaner with `eco_products: true` is found by "eco-friendly", its label's words).
    private func searchText(_ listing: Listing, schema: KindSchema) -> String {
        var parts: [String] = []
        for field in schema.fields where field.name != schema.titleField && !field.isPrivate {
            if let value = listing.fields[field.name] { Self.collectSearchText(value, field, into: &parts) }
        }
        return parts.joined(separator: " ")
    }

    /// The searched text of one field's value, appended to `parts`.
    private static func collectSearchText(_ value: Value, _ field: FieldSchema, into parts: inout [String]) {
        switch (field.type, value) {
        case (.string, .string(let text)), (.enumeration, .string(let text)), (.markdown, .string(let text)):
            parts.append(text)
        case (.bool, .bool(true)):
            parts.append(field.label)
        case (.list(let item), .list(let values)):
            values.forEach { collectSearchText($0, item, into: &parts) }
        case (.object(let fields), .object(let values)):
            for field in fields { if let value = values[field.name] { collectSearchText(value, field, into: &parts) } }
        case (.reference, .object(let reference)):
            parts.append(reference["title"]?.text ?? "")
        default:
            break
        }
    }

    /// The smallest variant of the card's photo, in the source's format.
    private func thumbnail(_ image: Value?) -> String? {
        guard let image, let format = image["format"]?.text else { return nil }
        let smallest = image["variants"]?.listValue?.first { $0["format"]?.text == format }
        guard let url = (smallest?["url"] ?? image["url"])?.text, url.hasPrefix(site.baseURL) else { return nil }
        return String(url.dropFirst(site.baseURL.count))
    }

    /// The listing page's description (the start of its first Markdown field's text); else the start of its
    /// first other text field, as it is written.
    private func summary(_ listing: Listing, _ schema: KindSchema) -> String {
        if let description = contexts.summary(listing, schema: schema) { return description }
        let field = schema.fields.first { !$0.isPrivate && $0.name != schema.titleField && $0.type.name == "string" }
        guard let field, let text = listing.fields[field.name]?.text else { return "" }
        return textStart(text.split(whereSeparator: \.isWhitespace).joined(separator: " "), length: PageContexts.summaryLength)
    }
}

/// A kind whose listings search finds, in search order.
struct SearchedKind {
    let collection: KindCollection
    /// By slug, the place of the listing's value of the cluster facet (`SiteRenderer.clusterFacet`).
    let clusters: [String: Int]
    /// The kind's listings by their cluster facet's value (in the facet's order, those without one last),
    /// each value's in the kind's order: their places in `collection.listings`, in document order.
    let order: [Int]

    /// The place of the cluster facet's value of the listing at `place` in `collection.listings`; -1 without one.
    func cluster(ofListingAt place: Int) -> Int {
        clusters[collection.listings[place].slug] ?? -1
    }
}
