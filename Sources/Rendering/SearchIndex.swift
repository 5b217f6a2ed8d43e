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
/// - `order/<kind>.json`: where each of a kind's documents stands in its list, for results without words.
///
/// Documents are numbered by kind in navigation order, each kind clustered by one facet's values
/// (`searchedKind`).
extension SiteRenderer {
    static let searchFolder = "api/search/"
    static let searchMetaPath = searchFolder + "meta.json"
    static let searchIndexVersion = 1
    static let cardsPerFile = 256
    static let termFileBytes = 32_000
    static let facetFileBytes = 8_000

    /// The index made anew: its files, and when `keepingCorpus`, the corpus they are made from. With
    /// `handOnCards`, the card files go to it as they are made, and the files returned are the others.
    public func searchIndex(
        keepingCorpus: Bool, documentsPerRun: Int = searchDocumentsPerRun, handOnCards: (([OutputFile]) -> Void)? = nil
    ) -> (files: [OutputFile], corpus: SearchCorpus?) {
        let collections = searchedKinds, kinds = collections.map(searchedKind)
        var made = searchDocuments(kinds, keepingDocuments: keepingCorpus, perRun: documentsPerRun, handOnCards: handOnCards)
        let terms = made.takeSortedTerms()
        let numbers = Self.documentNumbers(collections)
        let (facetFiles, facetValues) = searchFacetFiles(kinds, numbers: numbers)
        var files = facetFiles + made.cardFiles
        for (index, kind) in kinds.enumerated() {
            files += searchRangeFile(kind.collection, ranges: made.ranges[numbers[index]]).map { [$0] } ?? []
            files += [searchOrderFile(kind)] + searchSortFiles(kind)
        }
        files += searchTermAndMetaFiles(
            terms, documents: made.count, cardStarts: made.cardStarts, facetValues: facetValues, collections: collections, numbers: numbers)
        let corpus = SearchCorpus(documents: made.documents, terms: terms, facetValues: facetValues, cardStarts: made.cardStarts)
        return (files, keepingCorpus ? corpus : nil)
    }

    /// The index after an in-place edit of the `edited` listings, from the last build's
    /// corpus: their documents are made again and their terms replaced. Facets, clusters and sort orders
    /// stay as they were (`Catalogue.replacing`), so only the term files, the card files that hold the
    /// edited documents, their kinds' range files and the meta document are made. Nil when an edited
    /// listing has no document in `last` (then the index is made anew).
    public func searchIndex(replacing edited: EditedPositions, in last: SearchCorpus) -> (files: [OutputFile], corpus: SearchCorpus)? {
        let collections = searchedKinds
        let numbers = Self.documentNumbers(collections)
        var documents = last.documents, terms = last.terms
        var changedKinds: [Int] = [], cardFiles: Set<Int> = []
        for (index, collection) in collections.enumerated() {
            guard let positions = edited.positions(ofKind: collection.schema.name) else { continue }
            changedKinds.append(index)
            for listing in positions.map({ collection.listings[$0] }) {
                let path = listing.outputPath
                guard let number = numbers[index].first(where: { documents[$0].card.path == path }) else { return nil }
                let old = documents[number]
                documents[number] = searchDocument(listing, collection, cluster: old.cluster)
                terms = terms.replacing(Int32(number), old, with: documents[number])
                cardFiles.insert(last.cardStarts.lastIndex { $0 <= number }!)
            }
        }
        let corpus = SearchCorpus(documents: documents, terms: terms, facetValues: last.facetValues, cardStarts: last.cardStarts)
        let schema = schemaURL("search.cards"), starts = corpus.cardStarts, made = documents
        var files = cardFiles.sorted().parallelMap { number in
            Self.cardFile(number, made[Self.cardFileDocuments(number, starts: starts, count: made.count)], schema: schema)
        }
        for index in changedKinds {
            files += searchRangeFile(collections[index], ranges: documents[numbers[index]].map(\.range)[...]).map { [$0] } ?? []
        }
        files += searchTermAndMetaFiles(
            terms, documents: documents.count, cardStarts: corpus.cardStarts, facetValues: corpus.facetValues, collections: collections,
            numbers: numbers)
        return (files, corpus)
    }

    /// The kinds whose listings search finds: those visitors browse, in navigation order.
    private var searchedKinds: [KindCollection] { catalogue.kinds.filter(\.schema.isBrowsed) }

    /// The numbers of each kind's documents.
    private static func documentNumbers(_ collections: [KindCollection]) -> [Range<Int>] {
        var numbers: [Range<Int>] = []
        var next = 0
        for collection in collections {
            numbers.append(next..<next + collection.listings.count)
            next += collection.listings.count
        }
        return numbers
    }

