import Mustache

/// swift-mustache's HTML escaping, made fast for the common case. The library walks every `Character`
/// through a dictionary (about a tenth of a build's instructions); for ASCII text, where each byte is a
/// character, a byte scan gives the same result. Other text takes the library's own per-character path
/// unchanged, so output is byte-identical.
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
        var needsEscape = false
        for byte in text.utf8 {
            if byte >= 0x80 { return Self.escapeCharacters(text) }
            if Self.asciiReplacements[Int(byte)] != nil { needsEscape = true }
        }
        guard needsEscape else { return text }
        var escaped: [UInt8] = []
        escaped.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            if let replacement = Self.asciiReplacements[Int(byte)] {
                escaped += replacement
            } else {
                escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
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
