import SiteModel
import Testing

/// The characters no text may hold, found in UTF-8 and shown safely in a message.
@Suite struct ControlCharactersTests {
    @Test func theFirstRefusedCharacterIsFoundInUTF8() {
        func first(_ text: String) -> Unicode.Scalar? {
            var text = text
            return text.withUTF8 { ControlCharacters.first(inUTF8: $0) }
        }
        #expect(first("tab\tand\nnewline, é, \u{2067}isolate\u{2069}") == nil)
        #expect(first("a\u{1B}b") == "\u{1B}" && first("a\u{9B}b") == "\u{9B}")
        #expect(first("Invoice \u{202E}gnp.exe") == "\u{202E}" && first("\u{202A}") == "\u{202A}")
    }

    /// A file name or value quoted in a message can neither move the terminal's cursor nor reorder its line.
    @Test func aMessageShowsControlsAsTextItCanPrint() {
        #expect(ControlCharacters.shown("a\u{1B}[2Jb\u{9B}c\u{202E}d") == "a\u{241B}[2Jb\\u{9B}c\\u{202E}d")
        #expect(ControlCharacters.shown("plain é \u{2067}x\u{2069}") == "plain é \u{2067}x\u{2069}")
    }
}
