/// A template's tags as a tree, each with the line and column of its name, for the checks of partials
/// (`TemplateSet`) and of names (`TemplateNameCheck`). Hand-written because swift-mustache keeps no source
/// locations in its parse tree (and does not expose it). The library reports syntax errors, so this need
/// not: on anything it does not expect, it stops and returns what it read.
/// Set-delimiter tags (`{{=<% %>=}}`) are followed; comments and the content-type pragma are skipped.
enum MustacheNode: Equatable {
    /// `{{name}}`, `{{{name}}}`, `{{&name}}`.
    case variable(MustacheName)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(MustacheName, inverted: Bool, [MustacheNode])
    /// `{{> name}}`, or the parent of `{{<name}}…{{/name}}`.
    case partial(name: String, line: Int, column: Int)
    /// `{{>*name}}` or `{{<*name}}`, a partial chosen by the text a name gives, which `TemplateSet` refuses.
    case dynamicPartial(MustacheName, sigil: Character)
    /// What is inside `{{<parent}}…{{/parent}}` (after the parent, as a partial) or `{{$block}}…{{/block}}`: it
    /// renders in the same context.
    case group([MustacheNode])
}

/// A name as a tag writes it, `count(listing.languages)`: `transforms` applied right to left to `path`.
struct MustacheName: Equatable {
    var path: String
    var transforms: [String]
    var line: Int
    var column: Int

    /// How the tag wrote it, for messages.
    var written: String {
        transforms.map { $0 + "(" }.joined() + path + String(repeating: ")", count: transforms.count)
    }
}

struct MustacheTagScanner {
    private let scalars: [Unicode.Scalar]
    private var position = 0
    private var line = 1
    private var lineStart = 0
    private var open: [Unicode.Scalar] = Array("{{".unicodeScalars)
    private var close: [Unicode.Scalar] = Array("}}".unicodeScalars)
    /// How many sections (and parents and blocks) enclose the tag being read.
    private var depth = 0
    /// Where the name of the last section, parent or block opened is.
    private var opened = (line: 1, column: 1)
    /// Where the first section opened more than `deepestNesting` deep is, when there is one: the scan stops there.
    private var tooDeep: (line: Int, column: Int)?

