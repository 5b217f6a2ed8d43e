/// An in-place edit of the index's terms (`serve`): a document's terms are replaced, and only the terms it
/// had or has now are decoded and encoded again, so an edit does not read every document again.
extension SearchTerms {
    /// What one document gives one term: a word, in its title or not, or a CJK pair's occurrence.
    enum DocumentTerm: Equatable {
        case word(inTitle: Bool)
        case pair(Occurrence)
    }

    /// The terms with document `number`'s as `new` gives them instead of `old`.
    func replacing(_ number: Int32, _ old: SearchDocument, with new: SearchDocument) -> SearchTerms {
        let before = Self.documentTerms(old, number: number), after = Self.documentTerms(new, number: number)
        var sorted = sorted
        for term in Set(before.keys).union(after.keys) where before[term] != after[term] {
            let place = insertionPlace(of: term, in: sorted)
            let found = place < sorted.count && sorted[place].term == term
            let postings = Self.postings(found ? sorted[place].postings : "", of: number, (after[term] ?? before[term])!, as: after[term])
            switch (found, postings.isEmpty) {
            case (true, true): sorted.remove(at: place)
            case (true, false): sorted[place].postings = postings
            case (false, false): sorted.insert((term, postings), at: place)
            case (false, true): break
            }
        }
        return SearchTerms(sorted: sorted)
    }

    /// The document's terms, as `SearchTerms.init` collects them.
    static func documentTerms(_ document: SearchDocument, number: Int32) -> [String: DocumentTerm] {
        var found: [String: DocumentTerm] = [:]
        let pairs = terms(of: document, number: number) { word, inTitle in
            if case .word(true)? = found[word] { return }
            found[word] = .word(inTitle: inTitle)
        }
        for (pair, occurrence) in pairs { found[pair] = .pair(occurrence) }
        return found
    }

    /// The postings with document `number`'s entry replaced by `entry` (removed when nil); `kind` says
    /// whether they are a word's or a pair's.
    private static func postings(_ postings: String, of number: Int32, _ kind: DocumentTerm, as entry: DocumentTerm?) -> String {
        switch kind {
        case .word:
            var entries = wordEntries(postings).filter { $0 >> 1 != UInt32(number) }
            if case .word(let inTitle)? = entry {
                let new = UInt32(number) << 1 | (inTitle ? 1 : 0)
                entries.insert(new, at: entries.firstIndex { $0 > new } ?? entries.count)
            }
            return encode(entries)
        case .pair:
            var occurrences = pairOccurrences(postings).filter { $0.document != number }
            if case .pair(let occurrence)? = entry {
                occurrences.insert(occurrence, at: occurrences.firstIndex { $0.document > number } ?? occurrences.count)
            }
            return encode(occurrences)
        }
    }

    /// A word's entries (`number << 1 | inTitle`) from its postings.
    static func wordEntries(_ postings: String) -> [UInt32] {
        var reader = SearchPostings.Reader(postings)
        var entries: [UInt32] = []
        var last: UInt32 = 0
        while let value = reader.next() {
            last += UInt32(value >> 1)
            entries.append(last << 1 | UInt32(value & 1))
        }
        return entries
    }

    /// A CJK pair's occurrences from its postings.
    static func pairOccurrences(_ postings: String) -> [Occurrence] {
        var reader = SearchPostings.Reader(postings)
        var occurrences: [Occurrence] = []
        var document: Int32 = 0
        while let value = reader.next(), let count = reader.next() {
            document += Int32(value >> 1)
            var positions: [Int32] = [], position: Int32 = 0
            for _ in 0..<count {
                position += Int32(reader.next()!)
                positions.append(position)
            }
            occurrences.append(Occurrence(document: document, inTitle: value & 1 == 1, positions: positions))
        }
        return occurrences
    }

    /// Where `term` is in the sorted terms, or where it would go.
    private func insertionPlace(of term: String, in sorted: [(term: String, postings: String)]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].term.utf16.lexicographicallyPrecedes(term.utf16) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
