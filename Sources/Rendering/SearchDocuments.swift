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
    }

    /// The document without its text, which only its terms came from.
    var withoutText: SearchDocument {
        var document = self
        document.text = ""
        return document
    }
}

extension SiteRenderer {
    /// Characters of a card's summary, cut at a word.
    static let summaryLength = 160

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
        var made = SearchDocumentsMade(
            count: groups.count, cardStarts: Self.cardFileStarts(groups), cardSchema: schemaURL("search.cards"), keepingDocuments: keepingDocuments,
            handOnCards: handOnCards)
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
                facetLine: facetLine, summary: summary(listing, schema)),
            cluster: cluster)
    }

    /// Text, enum and Markdown fields (Markdown as its source), references by their title.
    private func searchText(_ listing: Listing, schema: KindSchema) -> String {
        var parts: [String] = []
        func collect(_ value: Value, _ type: FieldType) {
            switch (type, value) {
            case (.string, .string(let text)), (.enumeration, .string(let text)), (.markdown, .string(let text)):
                parts.append(text)
            case (.list(let item), .list(let values)):
                values.forEach { collect($0, item.type) }
            case (.object(let fields), .object(let values)):
                for field in fields { if let value = values[field.name] { collect(value, field.type) } }
            case (.reference, .object(let reference)):
                parts.append(reference["title"]?.text ?? "")
            default:
                break
            }
        }
        for field in schema.fields where field.name != schema.titleField && !field.isPrivate {
            if let value = listing.fields[field.name] { collect(value, field.type) }
        }
        return parts.joined(separator: " ")
    }

    /// The smallest variant of the card's photo, in the source's format.
    private func thumbnail(_ image: Value?) -> String? {
        guard let image, let format = image["format"]?.text else { return nil }
        let smallest = image["variants"]?.listValue?.first { $0["format"]?.text == format }
        guard let url = (smallest?["url"] ?? image["url"])?.text, url.hasPrefix(site.baseURL) else { return nil }
        return String(url.dropFirst(site.baseURL.count))
    }

    /// The start of the first Markdown field (else the first other text field), without Markdown's marks.
    private func summary(_ listing: Listing, _ schema: KindSchema) -> String {
        let candidates = schema.fields.filter { !$0.isPrivate && $0.name != schema.titleField }
        let field = candidates.first { $0.type.name == "markdown" } ?? candidates.first { $0.type.name == "string" }
        guard let field, let source = listing.fields[field.name]?.text else { return "" }
        return SearchSummary.of(source, length: Self.summaryLength)
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

/// A short plain-text start of a Markdown text.
enum SearchSummary {
    /// Made into UTF-8 bytes, a scalar at a time: appending to a String's scalar view was most of the
    /// summary's time, and the summary a quarter of the search index's.
    static func of(_ markdown: String, length: Int) -> String {
        var text: [UInt8] = []
        var count = 0
        var endsInSpace = false
        var skippingLinkTarget = false
        var previous: Unicode.Scalar = " "
        // A `-` or `+` after a line's indentation is a list item's marker when a space or tab follows it.
        var atLineStart = true
        var possibleMarker: Unicode.Scalar?
        func append(_ scalar: Unicode.Scalar) {
            if isSpace(scalar) {
                if count == 0 || endsInSpace { return }
                text.append(UInt8(ascii: " "))
                endsInSpace = true
            } else {
                text.append(contentsOf: UTF8.encode(scalar)!)
                endsInSpace = false
            }
            count += 1
        }
        let scalars = markdown.unicodeScalars
        var index = scalars.startIndex
        var lineBegins = true
        while index < scalars.endIndex {
            if lineBegins, let lineEnd = Self.endOfDecoration(scalars, from: index) {
                index = lineEnd
                lineBegins = false
                continue
            }
            let scalar = scalars[index]
            scalars.formIndex(after: &index)
            lineBegins = scalar == "\n"
            if skippingLinkTarget {
                if scalar == ")" { skippingLinkTarget = false }
                continue
            }
            if scalar == "(" && previous == "]" {
                skippingLinkTarget = true
                continue
            }
            previous = scalar
            if let marker = possibleMarker {
                possibleMarker = nil
                if scalar != " " && scalar != "\t" { append(marker) }
                if count > length { break }
            }
            let indenting = scalar == " " || scalar == "\t"
            if atLineStart && (scalar == "-" || scalar == "+") {
                possibleMarker = scalar
                atLineStart = false
                continue
            }
            atLineStart = scalar == "\n" || (atLineStart && indenting)
            if isMark(scalar) { continue }
            append(scalar)
            if count > length { break }
        }
        if let marker = possibleMarker, count <= length { append(marker) }
        if endsInSpace { text.removeLast() }
        let summary = String(decoding: text, as: UTF8.self)
        guard count > length else { return summary }
        // Cut at the last space, without leaving a combining mark or half a cluster behind.
        let cut = String(summary.prefix(length))
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut[...]
        return atWord + "…"
    }

    /// Where the line starting at `start` ends (its line feed, or the text's end) when the line is no text: a code
    /// fence with its info string (```` ```sh ````), or only `-`, `=`, `:`, `|`, `*`, `_` and `+` (a heading's
    /// underline, a rule, a table's delimiter row); nil for any other line.
    private static func endOfDecoration(_ scalars: String.UnicodeScalarView, from start: String.UnicodeScalarView.Index) -> String.UnicodeScalarView.Index? {
        var index = start
        while index < scalars.endIndex, scalars[index] == " " || scalars[index] == "\t" { scalars.formIndex(after: &index) }
        let rest = scalars[index...]
        let lineEnd = rest.firstIndex(of: "\n") ?? scalars.endIndex
        if rest.starts(with: "```".unicodeScalars) || rest.starts(with: "~~~".unicodeScalars) { return lineEnd }
        var marks = 0
        for scalar in scalars[index..<lineEnd] {
            if "-=:|*_+".unicodeScalars.contains(scalar) { marks += 1 } else if scalar != " " && scalar != "\t" && scalar != "\r" { return nil }
        }
        return marks > 0 ? lineEnd : nil
    }

    /// Markdown's marks, which the summary leaves out.
    private static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "*", "_", "#", "`", ">", "[", "]", "|": true
        default: false
        }
    }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "\n", "\t", "\r": true
        default: !scalar.isASCII && scalar.properties.isWhitespace
        }
    }
}
