import Mustache

/// A template as `TemplateRenderer` walks it: swift-mustache's own parse, with every tag's name split and its
/// transforms put in the order they apply, once per build instead of once per tag rendered.
struct CompiledTemplate: Sendable {
    let nodes: [TemplateNode]
}

indirect enum TemplateNode: Sendable {
    case text([UInt8])
    /// `{{name}}` escaped, `{{{name}}}` and `{{&name}}` not.
    case variable(TagName, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(TagName, CompiledTemplate, inverted: Bool)
    /// `{{> name}}` (its indentation when it stands alone on its line), or `{{<name}}…{{/name}}` with the
    /// blocks it overrides.
    case partial(PartialName, indentation: String?, overrides: [String: CompiledTemplate]?)
    /// `{{$name}}default{{/name}}`: a block a template that includes this one may override.
    case block(name: String, default: CompiledTemplate, indentation: String?)
    /// `{{% CONTENT_TYPE: … }}`: the escaping of the variables after it.
    case escaping(Escaping)
}

/// How `{{name}}` escapes: ours for HTML (the pragma every template starts with), or another content type's.
enum Escaping: Sendable {
    case html
    case other(any MustacheContentType)

    init(_ contentType: any MustacheContentType) {
        self = contentType is HTMLEscaping ? .html : .other(contentType)
    }
}

enum PartialName: Sendable {
    case fixed(String)
    /// `{{>*name}}`: the partial named by the text the tag's name gives.
    case dynamic(TagName)
}

/// A tag's name as lookups use it: `.`, the item's place in its list (`first()`), a path from the innermost
/// value only (`.listing.name`), or a path whose first name is looked for from the innermost value out.
struct TagName: Sendable {
    enum Start: Sendable { case current, position, innermost, anyLevel }

    let start: Start
    let path: [String]
    /// In the order they apply: `a(b(name))` applies `b` first.
    let transforms: [String]

    /// The library's reading of a name (`MustacheTemplate.getChild`).
    init(_ name: String, transforms: [String]) {
        self.transforms = transforms.reversed()
        path = name.split(separator: ".").map(String.init)
        if name == "." {
            start = .current
        } else if name.isEmpty, !transforms.isEmpty {
            start = .position
        } else if name.first == "." {
            start = .innermost
        } else {
            start = .anyLevel
        }
    }
}

/// A token of swift-mustache's parse that this compiler does not know: only a new release of the library
/// that changed its parse tree gives one; the tests that render every template both ways catch it first.
struct UnknownTemplateToken: Error, CustomStringConvertible {
    let token: String
    var description: String { "swift-mustache's parse has a token this renderer does not know: \(token)" }
}

extension CompiledTemplate {
    /// Compiles the library's parse tree. The library keeps its tokens internal, so they are read by
    /// reflection: each is an enum case whose payload is read by label, and anything unexpected throws.
    init(_ template: MustacheTemplate) throws(UnknownTemplateToken) {
        guard let tokens = Mirror(reflecting: template).descendant("tokens") as? [Any] else {
            throw UnknownTemplateToken(token: "no tokens in \(type(of: template))")
        }
        var nodes: [TemplateNode] = []
        for token in tokens { nodes.append(try Self.node(token)) }
        self.nodes = nodes
    }

    private static func node(_ token: Any) throws(UnknownTemplateToken) -> TemplateNode {
        guard let (label, payload) = Mirror(reflecting: token).children.first.map({ ($0.label, $0.value) }) else {
            throw UnknownTemplateToken(token: String(describing: token))
        }
        let fields = Payload(payload)
        switch label {
        case "text":
            if let text = payload as? String { return .text(Array(text.utf8)) }
        case "variable", "unescapedVariable":
            if let name = fields.name() { return .variable(name, escaped: label == "variable") }
        case "section", "invertedSection":
            if let name = fields.name(), let body = fields["template"] as? MustacheTemplate {
                return .section(name, try CompiledTemplate(body), inverted: label == "invertedSection")
            }
        case "partial", "dynamicNamePartial":
            if let name = fields[".0"] as? String {
                return .partial(label == "partial" ? .fixed(name) : .dynamic(TagName(name, transforms: [])),
                                indentation: fields["indentation"] as? String, overrides: try overrides(fields["inherits"]))
            }
        case "blockExpansion":
            if let name = fields["name"] as? String, let body = fields["default"] as? MustacheTemplate {
                return .block(name: name, default: try CompiledTemplate(body), indentation: fields["indentation"] as? String)
            }
        case "contentType":
            if let contentType = payload as? any MustacheContentType { return .escaping(Escaping(contentType)) }
        default:
            break
        }
        throw UnknownTemplateToken(token: String(describing: token))
    }

    private static func overrides(_ inherits: Any?) throws(UnknownTemplateToken) -> [String: CompiledTemplate]? {
        guard let inherits = inherits as? [String: MustacheTemplate] else { return nil }
        var compiled: [String: CompiledTemplate] = [:]
        for (name, body) in inherits { compiled[name] = try CompiledTemplate(body) }
        return compiled
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

    func name() -> TagName? {
        guard let name = fields["name"] as? String, let transforms = fields["transforms"] as? [String] else { return nil }
        return TagName(name, transforms: transforms)
    }
}
