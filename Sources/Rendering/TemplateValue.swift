import Foundation
import SiteModel

/// Everything a template tag can see, as a closed set: a page's values, and what swift-mustache's transforms
/// make of them. Each case stands for the Swift value the library would hold, and behaves as that value does
/// in the library's sections, variables and transforms, so `TemplateRenderer` renders the same bytes without
/// the library's dynamic casts (a fifth of a build's CPU samples went to them).
enum TemplateValue {
    /// A value as a field lookup gives it: never null, a Bool or a list (those are `.flag` and `.list`).
    /// Also any value as an array's `first()`/`last()` gives it, which may be any case, null included.
    case value(Value)
    case flag(Bool)
    case list([Value])
    /// A list read backwards by `reversed()`.
    case reversedList(ReversedCollection<[Value]>)
    /// A list whose items are made as they are read: as `.list` of the same items.
    case madeList(MadeList)
    /// A page's context, or an object in it with made lists of its own (`pagination`): as `.value` of the
    /// object it stands for, its made lists among its fields.
    case context(PageContext)
    case integer(Int64)
    case text(String)

    /// A field of an object as sections and variables see it: null is absent, Bools and lists are themselves.
    init?(field: Value) {
        switch field {
        case .null: return nil
        case .bool(let flag): self = .flag(flag)
        case .list(let items): self = .list(items)
        default: self = .value(field)
        }
    }

    /// The field `name` of this value, if it is an object that has it.
    func child(named name: String) -> TemplateValue? {
        if case .context(let context) = self { return context.templateField(named: name) }
        guard case .value(.object(let fields)) = self, let field = fields[name] else { return nil }
        return TemplateValue(field: field)
    }

    /// Every transform `transformed(by:dates:)` knows, on one type of value or another.
    static let transformNames: Set<String> = [
        "first", "last", "reversed", "count", "empty", "capitalized", "lowercased", "uppercased", "equalzero", "plusone",
        "minusone", "even", "odd", "plural", "stars", longDate,
    ]

    /// `{{longdate(date)}}`: a date field as the site's language writes it ("2 September 2026"), where a list's
    /// items (a cleaner's reviews) have no `dates` of their own.
    static let longDate = "longdate"

    /// The value a transform (`uppercased(name)`, `plural(days)`, `first()`…) makes, or nil where the
    /// library's transform of the same Swift value gives nil; `longdate` writes a date through `dates`.
    func transformed(by name: String, dates: DateText) -> TemplateValue? {
        switch self {
        case .value(.date(let date)) where name == Self.longDate: return .text(dates.text(date))
        case .value(let value): return Self.transform(value, name)
        case .flag: return nil
        case .list(let items): return Self.transform(items, name)
        // As in Swift, the reverse of a reversed array is the array.
        case .reversedList(let items): return name == "reversed" ? .list(items.reversed()) : Self.transform(items, name)
        case .madeList(let items): return Self.transform(items, name)
        // An object has no transforms.
        case .context: return nil
        case .integer(let number): return Self.transform(number, name)
        case .text(let text): return Self.transform(text, name)
        }
    }

    /// The text `{{name}}` writes before escaping, as the library writes the same Swift value.
    var renderText: String {
        switch self {
        case .value(let value): return value.text
        case .flag(let flag): return String(describing: flag)
        case .list(let items): return String(describing: items)
        case .reversedList(let items): return String(describing: items)
        case .madeList(let items): return String(describing: Array(items))
        case .context: return ""
        case .integer(let number): return String(number)
        case .text(let text): return text
        }
    }

    /// `{{plural(days)}}` is true for whole numbers other than 1 ("1 day", "3 days"); `{{stars(rating)}}` is a
    /// rating out of 5 as five stars rounded to the nearest whole star ("★★★★☆" for 4.4), for the eye only:
    /// templates give the number as text beside it. Text and whole numbers take the library's transforms.
    private static func transform(_ value: Value, _ name: String) -> TemplateValue? {
        switch (name, value) {
        case ("plural", .int(let number)): return .flag(number != 1)
        case ("stars", .int(let number)): return .text(stars(Double(number)))
        case ("stars", .decimal(let number)): return .text(stars(Double(number.units) / Double((0..<number.scale).reduce(Int64(1)) { power, _ in power * 10 })))
        case (_, .string(let text)): return transform(text, name)
        case (_, .int(let number)): return transform(number, name)
        default: return nil
        }
    }

    static func stars(_ rating: Double) -> String {
        let filled = Int(min(5, max(0, rating)).rounded(.toNearestOrAwayFromZero))
        return String(repeating: "★", count: filled) + String(repeating: "☆", count: 5 - filled)
    }

    private static func transform(_ text: String, _ name: String) -> TemplateValue? {
        switch name {
        case "empty": return .flag(text.isEmpty)
        case "capitalized": return .text(text.capitalized)
        case "lowercased": return .text(text.lowercased())
        case "uppercased": return .text(text.uppercased())
        case "reversed": return .text(String(text.reversed()))
        default: return nil
        }
    }

    private static func transform(_ number: Int64, _ name: String) -> TemplateValue? {
        switch name {
        case "equalzero": return .flag(number == 0)
        case "plusone": return .integer(number + 1)
        case "minusone": return .integer(number - 1)
        case "even": return .flag(number & 1 == 0)
        case "odd": return .flag(number & 1 == 1)
        default: return nil
        }
    }

    /// The library's array transforms; `sorted` needs comparable elements, which values are not.
    private static func transform<Items: BidirectionalCollection<Value>>(_ items: Items, _ name: String) -> TemplateValue? {
        switch name {
        case "first": return items.first.map(TemplateValue.value)
        case "last": return items.last.map(TemplateValue.value)
        case "reversed": return .reversedList(Array(items).reversed())
        case "count": return .integer(Int64(items.count))
        case "empty": return .flag(items.isEmpty)
        default: return nil
        }
    }
}

/// An item's place in the list a section walks, which `{{#first()}}` and `{{index()}}` (no name) read.
struct SequencePosition {
    var first: Bool
    var last: Bool
    var index: Int

    /// Every transform `transformed(by:)` knows.
    static let transformNames: Set<String> = ["first", "last", "index", "even", "odd"]

    func transformed(by name: String) -> TemplateValue? {
        switch name {
        case "first": return .flag(first)
        case "last": return .flag(last)
        case "index": return .integer(Int64(index))
        case "even": return .flag(index & 1 == 0)
        case "odd": return .flag(index & 1 == 1)
        default: return nil
        }
    }
}
