import CYAML
import SiteModel

/// Limits that keep hostile YAML cheap to refuse.
public struct YAMLLimits: Sendable {
    /// Nodes a document may hold once aliases are counted as copies ("billion laughs" guard).
    public var maxExpandedNodes: Int
    /// Bytes of text that aliases may repeat in all: a few aliases of one long text would otherwise make
    /// pages of gigabytes from a small file.
    public var maxAliasedTextBytes: Int
    /// Nesting depth of lists and mappings.
    public var maxDepth: Int
    /// Bytes in a mapping key. Keys are field and setting names; libyaml already refuses plain keys longer
    /// than 1024 characters, but not keys written after `? `, and every message that names a key quotes it.
    public var maxKeyBytes: Int

    public init(
        maxExpandedNodes: Int = 1_000_000, maxAliasedTextBytes: Int = 4 * 1024 * 1024, maxDepth: Int = 200, maxKeyBytes: Int = 1024
    ) {
        self.maxExpandedNodes = maxExpandedNodes
        self.maxAliasedTextBytes = maxAliasedTextBytes
        self.maxDepth = maxDepth
        self.maxKeyBytes = maxKeyBytes
    }
}

/// Parses one YAML document with libyaml's event parser and composes it into located nodes.
/// Returns nil for a stream with no document (an empty file, or one holding only comments).
public func parseYAML(_ bytes: [UInt8], file: String, limits: YAMLLimits = YAMLLimits()) throws(Diagnostic)
    -> YAMLNode?
{
    var composer = Composer(file: file, limits: limits, bytes: bytes)
    return try composer.run()
}

private struct Composer {
    let file: String
    let limits: YAMLLimits
    let bytes: [UInt8]

    /// A collection still being read. It is changed in place on the stack: taking it off to append would copy
    /// its items each time, which is quadratic in the length of a list.
    private struct Frame {
        let isMapping: Bool
        let line: Int
        let column: Int
        let anchor: String?
        /// Its nodes and text, counting each alias as a copy of what it names.
        var size = Size(nodes: 1, textBytes: 0)
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        /// Where each key of a mapping was first seen, to refuse duplicates without a search.
        var keyPlaces: [String: (line: Int, column: Int)] = [:]
        var pendingKey: YAMLNode?

        init(isMapping: Bool, line: Int, column: Int, anchor: String?) {
            self.isMapping = isMapping
            self.line = line
            self.column = column
            self.anchor = anchor
        }

        var node: YAMLNode {
            YAMLNode(isMapping ? .mapping(pairs) : .sequence(items), line: line, column: column)
        }
    }

    private var stack: [Frame] = []
    /// How big a node is once its aliases are expanded.
    private struct Size {
        var nodes: Int
        var textBytes: Int
    }

    private var anchors: [String: (node: YAMLNode, size: Size)] = [:]
    private var aliasedTextBytes = 0
    private var root: YAMLNode?
    private var documents = 0
    private var aliasUsed = false

    init(file: String, limits: YAMLLimits, bytes: [UInt8]) {
        self.file = file
        self.limits = limits
        self.bytes = bytes
    }

