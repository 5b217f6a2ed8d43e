import Foundation
import Noticeboard
@testable import Rendering
import Testing

/// A search card's summary: the start of a listing's text, cut at a word.
@Suite struct SearchSummaryTests {
    @Test func aTextIsCutAtAWordWithinItsLength() {
        #expect(textStart("one two three four", length: 10) == "one two…")
        // A word that ends at the length is kept (the review).
        #expect(textStart("one two three", length: 7) == "one two…")
        #expect(textStart("one two", length: 10) == "one two")
        // Counted in characters: a flag is one.
        #expect(textStart("Łódź 日本語 🇮🇪🇮🇪", length: 11) == "Łódź 日本語 🇮🇪🇮🇪")
        #expect(textStart("Łódź 日本語 🇮🇪🇮🇪 more", length: 12) == "Łódź 日本語 🇮🇪🇮🇪…")
    }

    /// A Markdown field's summary is the text of its HTML, as the page's description is: a summary made from the
    /// Markdown by dropping its marks lost `>` from "5 > 3" and left half tags of inline HTML (a tester's report).
    @Test func aCardsSummaryIsItsPagesDescription() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        let bio = #"  See [the manual](https://x.ie/a_(b)) for *details* (really) -- 5 > 3 & <kbd>Ctrl</kbd>, C# and #1."#
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "bio: |\n", with: "bio: |\n\(bio)\n\n"), to: aoife)
        let files = try TestSupport.buildTree(site)
        let page = String(decoding: try #require(files["cleaners/aoife-byrne/index.html"]), as: UTF8.self)
        let description = try #require(page.firstMatch(of: /<meta name="description" content="([^"]*)"/)?.1)
        let cards = files.filter { $0.key.hasPrefix("api/search/cards/") }.values.flatMap { data in
            ((try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["cards"] as? [[Any]]) ?? []
        }
        let card = try #require(cards.first { $0.count > 5 && $0[1] as? String == "cleaners/aoife-byrne/" })
        let summary = try #require(card[5] as? String)
        #expect(summary.hasPrefix("See the manual for details (really) -- 5 > 3 & Ctrl, C# and #1. I have been cleaning"), "\(summary)")
        #expect(summary.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: ">", with: "&gt;") == description)
    }
}
