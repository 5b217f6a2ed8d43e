/// The control characters no text of a site may hold: C0 but tab and line feed, DEL, and C1, which come from
/// YAML escapes and from file names, and would reach pages as raw bytes or forge lines in a terminal; and the
/// explicit direction controls, which reorder a page's text beyond the value holding them.
public enum ControlCharacters {
    public static func isRefused(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A: false
        case 0..<0x20, 0x7F..<0xA0, directionControls: true
        default: false
        }
    }

    /// The explicit embeddings and overrides (LRE, RLE, PDF, LRO, RLO): one left open reorders the page's text
    /// after the value that holds it ("gnp.exe" after U+202E shows as "exe.png", and the sentence after it
    /// backwards). Right-to-left text needs none; the isolates (U+2066 to U+2069), which stay within their
    /// element, are allowed.
    private static let directionControls: ClosedRange<UInt32> = 0x202A...0x202E

    /// A refused character as messages name it, with why it may not be published: `the control character
    /// U+001B, which pages and feeds cannot show`.
    public static func described(_ scalar: Unicode.Scalar) -> String {
        let why = directionControls.contains(scalar.value)
            ? "a direction control, which would reorder the page's text around it" : "which pages and feeds cannot show"
        return "the control character \(name(scalar)), \(why)"
    }

    /// The first refused character of UTF-8 text (C1 characters are two bytes, 0xC2 0x80 to 0xC2 0x9F; the
    /// direction controls three, 0xE2 0x80 0xAA to 0xE2 0x80 0xAE).
    public static func first(inUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Unicode.Scalar? {
        for (index, byte) in bytes.enumerated() {
            if byte < 0x20 && byte != 0x09 && byte != 0x0A || byte == 0x7F { return Unicode.Scalar(byte) }
            if byte == 0xC2, index + 1 < bytes.count, (0x80..<0xA0).contains(bytes[index + 1]) {
                return Unicode.Scalar(bytes[index + 1])
            }
            if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, (0xAA...0xAE).contains(bytes[index + 2]) {
                return Unicode.Scalar(0x2000 + UInt32(bytes[index + 2] - 0x80))
            }
        }
        return nil
    }

    /// `U+001B`, as messages name one.
    private static func name(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// Text as one line of a terminal or log shows it safely: C0 controls and DEL as their Unicode pictures
    /// (␀, ␊, ␛), C1 controls and direction controls as `\u{9B}`, `\u{202E}`, so that none vanishes, breaks the
    /// line, moves the cursor or reorders the line.
    public static func shown(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || isRefused($0) }) else { return text }
        var shown = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0..<0x20: shown.append(Unicode.Scalar(0x2400 + scalar.value)!)
            case 0x7F: shown.append("\u{2421}")
            case 0x80..<0xA0, directionControls: shown.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            default: shown.append(scalar)
            }
        }
        return String(shown)
    }
}
