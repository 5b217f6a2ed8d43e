import Enrichment
import OrderedCollections
import SiteModel
import Support

/// Fills in every kind's derived fields. A kind is computed after the kinds it reads (those it gathers from
/// and those it looks up), so what it reads is complete; a cycle between kinds is broken in site order.
/// Within a kind, fields are computed in declaration order, so each may use the ones before it.
func deriveFields(schemas: [KindSchema], listings: [String: [Listing]], buildDate: CalendarDate, formatter: DisplayFormatter) -> [String: [Listing]] {
    var result = listings
    var pending = schemas.filter { !$0.derived.isEmpty }
    while !pending.isEmpty {
        let ready = pending.firstIndex { schema in
            !reads(schema).contains { kind in kind != schema.name && pending.contains { $0.name == kind } }
        } ?? 0
        let schema = pending.remove(at: ready)
        result[schema.name] = derive(schema, in: result, schemas: schemas, buildDate: buildDate, formatter: formatter)
    }
    return result
}

/// The kinds whose listings a kind's derived fields read.
func reads(_ schema: KindSchema) -> [String] {
    schema.derived.compactMap { derived in
        if derived.operation.gathers { return derived.from }
        if case .lookup = derived.operation, case .reference(let target)? = schema.field(named: derived.via ?? "")?.type { return target }
        return nil
    }
}

/// What derived fields read besides the listing itself: the listings of a kind that refer to a slug through
/// a field (in that kind's order), and one listing of a kind by slug.
struct DerivationSources: Sendable {
    let referrers: @Sendable (_ from: String, _ via: String, _ slug: String) -> [Listing]
    let lookup: @Sendable (_ kind: String, _ slug: String) -> Listing?
}

