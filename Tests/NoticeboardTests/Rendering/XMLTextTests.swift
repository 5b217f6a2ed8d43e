@testable import Rendering
import Testing

/// Text in the sitemap and Atom feeds: markup characters escaped, characters XML forbids dropped, and
/// everything else as it was.
@Suite struct XMLTextTests {
    @Test func markupIsEscapedAndForbiddenCharactersDropped() {
        #expect(xmlEscaped(#"<a href="x">Tom & Jerry's</a>"#) == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;")
        #expect(xmlEscaped("bell\u{7}, form feed\u{C}, nul\u{0}, unit\u{1F} end") == "bell, form feed, nul, unit end")
        #expect(xmlEscaped("not a character: \u{FFFE}\u{FFFF}.") == "not a character: .")
    }

    @Test func textWithNothingToEscapeIsKept() {
        for text in [
            "", "https://example.org/catalogue/cleaners/aoife-byrne/", "tab\tline\nreturn\r\n", "Dún Laoghaire – Łódź · 東京 🧹",
            // U+FFFD and U+FEFF begin with the byte U+FFFE does (EF), and are kept.
            "\u{FFFD}\u{FEFF}\u{FFEE}",
        ] {
            #expect(xmlEscaped(text) == text)
        }
    }
}
