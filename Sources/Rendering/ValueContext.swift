import Mustache
import SiteModel

/// Lets templates read the value tree directly (no Mirror): `{{listing.name}}`, `{{#languages}}{{.}}{{/languages}}`.
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

    /// `{{#plural(days)}}s{{/plural(days)}}`: true for a whole number other than 1, so that templates write "1 day"
    /// and "3 days". `{{stars(rating)}}`: a rating out of 5 as five stars, rounded to the nearest whole star
    /// ("★★★★☆" for 4.4), for the eye only: templates give the number as text beside it. Otherwise swift-mustache's
    /// transforms on text and whole numbers (`{{uppercased(listing.name)}}`) apply as they do to Swift's strings and
    /// integers; without this they would render nothing.
    public func transform(_ name: String) -> Any? {
        switch (name, self) {
        case ("plural", .int(let number)): return number != 1
        case ("stars", .int(let number)): return Self.stars(Double(number))
        case ("stars", .decimal(let number)): return Self.stars(Double(number.units) / Double(Int64(10).power(number.scale)))
        case (_, .string(let text)): return text.transform(name)
        case (_, .int(let number)): return number.transform(name)
        default: return nil
        }
    }

    private static func stars(_ rating: Double) -> String {
        let filled = Int(min(5, max(0, rating)).rounded(.toNearestOrAwayFromZero))
        return String(repeating: "★", count: filled) + String(repeating: "☆", count: 5 - filled)
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