    mutating func run() throws(Diagnostic) -> YAMLNode? {
        if bytes.isEmpty { return nil }  // libyaml wants a non-null input pointer
        // libyaml reads UTF-16 too when the file starts with its byte order mark; anything else must be UTF-8.
        // Checked here because libyaml names the byte after a broken sequence, not the byte that starts it.
        let isUTF16 = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        if !isUTF16, TextPosition.looksLikeUTF16(bytes) { throw .error(at: location(1, 1), TextPosition.utf16Message) }
        if !isUTF16, let (offset, byte) = TextPosition.firstInvalidUTF8(in: bytes) {
            let (line, column) = TextPosition.lineAndColumn(ofByte: offset, in: bytes)
            throw .error(at: location(line, column), TextPosition.notUTF8Message(offset: offset, byte: byte))
        }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            throw .error(at: SourceLocation(file: file), "could not start the YAML parser (out of memory)")
        }
        defer { yaml_parser_delete(&parser) }
        return try bytes.withUnsafeBufferPointer { (buffer) throws(Diagnostic) -> YAMLNode? in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while true {
                guard yaml_parser_parse(&parser, &event) == 1 else { throw syntaxError(parser) }
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return root }
                try handle(event)
            }
        }
    }

    private mutating func handle(_ event: yaml_event_t) throws(Diagnostic) {
        let line = Int(event.start_mark.line) + 1
        let column = Int(event.start_mark.column) + 1
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                throw .error(at: location(line, column), "a file holds one YAML document; found a second one here")
            }
        case YAML_SCALAR_EVENT:
            let scalar = event.data.scalar
            try refuseTag(scalar.tag, line, column)
            try refuseControlCharacter(UnsafeBufferPointer(start: scalar.value, count: scalar.length), line, column)
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let style: ScalarStyle
            switch scalar.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE, YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .quoted
            case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE: style = .block
            default: style = .plain
            }
            try complete(
                YAMLNode(.scalar(text, style), line: line, column: column), size: Size(nodes: 1, textBytes: scalar.length),
                anchor: Composer.string(scalar.anchor))
        case YAML_ALIAS_EVENT:
            let name = Composer.string(event.data.alias.anchor) ?? ""
            guard let anchored = anchors[name] else {
                throw .error(at: location(line, column), "alias '*\(name)' names no anchor defined before it")
            }
            aliasUsed = true
            var node = anchored.node
            node.line = line
            node.column = column
            aliasedTextBytes += anchored.size.textBytes
            guard aliasedTextBytes <= limits.maxAliasedTextBytes else {
                throw .error(
                    at: location(line, column),
                    "aliases (*name) repeat more than \(limits.maxAliasedTextBytes) bytes of text; refusing it unexpanded (a 'billion laughs' alias bomb?)")
            }
            try complete(node, size: anchored.size, anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            try refuseTag(event.data.sequence_start.tag, line, column)
            try push(Frame(isMapping: false, line: line, column: column, anchor: Composer.string(event.data.sequence_start.anchor)))
        case YAML_MAPPING_START_EVENT:
            try refuseTag(event.data.mapping_start.tag, line, column)
            try push(Frame(isMapping: true, line: line, column: column, anchor: Composer.string(event.data.mapping_start.anchor)))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            let frame = stack.removeLast()
            try complete(frame.node, size: frame.size, anchor: frame.anchor)
        default:
            break  // stream start, document end
        }
    }

    /// Tags (`!!int`, `!custom`) would make a value mean something other than what it looks like; none is needed.
    private func refuseTag(_ tag: UnsafeMutablePointer<UInt8>?, _ line: Int, _ column: Int) throws(Diagnostic) {
        guard let tag = Composer.string(tag) else { return }
        throw .error(
            at: location(line, column),
            "listing files do not use YAML tags ('\(tag)'); remove it, or put a value that starts with '!' in quotes")
    }

    /// libyaml refuses control characters written as they are, but a double-quoted escape (`"\0"`, `"\e"`,
    /// `"\x9B"`) makes any of them; they would reach pages and JSON as raw bytes (a NUL, a terminal's ESC).
    private func refuseControlCharacter(_ text: UnsafeBufferPointer<UInt8>, _ line: Int, _ column: Int) throws(Diagnostic) {
        guard let scalar = ControlCharacters.first(inUTF8: text) else { return }
        throw .error(
            at: location(line, column),
            "the text here holds \(ControlCharacters.described(scalar)); remove it")
    }

    private mutating func push(_ frame: Frame) throws(Diagnostic) {
        guard stack.count < limits.maxDepth else {
            throw .error(at: location(frame.line, frame.column), "lists and mappings nest deeper than \(limits.maxDepth) levels")
        }
        stack.append(frame)
    }

    /// Attaches a finished node to the collection being read, or makes it the document's root.
    private mutating func complete(_ node: YAMLNode, size: Size, anchor: String?) throws(Diagnostic) {
        if let anchor { anchors[anchor] = (node, size) }
        guard !stack.isEmpty else {
            root = node
            return
        }
        let top = stack.count - 1
        stack[top].size = try add(size, to: stack[top].size, node)
        if !stack[top].isMapping {
            stack[top].items.append(node)
        } else if let key = stack[top].pendingKey {
            stack[top].pairs.append(YAMLPair(key: key, value: node))
            stack[top].pendingKey = nil
        } else {
            guard let name = node.scalar else {
                throw .error(at: location(node.line, node.column), "mapping keys must be plain text, not \(node.summary)")
            }
            guard name.utf8.count <= limits.maxKeyBytes else {
                throw .error(
                    at: location(node.line, node.column),
                    "a key of \(name.utf8.count) bytes (\(node.summary)); keys are names of at most \(limits.maxKeyBytes) bytes")
            }
            if let first = stack[top].keyPlaces.updateValue((node.line, node.column), forKey: name) {
                throw .error(
                    at: location(node.line, node.column),
                    "duplicate key '\(name)' (first at line \(first.line), column \(first.column))")
            }
            stack[top].pendingKey = node
        }
    }

    private func add(_ size: Size, to total: Size, _ node: YAMLNode) throws(Diagnostic) -> Size {
        let sum = Size(nodes: total.nodes + size.nodes, textBytes: total.textBytes + size.textBytes)
        guard sum.nodes <= limits.maxExpandedNodes else {
            let limit = limits.maxExpandedNodes
            throw .error(
                at: location(node.line, node.column),
                aliasUsed
                    ? "aliases (*name) repeat the file's anchors (&name) past \(limit) values; refusing it unexpanded (a 'billion laughs' alias bomb?)"
                    : "the file holds more than \(limit) values; split it into smaller files")
        }
        return sum
    }

    private func location(_ line: Int, _ column: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column)
    }

    private static func string(_ pointer: UnsafeMutablePointer<UInt8>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    /// Turns libyaml's error state into a located message.
    private func syntaxError(_ parser: yaml_parser_t) -> Diagnostic {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        if parser.error == YAML_READER_ERROR {
            let offset = Int(parser.problem_offset)
            let (line, column) = TextPosition.lineAndColumn(ofByte: offset, in: bytes)
            return .error(at: location(line, column), plainReaderMessage(problem: problem, value: parser.problem_value, offset: offset))
        }
        let line = Int(parser.problem_mark.line) + 1
        let column = Int(parser.problem_mark.column) + 1
        let error = LibYAMLError(
            problem: problem, context: parser.context.map { String(cString: $0) },
            contextLine: Int(parser.context_mark.line) + 1, contextColumn: Int(parser.context_mark.column) + 1,
            byte: byteOffset(line: line, column: column).flatMap { $0 < bytes.count ? bytes[$0] : nil })
        return .error(at: location(line, column), plainSyntaxMessage(error))
    }

    /// Where a UTF-8 file's 1-based line and column (in characters, after any byte order mark) start.
    private func byteOffset(line: Int, column: Int) -> Int? {
        var offset = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var currentLine = 1
        while currentLine < line {
            guard let newline = bytes[offset...].firstIndex(of: 0x0A) else { return nil }
            offset = newline + 1
            currentLine += 1
        }
        var characters = 1
        while offset < bytes.count, characters < column {
            offset += 1
            if offset < bytes.count, bytes[offset] & 0xC0 != 0x80 { characters += 1 }
        }
        return offset
    }

}
