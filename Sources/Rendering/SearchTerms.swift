import Support

/// Every term of the search index with its postings, sorted as JavaScript sorts strings (by UTF-16 code
/// units), which is how the search page finds a term's file.
///
/// A term is a folded word (`SearchWords`), a CJK character standing alone, or two CJK characters next to
/// each other (a bigram) in a longer CJK run. A word's postings give, per document, `number << 1 | t`,
/// `t` being 1 when the title has the word; a bigram's add how many times it occurs and where (counting CJK
/// characters through the title and then the text), so that a longer CJK query can be matched exactly.
struct SearchTerms {
    /// (term, encoded postings), sorted by UTF-16.
    let sorted: [(term: String, postings: String)]

    init(_ documents: [SearchDocument]) {
        var collector = Collector()
        collector.add(documents, numberedFrom: 0)
        self = collector.terms()
    }

    /// The terms of documents added a run at a time, in document order: a run's documents can be let go
    /// (their text at least) once their terms are taken.
    struct Collector {
        private var words: [String: [UInt32]] = [:]
        private var bigrams: [String: [Occurrence]] = [:]

        /// Adds the terms of `documents`, whose numbers start at `first`.
        mutating func add(_ documents: [SearchDocument], numberedFrom first: Int) {
            let partial = documents.indices.runs(of: 512).parallelMap { run in
                SearchTerms.collect(documents[run], numberedFrom: first + run.lowerBound)
            }
            // Chunks are in document order, so each term's occurrences stay in increasing document order.
            for found in partial {
                for (term, entries) in found.words { words[term, default: []].append(contentsOf: entries) }
                for (term, occurrences) in found.bigrams { bigrams[term, default: []].append(contentsOf: occurrences) }
            }
        }

        /// Every term added, with its postings encoded, sorted.
        func terms() -> SearchTerms {
            let encoded = Array(words).parallelMap { term, entries in (term: term, postings: SearchTerms.encode(entries)) }
                + Array(bigrams).parallelMap { term, occurrences in (term: term, postings: SearchTerms.encode(occurrences)) }
            return SearchTerms(sorted: encoded.sorted { $0.term.utf16.lexicographicallyPrecedes($1.term.utf16) })
        }
    }

    init(sorted: [(term: String, postings: String)]) {
        self.sorted = sorted
    }

    /// A CJK pair's occurrences in one document.
    struct Occurrence: Equatable, Sendable {
        let document: Int32
        var inTitle: Bool
        var positions: [Int32]
    }

    /// The terms of `documents`, numbered from `first`: words with `number << 1 | inTitle` per document, and pairs.
    private static func collect(
        _ documents: ArraySlice<SearchDocument>, numberedFrom first: Int
    ) -> (words: [String: [UInt32]], bigrams: [String: [Occurrence]]) {
        var words: [String: [UInt32]] = [:]
        var bigrams: [String: [Occurrence]] = [:]
        for (offset, document) in documents.enumerated() {
            let number = first + offset
            let found = terms(of: document, number: Int32(number)) { word, inTitle in
                add(UInt32(number) << 1 | (inTitle ? 1 : 0), to: &words[word, default: []])
            }
            for (bigram, occurrence) in found { bigrams[bigram, default: []].append(occurrence) }
        }
        return (words, bigrams)
    }

    /// Appends a document's entry for a word, or, when the list's last entry is for the same document (they
    /// come in order), adds the title's bit to it.
    private static func add(_ entry: UInt32, to entries: inout [UInt32]) {
        if let last = entries.last, last >> 1 == entry >> 1 { entries[entries.count - 1] = last | entry } else { entries.append(entry) }
    }

    /// One document's terms: each word (and lone CJK character) handed to `word` with whether it is in the
    /// title, as often as it occurs; its CJK pairs returned.
    static func terms(of document: SearchDocument, number: Int32, word: (String, Bool) -> Void) -> [String: Occurrence] {
        var bigrams: [String: Occurrence] = [:]
        var position: Int32 = 0
        for (text, inTitle) in [(document.title, true), (document.text, false)] {
            for found in SearchWords.words(text) {
                let first = found.unicodeScalars.first!
                guard SearchWords.isCJK(first), found.unicodeScalars.count > 1 else {
                    word(found, inTitle)
                    if SearchWords.isCJK(first) { position += 1 }
                    continue
                }
                let scalars = Array(found.unicodeScalars)
                for index in 0..<(scalars.count - 1) {
                    var bigram = String.UnicodeScalarView()
                    bigram.append(scalars[index])
                    bigram.append(scalars[index + 1])
                    let term = String(bigram)
                    var occurrence = bigrams[term] ?? Occurrence(document: number, inTitle: false, positions: [])
                    occurrence.inTitle = occurrence.inTitle || inTitle
                    occurrence.positions.append(position + Int32(index))
                    bigrams[term] = occurrence
                }
                position += Int32(scalars.count)
            }
        }
        return bigrams
    }

    /// A word's postings: each document's number as its difference from the last, times two, plus one when
    /// the title has the word.
    static func encode(_ entries: [UInt32]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(entries.count * 2)
        var last: UInt32 = 0
        for entry in entries {
            SearchPostings.append(Int((entry >> 1) - last) << 1 | Int(entry & 1), to: &output)
            last = entry >> 1
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// A CJK pair's postings: as a word's, each followed by how many times the document has the pair and where.
    static func encode(_ occurrences: [Occurrence]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(occurrences.count * 2)
        var last: Int32 = 0
        for occurrence in occurrences {
            SearchPostings.append(Int(occurrence.document - last) << 1 | (occurrence.inTitle ? 1 : 0), to: &output)
            last = occurrence.document
            SearchPostings.append(occurrence.positions.count, to: &output)
            var lastPosition: Int32 = 0
            for position in occurrence.positions {
                SearchPostings.append(Int(position - lastPosition), to: &output)
                lastPosition = position
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

