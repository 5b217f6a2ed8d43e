import Mustache

/// Every template of a site as `TemplateRenderer` walks it: swift-mustache's own parse, compiled once per build
/// into nodes that hold only numbers (places in this program's tables), with every tag's name split and its
/// transforms put in the order they apply. Walking the nodes, their text and their tags' names then copies
/// no reference: a page's walk used to retain and release each node and each text it passed, a third of the
/// renderer's own CPU samples, though only about 2 % of a build's time (the rest of that wait for memory moved
/// to the reads that follow). Partials, blocks and escapings, met far less often, are read from their tables.
struct TemplateProgram: Sendable {
    private(set) var nodes: [TemplateNode] = []
    /// The templates' text between tags, one after another; a `.text` node is a range of it.
    private var text: [UInt8] = []
    /// The names and transforms of every tag, one after another; a `TagName` is two ranges of it.
    private(set) var words: [String] = []
    private(set) var partials: [PartialTag] = []
    private(set) var blocks: [BlockTag] = []
    /// The escaping a template starts with is the first.
    private(set) var escapings: [Escaping] = [.html]
    /// Each template's nodes, by name.
    private(set) var templates: [String: Run<TemplateNode>] = [:]

    /// Appends the text a `.text` node stands for.
    func appendText(_ span: Run<UInt8>, to output: inout [UInt8]) {
        text.withUnsafeBufferPointer { text in
            output.append(contentsOf: UnsafeBufferPointer(rebasing: text[span.indices]))
        }
    }
}

/// The names a template can read at the top of its context.
extension TemplateProgram {
    /// The first name of every tag in the template `name` and in what it includes (its partials, their blocks
    /// and the blocks it overrides in them): every top-level field of a context that its render can read, as
    /// a name is looked up outward from any section to the context itself.
    func namesRead(by name: String) -> Set<String> {
        var names: Set<String> = [], included: Set<String> = []
        addNames(ofTemplate: name, to: &names, included: &included)
        return names
    }

    private func addNames(ofTemplate name: String, to names: inout Set<String>, included: inout Set<String>) {
        guard included.insert(name).inserted, let template = templates[name] else { return }
        addNames(of: template, to: &names, included: &included)
    }

    private func addNames(of run: Run<TemplateNode>, to names: inout Set<String>, included: inout Set<String>) {
        for index in run.indices {
            switch nodes[index] {
            case .text, .escaping:
                break
            case .variable(let tag, _):
                addFirstName(of: tag, to: &names)
            case .section(let tag, let body, _):
                addFirstName(of: tag, to: &names)
                addNames(of: body, to: &names, included: &included)
            case .partial(let place):
                let tag = partials[Int(place)]
                addNames(ofTemplate: tag.name, to: &names, included: &included)
                for body in (tag.overrides ?? [:]).values { addNames(of: body, to: &names, included: &included) }
            case .block(let place):
                addNames(of: blocks[Int(place)].defaultBody, to: &names, included: &included)
            }
        }
    }

    private func addFirstName(of tag: TagName, to names: inout Set<String>) {
        if let first = tag.path.indices.first { names.insert(words[first]) }
    }
}

/// A run of one of a program's tables: of its nodes (a template's, a section's, a block's), of its text, of
/// its words.
struct Run<Element>: BitwiseCopyable, Sendable {
    let start: Int32
    let end: Int32
    var indices: Range<Int> { Int(start)..<Int(end) }
}

enum TemplateNode: BitwiseCopyable, Sendable {
    case text(Run<UInt8>)
    /// `{{name}}` escaped, `{{{name}}}` and `{{&name}}` not.
    case variable(TagName, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(TagName, Run<TemplateNode>, inverted: Bool)
    /// A place in `partials`.
    case partial(Int32)
    /// A place in `blocks`.
    case block(Int32)
    /// A place in `escapings`.
    case escaping(Int32)
}

/// `{{> name}}` (its indentation when it stands alone on its line), or `{{<name}}…{{/name}}` with the blocks
/// it overrides.
struct PartialTag: Sendable {
    let name: String
    let indentation: String?
    let overrides: [String: Run<TemplateNode>]?
}

/// `{{$name}}default{{/name}}`: a block a template that includes this one may override.
struct BlockTag: Sendable {
    let name: String
    let defaultBody: Run<TemplateNode>
    let indentation: String?
}

/// How `{{name}}` escapes: ours for HTML (the pragma every template starts with), or another content type's.
enum Escaping: Sendable {
    case html
    case other(any MustacheContentType)

    init(_ contentType: any MustacheContentType) {
        self = contentType is HTMLEscaping ? .html : .other(contentType)
    }
}

/// A tag's name as lookups use it: `.`, the item's place in its list (`first()`), a path from the innermost
/// value only (`.listing.name`), or a path whose first name is looked for from the innermost value out. Its
/// path and transforms are ranges of the program's `words`.
struct TagName: BitwiseCopyable, Sendable {
    enum Start: BitwiseCopyable, Sendable { case current, position, innermost, anyLevel }

