/// Where bytes sit in a text file, for messages about files that cannot be read as text.
public enum TextPosition {
    /// 1-based line and column (in characters) of a byte offset. A UTF-8 byte order mark is not counted:
    /// editors do not show it.
    public static func lineAndColumn(ofByte offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var column = 1
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for byte in bytes[start..<max(start, min(offset, bytes.count))] {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    /// The first byte that does not begin valid UTF-8, with its offset; nil when all of `bytes` is UTF-8.
    public static func firstInvalidUTF8(in bytes: [UInt8]) -> (offset: Int, byte: UInt8)? {
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): offset += scalar.count
            case .emptyInput: return nil
            case .error: return (offset, bytes[offset])
            }
        }
    }

    /// The message for text that is not UTF-8, naming the offending byte and its offset.
    public static func notUTF8Message(offset: Int, byte: UInt8) -> String {
        "the file is not UTF-8 text: byte \(hex(byte)) at byte offset \(offset) is not valid UTF-8; save the file with UTF-8 encoding"
    }

    /// Whether the text starts as UTF-16 without a byte order mark does: a zero byte beside each of its first
    /// characters (those of the Latin alphabet, as a YAML file's first key is), in either byte order.
    public static func looksLikeUTF16(_ bytes: [UInt8]) -> Bool {
        let start = bytes.prefix(16)
        guard start.count >= 4, start.count % 2 == 0 else { return false }
        let pairs = stride(from: start.startIndex, to: start.endIndex, by: 2).map { (start[$0], start[$0 + 1]) }
        return pairs.allSatisfy { $0.0 == 0 && $0.1 != 0 } || pairs.allSatisfy { $0.0 != 0 && $0.1 == 0 }
    }

    public static let utf16Message = "the file looks like UTF-16 text without a byte order mark (a zero byte beside each character); "
        + "save it with UTF-8 encoding"

    /// `0x07`, `0xE9`.
    public static func hex(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return "0x" + (digits.count == 1 ? "0" : "") + digits
    }
}
