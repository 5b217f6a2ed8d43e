import CatalogueIndex
import OrderedCollections
import SiteModel
import Support

/// The search index under `api/search/`, split so that a query fetches only the little it needs:
///
/// - `meta.json`: the kinds with their document numbers, facets (value names, counts and files), range
///   field and sort orders; where each term file and each card file starts.
/// - `terms/<n>.json`: terms and their postings (`SearchTerms`), cut in sorted order into files of about
///   `termFileBytes`; a term is in the last file whose first term (in `meta.terms`) is not after it.
/// - `facets/<n>.json`: the documents with each facet value, several values to a file.
/// - `cards/<n>.json`: what a result shows, up to `cardsPerFile` documents a file (`cardFileStarts`).
/// - `range/<kind>.json`, `sort/<kind>.<field>.json`: a kind's range values and its order by a sort field
///   other than its first, fetched only when a query uses them.
///
/// Documents are numbered by kind in navigation order, each kind clustered by one facet's values
/// (`searchOrder`).
extension SiteRenderer {
    static let searchFolder = "api/search/"
    static let searchMetaPath = searchFolder + "meta.json"
    static let searchIndexVersion = 1
    static let cardsPerFile = 256
    static let termFileBytes = 32_000
    static let facetFileBytes = 8_000

    public func searchIndex() -> [OutputFile] {
        let documents = searchDocuments()
        let collections = catalogue.kinds.filter(\.schema.hasPages)
        var firsts: [Int] = []
        var next = 0
        for collection in collections {
            firsts.append(next)
            next += collection.listings.count
        }
        let (termFiles, separators) = searchTermFiles(SearchTerms(documents))
        let (facetFiles, facetValues) = searchFacetFiles(documents, collections: collections, firsts: firsts)
        let cardStarts = Self.cardFileStarts(documents)
        var files = termFiles + facetFiles + searchCardFiles(documents, starts: cardStarts)
        var kinds: [Value] = []
        for (index, collection) in collections.enumerated() {
            let kind = searchKind(collection, first: firsts[index], facetValues: facetValues[index])
            kinds.append(kind.meta)
            files += kind.files
        }
        let meta: Value = .object([
            "$schema": schemaURL("search.meta"),
            "version": .int(Int64(Self.searchIndexVersion)),
            "documents": .int(Int64(documents.count)),
            "cards": .list(cardStarts.map { .int(Int64($0)) }),
            "terms": .list(separators.map(Value.string)),
            "kinds": .list(kinds),
        ])
        files.append(OutputFile(path: Self.searchMetaPath, contents: .bytes(JSONWriter.bytes(meta))))
        return files
    }

    /// The term files, and the first term of each, shortened to the shortest start that still sorts after
    /// the file before's last term.
    private func searchTermFiles(_ terms: SearchTerms) -> ([OutputFile], [String]) {
        var groups: [[(term: String, postings: String)]] = [[]]
        var size = 0
        for entry in terms.sorted {
            if size >= Self.termFileBytes {
                groups.append([])
                size = 0
            }
            groups[groups.count - 1].append(entry)
            size += entry.term.utf8.count + entry.postings.utf8.count + 6
        }
        var separators = [""]
        for (before, group) in zip(groups, groups.dropFirst()) {
            let last = before.last!.term, first = group.first!.term
            var prefix = String.UnicodeScalarView()
            for scalar in first.unicodeScalars {
                prefix.append(scalar)
                if last.utf16.lexicographicallyPrecedes(String(prefix).utf16) { break }
            }
            separators.append(String(prefix))
        }
        let schema = schemaURL("search.terms")
        let files = Array(groups.enumerated()).parallelMap { number, group in
            let terms = OrderedDictionary(uniqueKeysWithValues: group.map { ($0.term, Value.string($0.postings)) })
            return OutputFile(
                path: "\(Self.searchFolder)terms/\(number).json", contents: .bytes(JSONWriter.bytes(.object(["$schema": schema, "terms": .object(terms)]))))
        }
        return (files, separators)
    }

    /// Facet value files, and per kind, facet and value: [name, count, file number].
    private func searchFacetFiles(
        _ documents: [SearchDocument], collections: [KindCollection], firsts: [Int]
    ) -> ([OutputFile], [[[Value]]]) {
        var groups = FacetGroups()
        var kinds: [[[Value]]] = []
        for (kindIndex, collection) in collections.enumerated() {
            var facets: [[Value]] = []
            for (facetIndex, facet) in collection.facets.enumerated() {
                var members: [String: [Int32]] = [:]
                for number in firsts[kindIndex]..<(firsts[kindIndex] + collection.listings.count) {
                    for value in documents[number].facets[facet.field.name] ?? [] { members[value, default: []].append(Int32(number)) }
                }
                var values: [Value] = []
                for (valueIndex, value) in facet.values.enumerated() {
                    let numbers = members[value.text] ?? []
                    let file = groups.add("\(kindIndex).\(facetIndex).\(valueIndex)", SearchPostings.encode(increasing: numbers))
                    values.append(.list([.string(value.text), .int(Int64(numbers.count)), .int(Int64(file))]))
                }
                facets.append(values)
            }
            kinds.append(facets)
        }
        let schema = schemaURL("search.facets")
        let files = groups.groups.enumerated().map { number, group in
            OutputFile(
                path: "\(Self.searchFolder)facets/\(number).json", contents: .bytes(JSONWriter.bytes(.object(["$schema": schema, "values": .object(group)]))))
        }
        return (files, kinds)
    }

