/// Writes generated listings as YAML: block mappings, flow lists of scalars, block lists of objects,
/// double-quoted strings, and `|` blocks for text that spans lines (the way people write Markdown fields).
enum YAMLEmitter {
    static func document(_ fields: [(name: String, value: SyntheticValue)]) -> String {
        var out = ""
        mapping(fields, indent: "", into: &out)
        return out
    }

    static func mapping(_ fields: [(name: String, value: SyntheticValue)], indent: String, into out: inout String) {
        for (name, value) in fields {
            out += indent + name + ":"
            switch value {
            case .text(let text) where text.contains("\n"):
                out += " |\n"
                for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                    out += line.isEmpty ? "\n" : indent + "  " + line + "\n"
                }
            case .list(let items) where items.contains(where: { if case .object = $0 { return true } else { return false } }):
                out += "\n"
                for case .object(let itemFields) in items {
                    var item = ""
                    mapping(itemFields, indent: indent + "    ", into: &item)
                    out += indent + "  - " + item.dropFirst(indent.count + 4)
                }
            default:
                out += " " + scalar(value) + "\n"
            }
        }
    }

    /// A scalar or a flow list of scalars.
    static func scalar(_ value: SyntheticValue) -> String {
        switch value {
        case .text(let text): return quoted(text)
        case .bare(let text): return text
        case .list(let items): return "[" + items.map(scalar).joined(separator: ", ") + "]"
        case .object(let fields): return "{" + fields.map { "\($0.name): \(scalar($0.value))" }.joined(separator: ", ") + "}"
        }
    }

    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
