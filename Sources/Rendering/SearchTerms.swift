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
        let chunk = 512
        let starts = Array(stride(from: 0, to: documents.count, by: chunk))
        let partial = starts.parallelMap { start in
            Self.collect(documents, from: start, to: min(start + chunk, documents.count))
        }
        // Chunks are in document order, so each term's occurrences stay in increasing document order.
        var merged: [String: [Occurrence]] = [:]
        for terms in partial {
            for (term, occurrences) in terms { merged[term, default: []].append(contentsOf: occurrences) }
        }
        let terms = merged.sorted { $0.key.utf16.lexicographicallyPrecedes($1.key.utf16) }.map { (term: $0.key, occurrences: $0.value) }
        sorted = terms.parallelMap { term, occurrences in (term, Self.encode(occurrences)) }
    }

    struct Occurrence: Sendable {
        let document: Int32
        var inTitle: Bool
        /// A bigram's positions; empty for other terms.
        var positions: [Int32]
    }

    private static func collect(_ documents: [SearchDocument], from start: Int, to end: Int) -> [String: [Occurrence]] {
        var terms: [String: [Occurrence]] = [:]
        for number in start..<end {
            for (term, occurrence) in occurrences(of: documents[number], number: Int32(number)) {
                terms[term, default: []].append(occurrence)
            }
        }
        return terms
    }

    /// One document's terms.
    static func occurrences(of document: SearchDocument, number: Int32) -> [String: Occurrence] {
        var found: [String: Occurrence] = [:]
        var position: Int32 = 0
        for (text, inTitle) in [(document.title, true), (document.text, false)] {
            for word in SearchWords.words(text) {
                let scalars = Array(word.unicodeScalars)
                guard SearchWords.isCJK(scalars[0]), scalars.count > 1 else {
                    found[word, default: Occurrence(document: number, inTitle: false, positions: [])].inTitle =
                        (found[word]?.inTitle ?? false) || inTitle
                    if SearchWords.isCJK(scalars[0]) { position += 1 }
                    continue
                }
                for index in 0..<(scalars.count - 1) {
                    var bigram = String.UnicodeScalarView()
                    bigram.append(scalars[index])
                    bigram.append(scalars[index + 1])
                    let term = String(bigram)
                    var occurrence = found[term] ?? Occurrence(document: number, inTitle: false, positions: [])
                    occurrence.inTitle = occurrence.inTitle || inTitle
                    occurrence.positions.append(position + Int32(index))
                    found[term] = occurrence
                }
                position += Int32(scalars.count)
            }
        }
        return found
    }

    private static func encode(_ occurrences: [Occurrence]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(occurrences.count * 2)
        var last: Int32 = 0
        for occurrence in occurrences {
            SearchPostings.append(Int(occurrence.document - last) << 1 | (occurrence.inTitle ? 1 : 0), to: &output)
            last = occurrence.document
            guard !occurrence.positions.isEmpty else { continue }
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