    /// The most sections a tag may sit inside. Templates nest a handful; each level is a call in every walk of
    /// the tree (3,000 ran a build's thread out of stack, and the checks grew with the square of the depth).
    static let deepestNesting = 100

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
    }

    /// The template's tags, nested by section.
    static func nodes(of text: String) -> [MustacheNode] {
        scan(text).nodes
    }

    /// The template's tags, and where it nests sections more than `deepestNesting` deep, if it does (the tags
    /// are then those before that place).
    static func scan(_ text: String) -> (nodes: [MustacheNode], tooDeep: (line: Int, column: Int)?) {
        var scanner = MustacheTagScanner(text)
        let nodes = scanner.readNodes()
        return (nodes, scanner.tooDeep)
    }

    /// The nodes up to the end of the text or of the section being read.
    private mutating func readNodes() -> [MustacheNode] {
        var nodes: [MustacheNode] = []
        while skip(past: open) {
            guard position < scalars.count else { break }
            let sigil = scalars[position]
            switch sigil {
            case "!", "%":
                guard skip(past: close) else { return nodes }
            case "=":
                guard readDelimiters() else { return nodes }
            case "/":
                position += 1
                _ = readName()
                return nodes
            case "#", "^":
                position += 1
                guard let name = readName() else { return nodes }
                opened = (name.line, name.column)
                nodes.append(.section(name, inverted: sigil == "^", readNested()))
            case "<":
                // A parent template, rendered in this context with the blocks inside replacing its own.
                position += 1
                guard let parent = readPartial(sigil: "<") else { return nodes }
                opened = (line, position - lineStart)
                nodes.append(parent)
                nodes.append(.group(readNested()))
            case "$":
                position += 1
                guard let block = readName() else { return nodes }
                opened = (block.line, block.column)
                nodes.append(.group(readNested()))
            case ">":
                position += 1
                guard let partial = readPartial(sigil: ">") else { return nodes }
                nodes.append(partial)
            case "{":
                // `{{{name}}}`; as the library reads it, the extra `}` follows the closing delimiter: `<%{name%>}`.
                position += 1
                guard let name = readName(), position < scalars.count, scalars[position] == "}" else { return nodes }
                position += 1
                nodes.append(.variable(name))
            case "&":
                position += 1
                guard let name = readName() else { return nodes }
                nodes.append(.variable(name))
            default:
                guard let name = readName() else { return nodes }
                nodes.append(.variable(name))
            }
        }
        return nodes
    }

    /// The nodes inside the section, parent or block just opened; none past `deepestNesting`, where the scan stops.
    private mutating func readNested() -> [MustacheNode] {
        depth += 1
        defer { depth -= 1 }
        guard depth <= Self.deepestNesting else {
            if tooDeep == nil { tooDeep = opened }
            position = scalars.count
            return []
        }
        return readNodes()
    }

    /// The name of a partial or parent tag, after its `sigil`: chosen by a value when it starts with `*`.
    private mutating func readPartial(sigil: Character) -> MustacheNode? {
        skipWhitespace()
        let chosenByValue = position < scalars.count && scalars[position] == "*"
        if chosenByValue { position += 1 }
        guard let name = readName(allowingSlash: true) else { return nil }
        return chosenByValue ? .dynamicPartial(name, sigil: sigil) : .partial(name: name.path, line: name.line, column: name.column)
    }

    private mutating func advance() {
        if scalars[position] == "\n" {
            line += 1
            lineStart = position + 1
        }
        position += 1
    }

    private func matches(_ delimiter: [Unicode.Scalar]) -> Bool {
        position + delimiter.count <= scalars.count && Array(scalars[position..<position + delimiter.count]) == delimiter
    }

    /// Moves past the next `delimiter`, counting lines; false at the end of the text.
    private mutating func skip(past delimiter: [Unicode.Scalar]) -> Bool {
        while position < scalars.count {
            if matches(delimiter) {
                position += delimiter.count
                return true
            }
            advance()
        }
        return false
    }

    private mutating func skipWhitespace() {
        while position < scalars.count, scalars[position].properties.isWhitespace { advance() }
    }

    /// `{{=<% %>=}}`: the new delimiters take effect after the tag.
    private mutating func readDelimiters() -> Bool {
        position += 1
        skipWhitespace()
        let start = readWhile { !$0.properties.isWhitespace }
        skipWhitespace()
        let end = readWhile { !$0.properties.isWhitespace && $0 != "=" }
        skipWhitespace()
        guard !start.isEmpty, !end.isEmpty, position < scalars.count, scalars[position] == "=" else { return false }
        position += 1
        guard matches(close) else { return false }
        position += close.count
        (open, close) = (start, end)
        return true
    }

    /// What swift-mustache allows in a name.
    private static let nameCharacters = Set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*()".unicodeScalars)

    private mutating func readWhile(_ keep: (Unicode.Scalar) -> Bool) -> [Unicode.Scalar] {
        var read: [Unicode.Scalar] = []
        while position < scalars.count, keep(scalars[position]) {
            read.append(scalars[position])
            position += 1
        }
        return read
    }

    /// The tag's name up to the closing delimiter, split into transforms.
    private mutating func readName(allowingSlash: Bool = false) -> MustacheName? {
        skipWhitespace()
        let column = position - lineStart + 1
        let startLine = line
        let text = String(String.UnicodeScalarView(readWhile { scalar in
            Self.nameCharacters.contains(scalar) || (allowingSlash && scalar == "/")
        }))
        skipWhitespace()
        guard matches(close) else { return nil }
        position += close.count
        var transforms: [String] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "(") {
            transforms.append(String(rest[..<open]))
            rest = rest[rest.index(after: open)...]
        }
        let path = String(rest.prefix { $0 != ")" })
        return MustacheName(path: path, transforms: transforms, line: startLine, column: column)
    }
}
