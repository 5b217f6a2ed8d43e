import OrderedCollections
import SiteModel

/// What a value in a template's context can hold: the names a template may use on it. `TemplateContextShape`
/// describes each page's context with these; `TemplateNameCheck` resolves the templates' names against them.
public indirect enum ContextShape: Sendable, Equatable {
    /// Text, a number, a date or a flag: shown, or tested by a section; it holds no names.
    case value
    /// A list: a section over it renders once per item, with the item pushed.
    case list(ContextShape)
    /// Named values, in the order the README lists them.
    case object(OrderedDictionary<String, ContextShape>)
    /// Any one of these: the cards of several kinds on the home page, a template shared by several kinds.
    case anyOf([ContextShape])
    /// Anything: what the shape cannot know (a name after an unknown one), so that one mistake is one error.
    case open

    /// Any one of `shapes`. With none, the value is a list that is always empty (no kind has a daily pick), whose
    /// items no template sees: what a section over it says is never rendered, so it is not checked.
    static func either(_ shapes: [ContextShape]) -> ContextShape {
        shapes.isEmpty ? .open : shapes.count == 1 ? shapes[0] : .anyOf(shapes)
    }

    /// The shapes `name` can have on this value; empty when it cannot hold the name.
    func child(_ name: String) -> [ContextShape] {
        switch self {
        case .object(let fields): return fields[name].map { [$0] } ?? []
        case .anyOf(let shapes): return shapes.flatMap { $0.child(name) }
        case .open: return [.open]
        case .value, .list: return []
        }
    }

    /// The names it holds, for "did you mean".
    var names: [String] {
        switch self {
        case .object(let fields): return Array(fields.keys)
        case .anyOf(let shapes): return shapes.flatMap(\.names)
        case .value, .list, .open: return []
        }
    }

    /// Whether it may be a list: for one kind of several, a field that is text in another.
    var mayBeList: Bool {
        switch self {
        case .list: return true
        case .anyOf(let shapes): return shapes.contains(where: \.mayBeList)
        case .value, .object, .open: return false
        }
    }

    /// What a section over a value of this shape pushes: a list's items, anything else itself.
    var pushed: ContextShape {
        switch self {
        case .list(let item): return item
        case .anyOf(let shapes): return .anyOf(shapes.map(\.pushed))
        default: return self
        }
    }

    /// The shape after one of swift-mustache's transforms (`count`, `first`, `reversed`…).
    func transformed(by transform: String) -> ContextShape {
        switch (self, transform) {
        case (.list(let item), "first"), (.list(let item), "last"): return item
        case (.list, "reversed"), (.list, "sorted"): return self
        case (.anyOf(let shapes), _): return .anyOf(shapes.map { $0.transformed(by: transform) })
        case (.open, _): return .open
        default: return .value
        }
    }

    /// Every name path in `value` that this shape does not hold (`listing.photo.caption`), for the test that
    /// keeps the shapes and the contexts the build makes from drifting apart.
    func undescribedPaths(in value: Value, at prefix: String = "") -> [String] {
        switch value {
        case .object(let fields):
            return fields.flatMap { name, child -> [String] in
                let path = prefix.isEmpty ? name : prefix + "." + name
                let shapes = self.child(name)
                guard !shapes.isEmpty else { return [path] }
                let missing = shapes.map { $0.undescribedPaths(in: child, at: path) }
                return missing.contains { $0.isEmpty } ? [] : missing[0]
            }
        case .list(let items):
            let itemShapes = listItems
            guard !itemShapes.isEmpty else { return items.isEmpty ? [] : [prefix + "[]"] }
            return items.flatMap { item in ContextShape.anyOf(itemShapes).undescribedPaths(in: item, at: prefix + "[]") }
        default:
            return []
        }
    }

    private var listItems: [ContextShape] {
        switch self {
        case .list(let item): return [item]
        case .anyOf(let shapes): return shapes.flatMap(\.listItems)
        case .open: return [.open]
        case .value, .object: return []
        }
    }
}

extension ContextShape {
    /// The same shape with `more` names added (to an object, or to each shape of `anyOf`).
    func adding(_ more: OrderedDictionary<String, ContextShape>) -> ContextShape {
        switch self {
        case .object(let fields): return .object(fields.merging(more) { _, new in new })
        case .anyOf(let shapes): return .anyOf(shapes.map { $0.adding(more) })
        default: return self
        }
    }
}