    /// The term files and the meta document, which says where each term file starts.
    private func searchTermAndMetaFiles(
        _ terms: SearchTerms, documents: Int, cardStarts: [Int], facetValues: [[[Value]]], collections: [KindCollection], numbers: [Range<Int>]
    ) -> [OutputFile] {
        let (termFiles, separators) = searchTermFiles(terms)
        let kinds: [Value] = collections.enumerated().map { index, collection in
            searchKindMeta(collection, first: numbers[index].lowerBound, facetValues: facetValues[index])
        }
        let meta: Value = .object([
            "$schema": schemaURL("search.meta"),
            "version": .int(Int64(Self.searchIndexVersion)),
            "documents": .int(Int64(documents)),
            "cards": .list(cardStarts.map { .int(Int64($0)) }),
            "terms": .list(separators.map(Value.string)),
            "kinds": .list(kinds),
        ])
        return termFiles + [OutputFile(path: Self.searchMetaPath, contents: .bytes(JSONWriter.bytes(meta)))]
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
    private func searchFacetFiles(_ searched: [SearchedKind], numbers: [Range<Int>]) -> ([OutputFile], [[[Value]]]) {
        var groups = FacetGroups()
        var kinds: [[[Value]]] = []
        for (kindIndex, kind) in searched.enumerated() {
            let collection = kind.collection
            let members = FacetMembers(collection, numbers: Self.searchNumbers(kind, first: numbers[kindIndex].lowerBound))
            var facets: [[Value]] = []
            for (facetIndex, facet) in collection.facets.enumerated() {
                let overEntries = collection.schema.facetIsOverEntries(facet.field.name)
                var values: [Value] = []
                for (valueIndex, value) in facet.values.enumerated() {
                    let numbers = members.documents(having: value, overEntries: overEntries)
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

    /// By place in the kind's listings, each listing's document number: the kind's numbers start at `first`
    /// and follow its search order.
    private static func searchNumbers(_ kind: SearchedKind, first: Int) -> [Int32] {
        var numbers = [Int32](repeating: 0, count: kind.order.count)
        for (offset, place) in kind.order.enumerated() { numbers[place] = Int32(first + offset) }
        return numbers
    }

    /// Where each card file starts: after `cardsPerFile` documents, and at the start of a kind or of a cluster
    /// (`clusterFacet`) that the file has no room left for, so that a cluster's cards are in as few files as can be.
    /// `groups` gives each document's kind and cluster, in document order; `weight` how many documents' room the
    /// card of each takes (a collection's card, which carries its entries, takes one more for each), so that a
    /// file of collections stays as small as one of other cards. A card heavier than a file has one of its own.
    static func cardFileStarts(_ groups: [CardGroup], weight: (Int) -> Int = { _ in 1 }) -> [Int] {
        var starts: [Int] = []
        var start = 0
        while start < groups.count {
            starts.append(start)
            var end = start, filled = 0
            while end < groups.count && filled < Self.cardsPerFile {
                let first = groups[end]
                var clusterEnd = end + 1
                while clusterEnd < groups.count && groups[clusterEnd] == first { clusterEnd += 1 }
                // A new kind or cluster that does not fit starts a file of its own.
                let room = Self.cardsPerFile - filled
                if end > start && first != groups[end - 1] && totalWeight(end..<clusterEnd, weight: weight, past: room) > room { break }
                while end < clusterEnd && (end == start || filled + weight(end) <= Self.cardsPerFile) {
                    filled += weight(end)
                    end += 1
                }
                if end < clusterEnd { break }
            }
            start = end
        }
        return starts
    }

    /// The weight of the documents `range`, counted until it passes `past`.
    private static func totalWeight(_ range: Range<Int>, weight: (Int) -> Int, past: Int) -> Int {
        var total = 0
        for document in range where total <= past { total += weight(document) }
        return total
    }

    /// The numbers of the documents in card file `number` of `count` documents.
    static func cardFileDocuments(_ number: Int, starts: [Int], count: Int) -> Range<Int> {
        starts[number]..<(number + 1 < starts.count ? starts[number + 1] : count)
    }

    /// Card file `number`, of `documents`: [title, path, thumbnail or null, [figures], facet line, summary]
    /// a document, and a collection's also its entries, each [its first text field, the words of its others,
    /// {facet over entries: [its values]}].
    static func cardFile(_ number: Int, _ documents: ArraySlice<SearchDocument>, schema: Value) -> OutputFile {
        let cards: [Value] = documents.map { document in
            let card = document.card
            var parts: [Value] = [
                .string(document.title), .string(card.path), card.thumbnail.map(Value.string) ?? .null,
                .list(card.figures.map(Value.string)), .string(card.facetLine), .string(card.summary),
            ]
            if let entries = card.entries { parts.append(.list(entries.map(\.value))) }
            return .list(parts)
        }
        return OutputFile(
            path: "\(Self.searchFolder)cards/\(number).json", contents: .bytes(JSONWriter.bytes(.object(["$schema": schema, "cards": .list(cards)]))))
    }
}

/// The kind and cluster of a search document: a card file holds few of them (`SiteRenderer.cardFileStarts`).
struct CardGroup: Equatable {
    let kind: String
    let cluster: Int
}

extension SiteRenderer {
    /// A kind's entry in `meta.json`.
    func searchKindMeta(_ collection: KindCollection, first: Int, facetValues: [[Value]]) -> Value {
        let schema = collection.schema
        var range: Value = .null
        if let field = schema.searchRange, let label = schema.label(of: field) {
            range = .object(["field": .string(field), "label": .string(label), "file": .string(Self.searchRangePath(schema))])
        }
        let sorts: [Value] = schema.sort.compactMap { key in
            guard let label = schema.label(of: key.field) else { return nil }
            return .object([
                "field": .string(key.field), "label": .string(label + sortDirection(key, in: schema)),
                "file": .string(Self.searchSortPath(schema, key)),
            ])
        }
        return .object([
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
            "order": .string(Self.searchOrderPath(schema)),
        ])
    }

    private static func searchRangePath(_ schema: KindSchema) -> String { "range/\(schema.name).json" }
    private static func searchOrderPath(_ schema: KindSchema) -> String { "order/\(schema.name).json" }
    private static func searchSortPath(_ schema: KindSchema, _ key: SortKey) -> String { "sort/\(schema.name).\(key.field).json" }

    /// A kind's range values in document order, when it has a range field.
    private func searchRangeFile(_ collection: KindCollection, ranges: ArraySlice<Value>) -> OutputFile? {
        let schema = collection.schema
        guard let field = schema.searchRange, schema.label(of: field) != nil else { return nil }
        return searchFile(Self.searchRangePath(schema), schema: "search.range", ["values": .list(Array(ranges))])
    }

    /// Each document's place in its kind's list, in document order: as runs of increasing places (each cluster's
    /// documents are in the list's order), each run's places as postings.
    private func searchOrderFile(_ kind: SearchedKind) -> OutputFile {
        var runs: [[Int32]] = []
        for place in kind.order {
            if let last = runs.last?.last, last < place { runs[runs.count - 1].append(Int32(place)) } else { runs.append([Int32(place)]) }
        }
        let encoded = runs.map { Value.string(SearchPostings.encode(increasing: $0)) }
        return searchFile(Self.searchOrderPath(kind.collection.schema), schema: "search.order", ["runs": .list(encoded)])
    }

    /// A kind's ranks by each sort field, in document order.
    private func searchSortFiles(_ kind: SearchedKind) -> [OutputFile] {
        let collection = kind.collection, schema = collection.schema, order = kind.order
        guard !schema.sort.isEmpty else { return [] }
        return schema.sort.enumerated().compactMap { index, key in
            guard schema.label(of: key.field) != nil else { return nil }
            // The kind's order is by its first sort field already.
            let ranks = index == 0 ? Array(collection.listings.indices) : collection.ranks(by: key, collation: catalogue.collation)
            return searchFile(Self.searchSortPath(schema, key), schema: "search.sort", ["ranks": .list(order.map { .int(Int64(ranks[$0])) })])
        }
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

/// The documents of a kind that have a facet value, from the value's listings in the catalogue.
private struct FacetMembers {
    /// By place in the kind's listings.
    let numbers: [Int32]
    /// By slug, a listing's place: an entry of a collection kind stands for its collection's listing.
    let places: [String: Int]

    init(_ collection: KindCollection, numbers: [Int32]) {
        self.numbers = numbers
        let hasEntryFacets = collection.facets.contains { collection.schema.facetIsOverEntries($0.field.name) }
        places = hasEntryFacets ? Dictionary(uniqueKeysWithValues: collection.listings.enumerated().map { ($1.slug, $0) }) : [:]
    }

    /// In increasing order, each once.
    func documents(having value: FacetValue, overEntries: Bool) -> [Int32] {
        guard overEntries else { return value.listings.basePositions.map { numbers[$0] }.sorted() }
        let collections = value.listings.compactMap { entry in entry.fields["collection"]?["slug"]?.text }
        return Set(collections.compactMap { places[$0].map { numbers[$0] } }).sorted()
    }
}
