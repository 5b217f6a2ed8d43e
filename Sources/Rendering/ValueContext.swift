import Mustache
import SiteModel

/// Lets templates read the value tree directly (no Mirror): `{{listing.name}}`, `{{#languages}}{{.}}{{/languages}}`.
extension Value: MustacheParent, MustacheCustomRenderable {
    public func child(named name: String) -> Any? {
        guard case .object(let fields) = self, let child = fields[name] else { return nil }
        return child.templateRepresentation
    }

    /// What a section tag sees: Bool and arrays behave as Mustache expects; null is absent.
    var templateRepresentation: Any? {
        switch self {
        case .null: return nil
        case .bool(let flag): return flag
        case .list(let items): return items
        default: return self
        }
    }

    public var renderText: String { text }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

/// swift-mustache's transforms on text and whole numbers (`{{uppercased(listing.name)}}`, `{{plusone(index())}}`)
/// apply to the build's values as they do to Swift's strings and integers; without this they render nothing.
extension Value: MustacheTransformable {
    public func transform(_ name: String) -> Any? {
        switch self {
        case .string(let text): return text.transform(name)
        case .int(let number): return number.transform(name)
        default: return nil
        }
    }
}
