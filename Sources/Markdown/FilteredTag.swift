/// A tag that GitHub Flavored Markdown's tag filter writes out as text even where raw HTML is allowed
/// (`<iframe>`, `<script>`, `<style>`…): what was meant to embed something shows its markup instead.
public struct FilteredTag: Sendable, Equatable {
    /// As written, lowercased: `iframe`.
    public let name: String
    /// Its line in the text, from 0.
    public let line: Int

    /// The names cmark-gfm's tag filter escapes (extensions/tagfilter.c).
    static let names: Set<String> = ["title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script", "plaintext"]

    /// The filtered tags that open in `html`, raw HTML that starts at line `line` of the text. An opening tag
    /// is `<`, a filtered name in any case, then a space, `>` or `/`, as the filter reads one.
    static func found(in html: String, line: Int) -> [FilteredTag] {
        var tags: [FilteredTag] = []
        var line = line
        let bytes = Array(html.utf8)
        for (index, byte) in bytes.enumerated() {
            if byte == UInt8(ascii: "\n") { line += 1 }
            guard byte == UInt8(ascii: "<") else { continue }
            let nameBytes = bytes[(index + 1)...].prefix { ($0 | 0x20) >= UInt8(ascii: "a") && ($0 | 0x20) <= UInt8(ascii: "z") }
            let end = index + 1 + nameBytes.count
            let name = String(decoding: nameBytes, as: UTF8.self).lowercased()
            guard names.contains(name), end == bytes.count || [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[end])
            else { continue }
            tags.append(FilteredTag(name: name, line: line))
        }
        return tags
    }

    /// Why the tag will not embed anything. `what` names the field or page: `'bio'`, `the page`; `namingLine`
    /// when the message's location is not the tag's own line.
    public func message(_ what: String, namingLine: Bool) -> String {
        "\(what) has <\(name)>\(namingLine ? " (line \(line + 1) of its text)" : ""), which GitHub Flavored Markdown's tag filter writes out as "
            + "text even with allow_raw_html, so visitors would see its markup; put what it embeds in a template instead"
    }
}
