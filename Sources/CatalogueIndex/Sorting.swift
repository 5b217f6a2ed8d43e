import Foundation
import SiteModel

/// Orders listings by the schema's sort keys (its title field when it declares none), then by slug,
/// so the order never depends on the file system.
func sortListings(_ listings: [Listing], by schema: KindSchema, collation: Collation) -> [Listing] {
    sortListings(listings, keys: schema.sort.isEmpty ? [SortKey(field: schema.titleField, descending: false)] : schema.sort, collation: collation)
}

/// Sorts positions rather than the listings themselves: a `Listing` is a large value, and moving it around
/// in the sort cost more than the comparisons.
func sortListings(_ listings: [Listing], keys: [SortKey], collation: Collation) -> [Listing] {
    let values = listings.map { listing in keys.map { sortValue(listing.fields[$0.field], collation: collation) } }
    let order = listings.indices.sorted { a, b in
        for (index, key) in keys.enumerated() {
            switch (values[a][index], values[b][index]) {
            case (.missing, .missing): continue
            case (.missing, _): return false  // missing values sort last whichever the direction
            case (_, .missing): return true
            case (let x, let y):
                let order = compare(x, y)
                if order != .orderedSame { return key.descending ? order == .orderedDescending : order == .orderedAscending }
            }
        }
        return listings[a].slug < listings[b].slug
    }
    return order.map { listings[$0] }
}

/// A value reduced to something with a total order; text to its collation key (`Collation`).
private enum SortValue {
    case missing
    case number(Double)
    case text([UInt8])
}

private func sortValue(_ value: Value?, collation: Collation) -> SortValue {
    switch value {
    case .int(let number)?: return .number(Double(number))
    case .decimal(let number)?: return .number(number.doubleValue)
    case .bool(let flag)?: return .number(flag ? 1 : 0)
    case .date(let date)?: return .number(Double(date.year * 10_000 + date.month * 100 + date.day))
    case .string(let text)?: return .text(collation.key(text))
    case .object(let fields)?: return sortValue(fields["title"] ?? fields["slug"], collation: collation)
    default: return .missing
    }
}

private func compare(_ a: SortValue, _ b: SortValue) -> ComparisonResult {
    switch (a, b) {
    case (.number(let x), .number(let y)): return x < y ? .orderedAscending : x > y ? .orderedDescending : .orderedSame
    case (.text(let x), .text(let y)): return Collation.compare(x, y)
    case (.number, _): return .orderedAscending
    case (_, .number): return .orderedDescending
    default: return .orderedSame
    }
}

extension KindCollection {
    /// Each listing's place (0 first) when the kind is ordered by `key`, then by its own sort keys.
    public func ranks(by key: SortKey, collation: Collation) -> [Int] {
        var place: [String: Int] = [:]
        for (index, listing) in sortListings(listings, keys: [key] + schema.sort, collation: collation).enumerated() { place[listing.slug] = index }
        return listings.map { place[$0.slug]! }
    }
}
