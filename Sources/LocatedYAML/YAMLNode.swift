/// A YAML node with the place it starts in its file (1-based line and column).
public struct YAMLNode: Sendable {
    public enum Content: Sendable {
        case scalar(String, ScalarStyle)
        case sequence([YAMLNode])
        case mapping([YAMLPair])
    }

    public var content: Content
    public var line: Int
    public var column: Int

    public init(_ content: Content, line: Int, column: Int) {
        self.content = content
        self.line = line
        self.column = column
    }

    /// The scalar's text, when the node is a scalar.
    public var scalar: String? {
        if case .scalar(let text, _) = content { return text }
        return nil
    }

    /// A plain `~`, `null` or empty scalar: YAML's way of writing "no value".
    public var isNull: Bool {
        guard case .scalar(let text, .plain) = content else { return false }
        return text.isEmpty || text == "~" || text == "null" || text == "Null" || text == "NULL"
    }

    /// What the node is, for messages: "a mapping", "a list", "the text 'abc'".
    public var summary: String {
        switch content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let text, _):
            if isNull { return "no value" }
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "'\(shown)'"
        }
    }
}

public struct YAMLPair: Sendable {
    public var key: YAMLNode
    public var value: YAMLNode

    /// Keys are always scalars: the composer refuses any other.
    public var name: String { key.scalar ?? "" }
}

/// Plain scalars may be numbers, booleans or null; quoted and block scalars are always text.
public enum ScalarStyle: Sendable, Hashable {
    case plain, quoted, block
}
