import CYAML
import SiteModel

/// Limits that keep hostile YAML cheap to refuse.
public struct YAMLLimits: Sendable {
    /// Nodes a document may hold once aliases are counted as copies ("billion laughs" guard).
    public var maxExpandedNodes: Int
    /// Nesting depth of lists and mappings.
    public var maxDepth: Int

    public init(maxExpandedNodes: Int = 1_000_000, maxDepth: Int = 200) {
        self.maxExpandedNodes = maxExpandedNodes
        self.maxDepth = maxDepth
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

    /// A collection still being read; `weight` counts its nodes with aliases expanded.
    private enum Frame {
        case sequence(items: [YAMLNode], line: Int, column: Int, anchor: String?, weight: Int)
        case mapping(pairs: [YAMLPair], pendingKey: YAMLNode?, line: Int, column: Int, anchor: String?, weight: Int)
    }

    private var stack: [Frame] = []
    private var anchors: [String: (node: YAMLNode, weight: Int)] = [:]
    private var root: YAMLNode?
    private var rootWeight = 0
    private var documents = 0

    init(file: String, limits: YAMLLimits, bytes: [UInt8]) {
        self.file = file
        self.limits = limits
        self.bytes = bytes
    }

    mutating func run() throws(Diagnostic) -> YAMLNode? {
        if bytes.isEmpty { return nil }  // libyaml wants a non-null input pointer
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
            let text = String(decoding: UnsafeBufferPointer(start: scalar.value, count: scalar.length), as: UTF8.self)
            let style: ScalarStyle
            switch scalar.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE, YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .quoted
            case YAML_LITERAL_SCALAR_STYLE, YAML_FOLDED_SCALAR_STYLE: style = .block
            default: style = .plain
            }
            try complete(
                YAMLNode(.scalar(text, style), line: line, column: column), weight: 1,
                anchor: Composer.string(scalar.anchor))
        case YAML_ALIAS_EVENT:
            let name = Composer.string(event.data.alias.anchor) ?? ""
            guard let anchored = anchors[name] else {
                throw .error(at: location(line, column), "alias '*\(name)' names no anchor defined before it")
            }
            var node = anchored.node
            node.line = line
            node.column = column
            try complete(node, weight: anchored.weight, anchor: nil)
        case YAML_SEQUENCE_START_EVENT:
            try push(.sequence(items: [], line: line, column: column, anchor: Composer.string(event.data.sequence_start.anchor), weight: 1), line, column)
        case YAML_MAPPING_START_EVENT:
            try push(.mapping(pairs: [], pendingKey: nil, line: line, column: column, anchor: Composer.string(event.data.mapping_start.anchor), weight: 1), line, column)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            switch stack.removeLast() {
            case .sequence(let items, let line, let column, let anchor, let weight):
                try complete(YAMLNode(.sequence(items), line: line, column: column), weight: weight, anchor: anchor)
            case .mapping(let pairs, _, let line, let column, let anchor, let weight):
                try complete(YAMLNode(.mapping(pairs), line: line, column: column), weight: weight, anchor: anchor)
            }
        default:
            break  // stream start, document end
        }
    }

    private mutating func push(_ frame: Frame, _ line: Int, _ column: Int) throws(Diagnostic) {
        guard stack.count < limits.maxDepth else {
            throw .error(at: location(line, column), "lists and mappings nest deeper than \(limits.maxDepth) levels")
        }
        stack.append(frame)
    }

    /// Attaches a finished node to the collection being read, or makes it the document's root.
    private mutating func complete(_ node: YAMLNode, weight: Int, anchor: String?) throws(Diagnostic) {
        if let anchor { anchors[anchor] = (node, weight) }
        guard let top = stack.popLast() else {
            root = node
            rootWeight = weight
            return
        }
        switch top {
        case .sequence(var items, let line, let column, let frameAnchor, let total):
            items.append(node)
            stack.append(.sequence(items: items, line: line, column: column, anchor: frameAnchor, weight: try add(total, weight, node)))
        case .mapping(var pairs, let pendingKey, let line, let column, let frameAnchor, let total):
            let newTotal = try add(total, weight, node)
            if let key = pendingKey {
                pairs.append(YAMLPair(key: key, value: node))
                stack.append(.mapping(pairs: pairs, pendingKey: nil, line: line, column: column, anchor: frameAnchor, weight: newTotal))
            } else {
                guard let name = node.scalar else {
                    throw .error(at: location(node.line, node.column), "mapping keys must be plain text, not \(node.summary)")
                }
                if let first = pairs.first(where: { $0.name == name }) {
                    throw .error(
                        at: location(node.line, node.column),
                        "duplicate key '\(name)' (first at line \(first.key.line), column \(first.key.column))")
                }
                stack.append(.mapping(pairs: pairs, pendingKey: node, line: line, column: column, anchor: frameAnchor, weight: newTotal))
            }
        }
    }

    private func add(_ total: Int, _ weight: Int, _ node: YAMLNode) throws(Diagnostic) -> Int {
        let sum = total + weight
        guard sum <= limits.maxExpandedNodes else {
            throw .error(
                at: location(node.line, node.column),
                "aliases expand this document past \(limits.maxExpandedNodes) nodes; refusing it (a 'billion laughs' alias bomb?)")
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
            let (line, column) = lineAndColumn(ofByte: offset)
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

    /// 1-based line and column (in characters) of a byte offset, for errors libyaml gives only an offset for.
    /// A byte order mark is not counted: editors do not show it.
    private func lineAndColumn(ofByte offset: Int) -> (Int, Int) {
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
}
