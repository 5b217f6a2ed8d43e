import Foundation

/// The search index's text: folded to lowercase without accents, keeping letters, numbers, `€`, `.` and `'`,
/// every other run of characters one space.
///
/// Foundation's `folding` and the per-`Character` scan cost about a tenth of a build's instructions, so
/// text is cut at spaces between two ASCII bytes (where no character can straddle the cut) and each
/// all-ASCII piece, where folding is plain lowercasing, is scanned byte by byte. Other pieces take the
/// Foundation path, so the result is the same as folding the whole text at once.
struct SearchWords {
    /// UTF-8 of the result; appending bytes is much cheaper than appending to a String.
    private var bytes: [UInt8] = []
    private var pendingSpace = false

    static func of(_ source: String) -> String {
        var words = SearchWords()
        words.bytes.reserveCapacity(source.utf8.count)
        var source = source
        source.withUTF8 { bytes in
            var start = 0
            var allASCII = true
            for index in bytes.indices {
                let byte = bytes[index]
                if byte >= 0x80 { allASCII = false }
                let isCut = byte == UInt8(ascii: " ") && index > 0 && bytes[index - 1] < 0x80 && index + 1 < bytes.count && bytes[index + 1] < 0x80
                if isCut {
                    words.add(UnsafeBufferPointer(rebasing: bytes[start..<index]), allASCII: allASCII)
                    words.pendingSpace = true
                    start = index + 1
                    allASCII = true
                }
            }
            words.add(UnsafeBufferPointer(rebasing: bytes[start...]), allASCII: allASCII)
        }
        return String(decoding: words.bytes, as: UTF8.self)
    }

    private mutating func add(_ piece: UnsafeBufferPointer<UInt8>, allASCII: Bool) {
        guard allASCII else {
            let folded = String(decoding: piece, as: UTF8.self).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
            for character in folded {
                keep(character.isLetter || character.isNumber || character == "€" || character == "." || character == "'") {
                    $0.append(contentsOf: character.utf8)
                }
            }
            return
        }
        for var byte in piece {
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte += 0x20 }
            let isWordByte = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "'")
            keep(isWordByte) { $0.append(byte) }
        }
    }

    /// Appends a kept character after one space if anything was skipped since the last; remembers a skip.
    private mutating func keep(_ isKept: Bool, _ append: (inout [UInt8]) -> Void) {
        guard isKept else {
            pendingSpace = true
            return
        }
        if pendingSpace && !bytes.isEmpty { bytes.append(UInt8(ascii: " ")) }
        pendingSpace = false
        append(&bytes)
    }
}