private func derive(
    _ schema: KindSchema, in listings: [String: [Listing]], schemas: [KindSchema], buildDate: CalendarDate, formatter: DisplayFormatter
) -> [Listing] {
    // Referring listings of each source kind, grouped by the slug their `via` field names, in that kind's order.
    var referrers: [String: [String: [Listing]]] = [:]
    for derived in schema.derived where derived.operation.gathers {
        guard let from = derived.from, let via = derived.via, referrers[from + "." + via] == nil,
            let source = schemas.first(where: { $0.name == from })
        else { continue }
        var groups: [String: [Listing]] = [:]
        for listing in sortListings(listings[from] ?? [], by: source) {
            if let slug = referencedSlug(listing.fields[via]) { groups[slug, default: []].append(listing) }
        }
        referrers[from + "." + via] = groups
    }
    // Listings a `lookup` may read, by kind and slug.
    var targets: [String: [String: Listing]] = [:]
    for derived in schema.derived {
        guard case .lookup = derived.operation, case .reference(let kind)? = schema.field(named: derived.via ?? "")?.type, targets[kind] == nil else { continue }
        targets[kind] = Dictionary((listings[kind] ?? []).map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
    }
    // Fixed from here on, and read across all cores.
    let groups = referrers, lookups = targets
    let sources = DerivationSources(
        referrers: { from, via, slug in groups[from + "." + via]?[slug] ?? [] }, lookup: { kind, slug in lookups[kind]?[slug] })
    return (listings[schema.name] ?? []).parallelMap { listing in
        withDerivedFields(listing, schema: schema, sources: sources, buildDate: buildDate, formatter: formatter)
    }
}

/// One listing with its derived fields filled in, in declaration order, so each may use the ones before it.
func withDerivedFields(
    _ listing: Listing, schema: KindSchema, sources: DerivationSources, buildDate: CalendarDate, formatter: DisplayFormatter
) -> Listing {
    var listing = listing
    for derived in schema.derived {
        let value: Value?
        if derived.operation.gathers {
            value = gather(derived.operation, over: sources.referrers(derived.from ?? "", derived.via ?? "", listing.slug))
        } else {
            value = compute(derived, on: listing, schema: schema, sources: sources, buildDate: buildDate)
        }
        guard let value else { continue }
        listing.fields[derived.name] = value
        if let format = derived.format, let text = formatter.text(for: value, format: format, maximum: derived.maximum) {
            listing.display[derived.name] = text
        }
    }
    return listing
}

func referencedSlug(_ value: Value?) -> String? {
    switch value {
    case .string(let slug)?: return slug
    case .object(let reference)?: return reference["slug"]?.stringValue
    default: return nil
    }
}

/// Nil when there is nothing to compute from (an average of no reviews); the field is then left out.
private func gather(_ operation: DerivedField.Operation, over group: [Listing]) -> Value? {
    func numbers(_ field: String) -> [Value] {
        group.compactMap { listing in numericValue(listing.fields[field]) != nil ? listing.fields[field] : nil }
    }
    switch operation {
    case .count:
        return .int(Int64(group.count))
    case .list(let sort):
        let ordered = sort.isEmpty ? group : sortListings(group, keys: sort)
        return .list(ordered.map { .object($0.fields) })
    case .average(let field, let scale):
        let values = numbers(field).compactMap(numericValue)
        guard !values.isEmpty else { return nil }
        return rounded(values.reduce(0, +) / Double(values.count), scale: scale)
    case .sum(let field):
        return total(numbers(field))
    case .minimum(let field):
        return numbers(field).min { numericValue($0)! < numericValue($1)! }
    case .maximum(let field):
        return numbers(field).max { numericValue($0)! < numericValue($1)! }
    case .sumBy(let groupField, let field):
        var order: [String] = []
        var members: [String: [Value]] = [:]
        for listing in group {
            guard let key = listing.fields[groupField]?.stringValue, let value = listing.fields[field], numericValue(value) != nil else { continue }
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(value)
        }
        let totals = order.compactMap { key in total(members[key]!).map { (key, $0) } }
        return .list(totals.sorted { a, b in
            numericValue(a.1)! != numericValue(b.1)! ? numericValue(a.1)! > numericValue(b.1)! : a.0 < b.0
        }.map { key, sum in .object(["group": .string(key), "total": sum]) })
    case .daysSince, .ratio, .atLeast, .lookup:
        return nil
    }
}

private func compute(
    _ derived: DerivedField, on listing: Listing, schema: KindSchema, sources: DerivationSources, buildDate: CalendarDate
) -> Value? {
    switch derived.operation {
    case .daysSince(let field):
        guard case .date(let date)? = listing.fields[field] else { return nil }
        return .int(Int64(buildDate.dayNumber - date.dayNumber))
    case .ratio(let numerator, let denominator, let scale):
        guard let top = numericValue(listing.fields[numerator]), let bottom = numericValue(listing.fields[denominator]), bottom != 0 else { return nil }
        return rounded(top / bottom, scale: scale)
    case .atLeast(let field, let threshold):
        guard let number = numericValue(listing.fields[field]) else { return nil }
        return .bool(number >= threshold)
    case .lookup(let field):
        guard case .reference(let kind)? = schema.field(named: derived.via ?? "")?.type,
            let slug = referencedSlug(listing.fields[derived.via ?? ""])
        else { return nil }
        return sources.lookup(kind, slug)?.fields[field]
    default:
        return nil
    }
}

/// Sums ints as an int, decimals at their scale; nil for nothing to sum.
private func total(_ values: [Value]) -> Value? {
    guard let first = values.first else { return nil }
    if case .decimal(let sample) = first {
        let units = values.reduce(Int64(0)) { sum, value in
            if case .decimal(let number) = value { return sum + number.units }
            return sum
        }
        return .decimal(FixedDecimal(units: units, scale: sample.scale))
    }
    return .int(values.reduce(Int64(0)) { sum, value in
        if case .int(let number) = value { return sum + number }
        return sum
    })
}

private func rounded(_ number: Double, scale: Int) -> Value {
    let factor = (0..<scale).reduce(Int64(1)) { result, _ in result * 10 }
    return .decimal(FixedDecimal(units: Int64((number * Double(factor)).rounded(.toNearestOrAwayFromZero)), scale: scale))
}

private func numericValue(_ value: Value?) -> Double? {
    switch value {
    case .int(let number)?: return Double(number)
    case .decimal(let number)?: return number.doubleValue
    default: return nil
    }
}
