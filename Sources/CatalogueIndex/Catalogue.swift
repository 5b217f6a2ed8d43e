import Foundation
import SiteModel

/// The site's listings grouped by kind and put in each kind's declared order.
public struct Catalogue: Sendable {
    public let site: SiteConfig
    /// In the site's navigation order.
    public let kinds: [KindCollection]
    /// The most recent listings across kinds that declare a date field, newest first.
    public let newest: [Listing]

    public static let newestCount = 8

    public init(site: SiteConfig, schemas: [KindSchema], listings: [String: [Listing]]) {
        self.site = site
        kinds = schemas.map { schema in
            KindCollection(schema: schema, listings: sortListings(listings[schema.name] ?? [], by: schema))
        }
        let dated: [(CalendarDate, Listing)] = kinds.flatMap { collection -> [(CalendarDate, Listing)] in
            guard let dateField = collection.schema.dateField else { return [] }
            return collection.listings.compactMap { listing in
                if case .date(let date)? = listing.fields[dateField] { return (date, listing) }
                return nil
            }
        }
        newest = dated.sorted { a, b in
            a.0 != b.0 ? a.0 > b.0 : (a.1.kind, a.1.slug) < (b.1.kind, b.1.slug)
        }.prefix(Catalogue.newestCount).map(\.1)
    }

    public var listingCount: Int { kinds.reduce(0) { $0 + $1.listings.count } }
}

public struct KindCollection: Sendable {
    public let schema: KindSchema
    public let listings: [Listing]

    /// The kind's index page, relative to the output root.
    public var outputPath: String { "\(schema.name)/" }
}

/// Orders listings by the schema's sort keys (its title field when it declares none), then by slug,
/// so the order never depends on the file system.
func sortListings(_ listings: [Listing], by schema: KindSchema) -> [Listing] {
    let keys = schema.sort.isEmpty ? [SortKey(field: schema.titleField, descending: false)] : schema.sort
    let decorated = listings.map { listing in (keys.map { sortValue(listing.fields[$0.field]) }, listing) }
    return decorated.sorted { a, b in
        for (index, key) in keys.enumerated() {
            switch (a.0[index], b.0[index]) {
            case (.missing, .missing): continue
            case (.missing, _): return false  // missing values sort last whichever the direction
            case (_, .missing): return true
            case (let x, let y):
                let order = compare(x, y)
                if order != .orderedSame { return key.descending ? order == .orderedDescending : order == .orderedAscending }
            }
        }
        return a.1.slug < b.1.slug
    }.map(\.1)
}

/// A value reduced to something with a total order; text folds case and accents so "Ó" sorts with "O".
private enum SortValue {
    case missing
    case number(Double)
    case text(String)
}

private func sortValue(_ value: Value?) -> SortValue {
    switch value {
    case .int(let number)?: return .number(Double(number))
    case .decimal(let number)?: return .number(number.doubleValue)
    case .bool(let flag)?: return .number(flag ? 1 : 0)
    case .date(let date)?: return .number(Double(date.year * 10_000 + date.month * 100 + date.day))
    case .string(let text)?: return .text(text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil))
    case .object(let fields)?: return sortValue(fields["title"] ?? fields["slug"])
    default: return .missing
    }
}

private func compare(_ a: SortValue, _ b: SortValue) -> ComparisonResult {
    switch (a, b) {
    case (.number(let x), .number(let y)): return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
    case (.text(let x), .text(let y)): return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
    case (.number, _): return .orderedAscending
    case (_, .number): return .orderedDescending
    default: return .orderedSame
    }
}