    /// Where each card file starts: after `cardsPerFile` documents, and at the start of a kind or of a cluster
    /// (`clusterFacet`) that the file has no room left for, so that a cluster's cards are in as few files as can be.
    static func cardFileStarts(_ documents: [SearchDocument]) -> [Int] {
        var starts: [Int] = []
        var start = 0
        while start < documents.count {
            starts.append(start)
            var end = start
            while end < documents.count && end - start < Self.cardsPerFile {
                let first = documents[end]
                var clusterEnd = end + 1
                while clusterEnd < documents.count && documents[clusterEnd].kind == first.kind && documents[clusterEnd].cluster == first.cluster {
                    clusterEnd += 1
                }
                // A new kind or cluster that does not fit starts a file of its own.
                if end > start && (first.kind != documents[end - 1].kind || first.cluster != documents[end - 1].cluster)
                    && clusterEnd - end > Self.cardsPerFile - (end - start) {
                    break
                }
                end = min(clusterEnd, start + Self.cardsPerFile)
            }
            start = end
        }
        return starts
    }

    /// Cards, a file from each of `starts`: [title, path, thumbnail or null, [figures], facet line, summary].
    private func searchCardFiles(_ documents: [SearchDocument], starts: [Int]) -> [OutputFile] {
        let schema = schemaURL("search.cards")
        let ends = Array(starts.dropFirst()) + [documents.count]
        return Array(zip(starts, ends).enumerated()).parallelMap { number, range in
            let cards: [Value] = documents[range.0..<range.1].map { document in
                let card = document.card
                return .list([
                    .string(document.title), .string(card.path), card.thumbnail.map(Value.string) ?? .null,
                    .list(card.figures.map(Value.string)), .string(card.facetLine), .string(card.summary),
                ])
            }
            return OutputFile(
                path: "\(Self.searchFolder)cards/\(number).json", contents: .bytes(JSONWriter.bytes(.object(["$schema": schema, "cards": .list(cards)]))))
        }
    }
}

extension SiteRenderer {
    /// A kind's entry in `meta.json`, with its range and sort files.
    func searchKind(
        _ collection: KindCollection, first: Int, facetValues: [[Value]]
    ) -> (meta: Value, files: [OutputFile]) {
        let schema = collection.schema
        var files: [OutputFile] = []
        var range: Value = .null
        if let field = schema.searchRange, let label = schema.label(of: field) {
            let path = "range/\(schema.name).json"
            let values: [Value] = searchOrder(collection).map { index in
                switch collection.listings[index].fields[field] {
                case .int(let number)?: return .int(number)
                case .decimal(let number)?: return .decimal(number)
                default: return .null
                }
            }
            files.append(searchFile(path, schema: "search.range", ["values": .list(values)]))
            range = .object(["field": .string(field), "label": .string(label), "file": .string(path)])
        }
        var sorts: [Value] = []
        let order = searchOrder(collection)
        for (index, key) in schema.sort.enumerated() {
            guard let label = schema.label(of: key.field) else { continue }
            let path = "sort/\(schema.name).\(key.field).json"
            // The kind's order is by its first sort field already.
            let ranks = index == 0 ? Array(collection.listings.indices) : collection.ranks(by: key, collation: catalogue.collation)
            files.append(searchFile(path, schema: "search.sort", ["ranks": .list(order.map { .int(Int64(ranks[$0])) })]))
            sorts.append(.object([
                "field": .string(key.field), "label": .string(label + sortDirection(key, in: schema)), "file": .string(path),
            ]))
        }
        let meta: Value = .object([
            "name": .string(schema.name),
            "title": .string(schema.title),
            "singular": .string(schema.singular),
            "first": .int(Int64(first)),
            "count": .int(Int64(collection.listings.count)),
            "cluster": clusterFacet(collection).map { .string($0.field.name) } ?? .null,
            "facets": .list(collection.facets.enumerated().map { index, facet in
                .object(["name": .string(facet.field.name), "label": .string(facet.field.label), "values": .list(facetValues[index])])
            }),
            "range": range,
            "sorts": .list(sorts),
        ])
        return (meta, files)
    }

    private func searchFile(_ path: String, schema: String, _ fields: OrderedDictionary<String, Value>) -> OutputFile {
        var document: OrderedDictionary<String, Value> = ["$schema": schemaURL(schema)]
        document.merge(fields) { first, _ in first }
        return OutputFile(path: Self.searchFolder + path, contents: .bytes(JSONWriter.bytes(.object(document))))
    }

    /// ", highest first" and the like, from the field's type.
    func sortDirection(_ key: SortKey, in schema: KindSchema) -> String {
        switch schema.field(named: key.field)?.type.name {
        case "date"?: return key.descending ? ", newest first" : ", oldest first"
        case "string"?, "enum"?, "markdown"?: return key.descending ? ", Z to A" : ", A to Z"
        default: return key.descending ? ", highest first" : ", lowest first"
        }
    }
}

/// Facet values' postings, packed into files of about `facetFileBytes`.
private struct FacetGroups {
    var groups: [OrderedDictionary<String, Value>] = [[:]]
    var size = 0

    /// Adds a value's postings; returns the number of the file they went into.
    mutating func add(_ key: String, _ postings: String) -> Int {
        if size >= SiteRenderer.facetFileBytes {
            groups.append([:])
            size = 0
        }
        groups[groups.count - 1][key] = .string(postings)
        size += postings.utf8.count + key.utf8.count + 6
        return groups.count - 1
    }
}
