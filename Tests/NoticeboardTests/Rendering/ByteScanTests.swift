import Mustache
@testable import Rendering
import SiteModel
import Support
import Testing

/// The writers that pass over text a word at a time (`ByteScan`) write what a byte-by-byte loop, or
/// swift-mustache's own escaping, would: text is made of pieces that put special bytes at every offset of a
/// word, at its ends, and beside non-ASCII bytes and combining marks.
@Suite struct ByteScanTests {
    /// Pieces of text: plain, special to JSON, HTML or CSV, control bytes, multi-byte, and Characters that hold
    /// a special byte with a scalar around it (a combining acute after `"`, an Arabic number sign before `<`).
    private static let pieces = [
        "a", "bc", "defghij", "0123456789abcdef", " ", "\"", "\\", "<", ">", "&", "'", ",", "\n", "\r", "\r\n", "\t", "\u{1}",
        "\u{1F}", "\u{7F}", "é", "€", "漢", "🧹", "\u{301}", "\u{600}", "\"\u{301}", "\u{600}<", "é&", "&é",
    ]

    private static func texts(seed: UInt64, count: Int = 3_000) -> [String] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            let length = Int(random.next() % 40)
            return (0..<length).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
        }
    }

    @Test func findsTheFirstSpecialByteAtAnyOffset() {
        func scan(_ bytes: [UInt8]) -> Int {
            bytes.withUnsafeBufferPointer { buffer in
                ByteScan.next(
                    in: buffer, from: 0,
                    wordHolds: { ByteScan.hasByte(below: 0x20, in: $0) || ByteScan.hasByte(UInt8(ascii: "\""), in: $0) || ByteScan.hasByte(0x80, in: $0) },
                    isSpecial: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == 0x80 })
            }
        }
        for length in 0..<40 {
            for position in 0...length {
                var bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                for special: UInt8 in [0x00, 0x1F, UInt8(ascii: "\""), 0x80] where position < length {
                    bytes[position] = special
                    #expect(scan(bytes) == position, "length \(length), byte \(special)")
                }
                // Bytes just above and below the set's are not found.
                bytes = [UInt8](repeating: UInt8(ascii: "x"), count: length)
                if position < length { bytes[position] = [0x20, 0x21, 0x23, 0x7F, 0x81, 0xFF][position % 6] }
                #expect(scan(bytes) == length)
            }
        }
    }

    @Test func htmlEscapingIsSwiftMustachesOwn() throws {
        // Without the pragma, the library escapes with its own algorithm.
        let library = try MustacheTemplate(string: "{{text}}")
        for text in Self.texts(seed: 1) {
            #expect(HTMLEscaping().escapeText(text) == library.render(["text": text]), "\(Array(text.unicodeScalars))")
        }
    }

    @Test func jsonEscapesWhatAByteLoopEscapes() {
        let hexDigits = Array("0123456789abcdef".utf8)
        for text in Self.texts(seed: 2) {
            var expected = [UInt8(ascii: "\"")]
            for byte in text.utf8 {
                switch byte {
                case UInt8(ascii: "\""): expected += Array(#"\""#.utf8)
                case UInt8(ascii: "\\"): expected += Array(#"\\"#.utf8)
                case UInt8(ascii: "\n"): expected += Array(#"\n"#.utf8)
                case UInt8(ascii: "\r"): expected += Array(#"\r"#.utf8)
                case UInt8(ascii: "\t"): expected += Array(#"\t"#.utf8)
                case ..<0x20: expected += Array("\\u00".utf8) + [hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
                default: expected.append(byte)
                }
            }
            expected += Array("\"\n".utf8)
            #expect(JSONWriter.bytes(.string(text)) == expected, "\(Array(text.unicodeScalars))")
        }
    }

    @Test func csvQuotesWhatAByteLoopQuotes() {
        for text in Self.texts(seed: 3) {
            let listing = Listing(kind: "notes", slug: "n", file: "content/notes/n.yaml", fields: ["text": .string(text)])
            let mustQuote = text.utf8.contains { Array(",\"\n\r".utf8).contains($0) }
            let isFormula = text.utf8.first.map { "=+-@\t\r".utf8.contains($0) } ?? false
            var expected = Array((mustQuote ? "\"" : "").utf8) + Array((isFormula ? "'" : "").utf8)
            for byte in text.utf8 { expected += mustQuote && byte == UInt8(ascii: "\"") ? [byte, byte] : [byte] }
            expected += Array(((mustQuote ? "\"" : "") + "\r\n").utf8)
            #expect(SiteRenderer.csvRow(listing, columns: ["text"]) == expected, "\(Array(text.unicodeScalars))")
        }
    }
}
