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

    func escapeText(_ text: String) -> String {
        var escaped: [UInt8] = []
        escape(text, into: &escaped)
        return String(decoding: escaped, as: UTF8.self)
    }

    /// Appends the escaped text to `output`, a run between special bytes at a time. The library replaces whole
    /// Characters, so a special character next to a non-ASCII byte may be part of a larger Character (`"` and a
    /// combining accent, or a prepended sign before `<`) and stay as it is: such text takes the library's
    /// algorithm instead, over what was appended.
    func escape(_ text: String, into output: inout [UInt8]) {
        let start = output.count
        var text = text
        let isByteWise = text.withUTF8 { bytes in
            var runStart = 0
            var index = Self.nextSpecial(in: bytes, from: 0)
            while index < bytes.count {
                if (index > 0 && bytes[index - 1] >= 0x80) || (index + 1 < bytes.count && bytes[index + 1] >= 0x80) { return false }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                Self.appendReplacement(of: bytes[index], to: &output)
                runStart = index + 1
                index = Self.nextSpecial(in: bytes, from: runStart)
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
            return true
        }
        if !isByteWise {
            output.removeSubrange(start...)
            output += Self.escapeCharacters(text).utf8
        }
    }

    private static func nextSpecial(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        ByteScan.next(
            in: bytes, from: start,
            wordHolds: { word in
                ByteScan.hasByte(UInt8(ascii: "<"), in: word) || ByteScan.hasByte(UInt8(ascii: ">"), in: word)
                    || ByteScan.hasByte(UInt8(ascii: "&"), in: word) || ByteScan.hasByte(UInt8(ascii: "\""), in: word)
                    || ByteScan.hasByte(UInt8(ascii: "'"), in: word)
            },
            isSpecial: { replacement(of: $0) != nil })
    }

    /// The library's replacements, by byte.
    @inline(__always)
    private static func replacement(of byte: UInt8) -> StaticString? {
        switch byte {
        case UInt8(ascii: "<"): "&lt;"
        case UInt8(ascii: ">"): "&gt;"
        case UInt8(ascii: "&"): "&amp;"
        case UInt8(ascii: "\""): "&quot;"
        case UInt8(ascii: "'"): "&#39;"
        default: nil
        }
    }

    private static func appendReplacement(of byte: UInt8, to output: inout [UInt8]) {
        guard let replacement = replacement(of: byte) else { return output.append(byte) }
        replacement.withUTF8Buffer { output.append(contentsOf: $0) }
    }

    /// The library's algorithm: a `Character` such as `"` followed by a combining mark is left as it is; the
    /// library's table holds one-byte Characters only, the five `replacement(of:)` replaces.
    private static func escapeCharacters(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.count)
        for character in text {
            if character.utf8.count == 1, let replacement = replacement(of: character.utf8.first!) {
                escaped += replacement.description
            } else {
                escaped.append(character)
            }
        }
        return escaped
    }
}
