@testable import Rendering
import Support
import Testing

/// `SearchSummary.of` builds UTF-8 bytes; the reference appends to a String's scalar view. Both must give the same text.
@Suite struct SearchSummaryTests {
    @Test func aSummaryLeavesOutMarksAndLinkTargetsAndCutsAtAWord() {
        #expect(SearchSummary.of("**Bold** [a link](https://x.ie) and `code`", length: 160) == "Bold a link and code")
        #expect(SearchSummary.of("  one\n\ntwo\u{00A0}\u{00A0}three ", length: 160) == "one two three")
        #expect(SearchSummary.of("one two three four", length: 10) == "one two…")
        // List items' markers go; a dash inside a line, or before a number, stays.
        #expect(SearchSummary.of("Ten years.\n\n- Past papers\n  + Exam technique\n-5 degrees, well-known", length: 160)
            == "Ten years. Past papers Exam technique -5 degrees, well-known")
        // A heading's underline, a table's delimiter row and a code fence's line are no text.
        #expect(SearchSummary.of("Bit size\n--------\n\n| Use | Size |\n|:---|---:|\n| wood | 6 |\n\n```sh\necho hi\n```\n", length: 160)
            == "Bit size Use Size wood 6 echo hi")
    }

    /// Generated texts from the pieces that matter: marks, link syntax, whitespace of every width, combining
    /// marks and clusters of several scalars where the cut falls.
    @Test func generatedTextMatchesTheReference() {
        let pieces = ["[", "](", ")", "(", "]", "*", "_", "#", "`", ">", "|", " ", "\n", "\t", "\r", "\u{00A0}", "\u{2003}", "\u{85}", "-", "+", "\n- ", "\n  + ", "\n---\n", "\n===", "\n|:--|\n", "\n```sh\n", "\n  ~~~\n", "=", ":",
                      "word", "Łódź", "e\u{301}", "\u{301}", "日本語", "\u{1F600}", "🇮🇪", "a", "ab cd"]
        var random = SplitMix64(seed: 5)
        var mismatches: [String] = []
        for _ in 0..<3000 {
            var markdown = ""
            for _ in 0..<Int(random.next() % 40) {
                markdown += pieces[Int(random.next() % UInt64(pieces.count))]
            }
            for length in [3, 12, 160] where SearchSummary.of(markdown, length: length) != referenceSearchSummary(markdown, length: length) {
                mismatches.append("\(length): \(markdown.debugDescription)")
            }
        }
        let mismatchCount = mismatches.count
        #expect(mismatchCount == 0, "\(mismatches.prefix(3))")
    }
}
