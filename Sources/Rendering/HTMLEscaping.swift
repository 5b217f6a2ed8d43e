import Mustache

/// swift-mustache's HTML escaping, made fast. The library walks every `Character` through a dictionary (about
/// a tenth of a build's instructions); where each special character is a Character of its own, a byte scan
/// gives the same result. Other text takes the library's own per-character path, so output is byte-identical.
struct HTMLEscaping: MustacheContentType {
    /// Registered under this name and switched on by a `{{% CONTENT_TYPE: … }}` line `TemplateSet` puts first
    /// in every template: swift-mustache has no other way to replace its default escaping.
    static let name = "NOTICEBOARD_HTML"
    static let pragma = "{{% CONTENT_TYPE: \(name) }}\n"

    static let registered: Void = MustacheContentTypes.register(HTMLEscaping(), named: name)

    private static let replacements: [Character: String] = ["<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;", "'": "&#39;"]
    /// The same replacements indexed by ASCII byte.
    private static let asciiReplacements: [[UInt8]?] = (0..<128).map { byte in
        replacements[Character(Unicode.Scalar(UInt8(byte)))].map { Array($0.utf8) }
    }

    func escapeText(_ text: String) -> String {
        var escaped: [UInt8] = []
        escape(text, into: &escaped)
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Appends the escaped text to `output`, byte by byte. The library replaces whole Characters, so a special
    /// character next to a non-ASCII scalar may be part of a larger Character (`"` and a combining accent, or a
    /// prepended sign before `<`) and stay as it is: such text takes the library's algorithm.
    func escape(_ text: String, into output: inout [UInt8]) {
        var needsEscape = false
        // What the byte before was, each byte classified once.
        var previousSpecial = false, previousNonASCII = false
        for byte in text.utf8 {
            let nonASCII = byte >= 0x80
            let special = !nonASCII && Self.asciiReplacements[Int(byte)] != nil
            if (special && previousNonASCII) || (nonASCII && previousSpecial) {
                output += Self.escapeCharacters(text).utf8
                return
            }
            needsEscape = needsEscape || special
            (previousSpecial, previousNonASCII) = (special, nonASCII)
        }
        guard needsEscape else {
            output += text.utf8
            return
        }
        for byte in text.utf8 {
            if byte < 0x80, let replacement = Self.asciiReplacements[Int(byte)] {
                output += replacement
            } else {
                output.append(byte)
            }
        }
    }

    /// The library's algorithm: a `Character` such as `"` followed by a combining mark is left as it is.
    private static func escapeCharacters(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            if let replacement = replacements[character] {
                escaped += replacement
            } else {
                escaped.append(character)
            }
        }
        return escaped
    }
}
