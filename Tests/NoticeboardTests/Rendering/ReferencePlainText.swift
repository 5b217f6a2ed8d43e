/// `plainText(ofHTML:)` as it was first written, scalar by scalar with a String per tag: the reference the
/// byte-wise version is compared with.
func referencePlainText(ofHTML html: String) -> String {
    var text = String.UnicodeScalarView()
    var tag: String.UnicodeScalarView?
    var pendingSpace = false
    func append(_ scalar: Unicode.Scalar) {
        if scalar.properties.isWhitespace {
            pendingSpace = !text.isEmpty
            return
        }
        if pendingSpace { text.append(" ") }
        pendingSpace = false
        text.append(scalar)
    }
    var scalars = html.unicodeScalars[...]
    while let scalar = scalars.popFirst() {
        if tag != nil {
            guard scalar == ">" else { tag!.append(scalar); continue }
            let name = String(String(tag!).drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber })
            if !tag!.starts(with: "!".unicodeScalars) && !inlineTags.contains(name.lowercased()) { append(" ") }
            tag = nil
        } else if scalar == "<" {
            tag = String.UnicodeScalarView()
        } else if scalar == "&", let (entity, character) = entities.first(where: { scalars.starts(with: $0.name.unicodeScalars) }) {
            scalars.removeFirst(entity.unicodeScalars.count)
            append(character)
        } else {
            append(scalar)
        }
    }
    return String(text)
}

/// The entities cmark-gfm writes in text, after their `&`.
private let entities: [(name: String, character: Unicode.Scalar)] = [("lt;", "<"), ("gt;", ">"), ("quot;", "\""), ("#39;", "'"), ("amp;", "&")]

private let inlineTags: Set<String> = ["a", "em", "strong", "code", "del", "s", "span", "sup", "sub", "b", "i", "img"]
