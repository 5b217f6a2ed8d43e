import Enrichment
import OrderedCollections
import SiteModel

/// Fills in every kind's derived fields from the listings that refer to it. A kind is computed after the
/// kinds it gathers from, so a list embeds listings with their own derived fields complete.
func deriveFields(schemas: [KindSchema], listings: [String: [Listing]], formatter: DisplayFormatter) -> [String: [Listing]] {
    var result = listings
    var pending = schemas.filter { !$0.derived.isEmpty }
    while !pending.isEmpty {
        // Kinds whose sources are all done go first; a cycle is broken in site order.
        let ready = pending.firstIndex { schema in
            !schema.derived.contains { derived in derived.from != schema.name && pending.contains { $0.name == derived.from } }
        } ?? 0
        let schema = pending.remove(at: ready)
        result[schema.name] = derive(schema, in: result, schemas: schemas, formatter: formatter)
    }
    return result
}

private func derive(_ schema: KindSchema, in listings: [String: [Listing]], schemas: [KindSchema], formatter: DisplayFormatter) -> [Listing] {
    // Referring listings of each source kind, grouped by the slug their `via` field names, in that kind's order.
    var referrers: [String: [String: [Listing]]] = [:]
    for derived in schema.derived where referrers[derived.from + "." + derived.via] == nil {
        guard let source = schemas.first(where: { $0.name == derived.from }) else { continue }
        var groups: [String: [Listing]] = [:]
        for listing in sortListings(listings[derived.from] ?? [], by: source) {
            if let slug = referencedSlug(listing.fields[derived.via]) { groups[slug, default: []].append(listing) }
        }
        referrers[derived.from + "." + derived.via] = groups
    }
    return (listings[schema.name] ?? []).map { listing in
        var listing = listing
        for derived in schema.derived {
            let group = referrers[derived.from + "." + derived.via]?[listing.slug] ?? []
            guard let value = compute(derived.operation, over: group) else { continue }
            listing.fields[derived.name] = value
            if let format = derived.format, let text = formatter.text(for: value, format: format, maximum: derived.maximum) {
                listing.display[derived.name] = text
            }
        }
        return listing
    }
}

private func referencedSlug(_ value: Value?) -> String? {
    switch value {
    case .string(let slug)?: return slug
    case .object(let reference)?: return reference["slug"]?.stringValue
    default: return nil
    }
}

/// Nil when there is nothing to compute from (an average of no reviews); the field is then left out.
private func compute(_ operation: DerivedField.Operation, over group: [Listing]) -> Value? {
    func numbers(_ field: String) -> [Value] {
        group.compactMap { listing in
            switch listing.fields[field] {
            case .int?, .decimal?: return listing.fields[field]
            default: return nil
            }
        }
    }
    switch operation {
    case .count:
        return .int(Int64(group.count))
    case .list(let sort):
        let ordered = sort.isEmpty ? group : sortListings(group, keys: sort)
        return .list(ordered.map { .object($0.fields) })
    case .average(let field, let scale):
        let values = numbers(field)
        guard !values.isEmpty else { return nil }
        let total = values.reduce(0.0) { $0 + numericValue($1) }
        let units = (total / Double(values.count) * Double(power(scale))).rounded(.toNearestOrAwayFromZero)
        return .decimal(FixedDecimal(units: Int64(units), scale: scale))
    case .sum(let field):
        let values = numbers(field)
        guard let first = values.first else { return nil }
        if case .decimal(let sample) = first {
            let units = values.reduce(Int64(0)) { total, value in
                if case .decimal(let number) = value { return total + number.units }
                return total
            }
            return .decimal(FixedDecimal(units: units, scale: sample.scale))
        }
        return .int(values.reduce(Int64(0)) { total, value in
            if case .int(let number) = value { return total + number }
            return total
        })
    case .minimum(let field):
        return numbers(field).min { numericValue($0) < numericValue($1) }
    case .maximum(let field):
        return numbers(field).max { numericValue($0) < numericValue($1) }
    }
}

private func numericValue(_ value: Value) -> Double {
    switch value {
    case .int(let number): return Double(number)
    case .decimal(let number): return number.doubleValue
    default: return 0
    }
}

private func power(_ exponent: Int) -> Int64 {
    (0..<exponent).reduce(1) { result, _ in result * 10 }
}
