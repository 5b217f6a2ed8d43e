import Mustache
@testable import Rendering
import SiteModel

/// The reference renderer's view of values: swift-mustache reading `Value` through its protocols, as
/// Noticeboard rendered before `TemplateRenderer`. `TemplateRendererTests` renders templates both ways.
extension Value: MustacheParent, MustacheCustomRenderable, MustacheTransformable {
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

    /// `plural` and `stars` as `TemplateValue` defines them; the library's own transforms on text and integers.
    public func transform(_ name: String) -> Any? {
        switch (name, self) {
        case ("plural", .int(let number)): return number != 1
        case ("stars", .int(let number)): return TemplateValue.stars(Double(number))
        case ("stars", .decimal(let number)): return TemplateValue.stars(Double(number.units) / Double(Int64(10).power(number.scale)))
        case (_, .string(let text)): return text.transform(name)
        case (_, .int(let number)): return number.transform(name)
        default: return nil
        }
    }

    public var renderText: String { text }

    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}

private extension Int64 {
    func power(_ exponent: Int) -> Int64 { (0..<exponent).reduce(1) { value, _ in value * self } }
}