    let start: Start
    let path: Run<String>
    /// In the order they apply: `a(b(name))` applies `b` first.
    let transforms: Run<String>
}

/// A token of swift-mustache's parse that this compiler does not know: only a new release of the library
/// that changed its parse tree gives one; the tests that render every template both ways catch it first.
struct UnknownTemplateToken: Error, CustomStringConvertible {
    let token: String
    var description: String { "swift-mustache's parse has a token this renderer does not know: \(token)" }
}

extension TemplateProgram {
    /// Compiles the library's parse tree of the template `name`. The library keeps its tokens internal, so
    /// they are read by reflection: each is an enum case whose payload is read by label, and anything
    /// unexpected throws.
    mutating func add(_ template: MustacheTemplate, named name: String) throws(UnknownTemplateToken) {
        templates[name] = try compile(template)
    }

    /// A body's nodes go after those of the sections inside it, so that each body is one run.
    private mutating func compile(_ template: MustacheTemplate) throws(UnknownTemplateToken) -> Run<TemplateNode> {
        guard let tokens = Mirror(reflecting: template).descendant("tokens") as? [Any] else {
            throw UnknownTemplateToken(token: "no tokens in \(type(of: template))")
        }
        var body: [TemplateNode] = []
        for token in tokens { body.append(try node(token)) }
        let start = Int32(nodes.count)
        nodes += body
        return Run(start: start, end: Int32(nodes.count))
    }

    private mutating func node(_ token: Any) throws(UnknownTemplateToken) -> TemplateNode {
        guard let (label, payload) = Mirror(reflecting: token).children.first.map({ ($0.label, $0.value) }) else {
            throw UnknownTemplateToken(token: String(describing: token))
        }
        let fields = Payload(payload)
        switch label {
        case "text":
            if let text = payload as? String { return .text(addedText(text)) }
        case "variable", "unescapedVariable":
            if let name = fields.name, let transforms = fields.transforms {
                return .variable(addedTag(name: name, transforms: transforms), escaped: label == "variable")
            }
        case "section", "invertedSection":
            if let name = fields.name, let transforms = fields.transforms, let body = fields["template"] as? MustacheTemplate {
                return .section(addedTag(name: name, transforms: transforms), try compile(body), inverted: label == "invertedSection")
            }
        case "partial":
            if let name = fields[".0"] as? String {
                partials.append(PartialTag(name: name, indentation: fields["indentation"] as? String,
                                           overrides: try overrides(fields["inherits"])))
                return .partial(Int32(partials.count - 1))
            }
        case "blockExpansion":
            if let name = fields.name, let body = fields["default"] as? MustacheTemplate {
                let defaultBody = try compile(body)
                blocks.append(BlockTag(name: name, defaultBody: defaultBody, indentation: fields["indentation"] as? String))
                return .block(Int32(blocks.count - 1))
            }
        case "contentType":
            if let contentType = payload as? any MustacheContentType {
                escapings.append(Escaping(contentType))
                return .escaping(Int32(escapings.count - 1))
            }
        default:
            break
        }
        throw UnknownTemplateToken(token: String(describing: token))
    }

    private mutating func overrides(_ inherits: Any?) throws(UnknownTemplateToken) -> [String: Run<TemplateNode>]? {
        guard let inherits = inherits as? [String: MustacheTemplate] else { return nil }
        var compiled: [String: Run<TemplateNode>] = [:]
        for (name, body) in inherits { compiled[name] = try compile(body) }
        return compiled
    }

    private mutating func addedText(_ text: String) -> Run<UInt8> {
        let start = Int32(self.text.count)
        self.text += text.utf8
        return Run(start: start, end: Int32(self.text.count))
    }

    /// The library's reading of a name and its transforms (`MustacheTemplate.getChild`).
    private mutating func addedTag(name: String, transforms: [String]) -> TagName {
        let start: TagName.Start
        if name == "." {
            start = .current
        } else if name.isEmpty, !transforms.isEmpty {
            start = .position
        } else if name.first == "." {
            start = .innermost
        } else {
            start = .anyLevel
        }
        return TagName(start: start, path: addedWords(name.split(separator: ".").map(String.init)),
                       transforms: addedWords(transforms.reversed()))
    }

    private mutating func addedWords(_ added: [String]) -> Run<String> {
        let start = Int32(words.count)
        words += added
        return Run(start: start, end: Int32(words.count))
    }
}

/// A token's payload, its fields by label (`.0` for an unlabelled one).
private struct Payload {
    private let fields: [String: Any]

    init(_ payload: Any) {
        var fields: [String: Any] = [:]
        for child in Mirror(reflecting: payload).children {
            if let label = child.label { fields[label] = child.value }
        }
        self.fields = fields
    }

    subscript(label: String) -> Any? { fields[label] }

    var name: String? { fields["name"] as? String }
    var transforms: [String]? { fields["transforms"] as? [String] }
}
