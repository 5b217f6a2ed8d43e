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
    /// (their text at least) once their terms are taken. Each term's postings are encoded as they come.
    struct Collector {
        private var words: [String: Postings] = [:]
        private var bigrams: [String: Postings] = [:]

        /// Adds the terms of `documents`, whose numbers start at `first`.
        mutating func add(_ documents: [SearchDocument], numberedFrom first: Int) {
            let partial = documents.indices.runs(of: 512).parallelMap { run in
                SearchTerms.collect(documents[run], numberedFrom: first + run.lowerBound)
            }
            // Chunks are in document order, so each term's occurrences stay in increasing document order.
            for found in partial {
                for (term, entries) in found.words { words[term, default: Postings()].add(words: entries) }
                for (term, occurrences) in found.bigrams { bigrams[term, default: Postings()].add(pairs: occurrences) }
            }
        }

        /// Every term added, with its postings, sorted.
        func terms() -> SearchTerms {
            let encoded = (Array(words) + Array(bigrams)).parallelMap { term, postings in (term: term, postings: postings.text) }
            return SearchTerms(sorted: encoded.sorted { $0.term.utf16.lexicographicallyPrecedes($1.term.utf16) })
        }
    }

    /// One term's postings, encoded (`SearchPostings`) as entries are added in increasing document order:
    /// at XL, the entries collected as numbers took 125 MB at the build's peak.
    struct Postings {
        private var bytes: [UInt8] = []
        /// The document of the last entry added.
        private var last: UInt32 = 0

        /// A word's entries, `number << 1 | inTitle`: each document's number as its difference from the
        /// last, times two, plus one when the title has the word.
        mutating func add(words entries: [UInt32]) {
            for entry in entries {
                SearchPostings.append(Int((entry >> 1) - last) << 1 | Int(entry & 1), to: &bytes)
                last = entry >> 1
            }
        }

        /// A CJK pair's occurrences: as a word's entries, each followed by how many times the document has
        /// the pair and where.
        mutating func add(pairs occurrences: [Occurrence]) {
            for occurrence in occurrences {
                SearchPostings.append(Int(UInt32(occurrence.document) - last) << 1 | (occurrence.inTitle ? 1 : 0), to: &bytes)
                last = UInt32(occurrence.document)
                SearchPostings.append(occurrence.positions.count, to: &bytes)
                var lastPosition: Int32 = 0
                for position in occurrence.positions {
                    SearchPostings.append(Int(position - lastPosition), to: &bytes)
                    lastPosition = position
                }
            }
        }

        var text: String { String(decoding: bytes, as: UTF8.self) }
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

    /// A word's postings (`Postings.add(words:)`).
    static func encode(_ entries: [UInt32]) -> String {
        var postings = Postings()
        postings.add(words: entries)
        return postings.text
    }

    /// A CJK pair's postings (`Postings.add(pairs:)`).
    static func encode(_ occurrences: [Occurrence]) -> String {
        var postings = Postings()
        postings.add(pairs: occurrences)
        return postings.text
    }
}
