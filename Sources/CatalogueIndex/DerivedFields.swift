import Enrichment
import Foundation
import OrderedCollections
import SiteModel
import Support

/// Fills in every kind's derived fields, in runs of one kind's fields (`DerivedFieldOrder`): each after the
/// derived fields it reads, so what it reads is complete. Fields that read each other in a loop are an error
/// where the schemas are checked (`checkDerivedFields`); here the kinds' own order stands in.
/// A value that cannot be computed (a sum past `NumberLimit`) is an error at the listing that caused it.
/// A listing nothing else holds gains its fields in place, so the kind's listings are not held twice; the
/// listings with the same fields share their names' storage (`FieldLayouts`).
func deriveFields(
    schemas: [KindSchema], listings: consuming [String: [Listing]], buildDate: CalendarDate, formatter: DisplayFormatter,
    collation: Collation, locator: FieldLocator
) -> (listings: [String: [Listing]], problems: [Diagnostic]) {
    var result = listings
    var problems: [Diagnostic] = []
    for run in derivationRuns(schemas) {
        guard let schema = schemas.first(where: { $0.name == run.kind }) else { continue }
        let sources = derivationSources(for: run.fields, of: schema, in: result, schemas: schemas, collation: collation, locator: locator)
        var kindListings = result.removeValue(forKey: schema.name) ?? []
        let layouts = FieldLayouts()
        let found = kindListings.parallelUpdate { listing -> Diagnostic? in
            do throws(Diagnostic) {
                try addDerivedFields(
                    run.fields, to: &listing, schema: schema, sources: sources, buildDate: buildDate, formatter: formatter, layouts: layouts)
                return nil
            } catch {
                return error
            }
        }
        result[schema.name] = kindListings
        problems += found.compactMap { $0 }
    }
    return (result, problems)
}

/// The runs `DerivedFieldOrder` gives; with a loop (which the schema check reports), each kind's fields in a run
/// of their own, kind by kind.
func derivationRuns(_ schemas: [KindSchema]) -> [DerivedFieldOrder.Run] {
    do throws(DerivedFieldOrder.Loop) {
        return try DerivedFieldOrder(schemas).runs
    } catch {
        return schemas.filter { !$0.derived.isEmpty }.map { DerivedFieldOrder.Run(kind: $0.name, fields: $0.derived) }
    }
}

/// What derived fields read besides the listing itself: the listings of a kind that refer to a slug through
/// a field (in that kind's order), one listing of a kind by slug, and the order of text for `list`'s `sort`;
/// and where in the listings' files an error points.
struct DerivationSources: Sendable {
    let referrers: @Sendable (_ from: String, _ via: String, _ slug: String) -> [Listing]
    let lookup: @Sendable (_ kind: String, _ slug: String) -> Listing?
    let collation: Collation
    let locator: FieldLocator
}

/// What a run of a kind's derived fields reads from the other listings (its own kind's too, as they were before
/// the run).
private func derivationSources(
    for fields: [DerivedField], of schema: KindSchema, in listings: [String: [Listing]], schemas: [KindSchema], collation: Collation,
    locator: FieldLocator
) -> DerivationSources {
    // Referring listings of each source kind, grouped by the slug their `via` field names, in that kind's order.
    var referrers: [String: [String: [Listing]]] = [:]
    for derived in fields where derived.operation.gathers {
        guard let from = derived.from, let via = derived.via, referrers[from + "." + via] == nil,
            let source = schemas.first(where: { $0.name == from })
        else { continue }
        var groups: [String: [Listing]] = [:]
        for listing in sortListings(listings[from] ?? [], by: source, collation: collation) {
            if let slug = referencedSlug(listing.fields[via]) { groups[slug, default: []].append(listing) }
        }
        referrers[from + "." + via] = groups
    }
    // Listings a `lookup` may read, by kind and slug.
    var targets: [String: [String: Listing]] = [:]
    for derived in fields {
        guard case .lookup = derived.operation, case .reference(let kind)? = schema.field(named: derived.via ?? "")?.type, targets[kind] == nil else { continue }
        targets[kind] = Dictionary((listings[kind] ?? []).map { ($0.slug, $0) }, uniquingKeysWith: { first, _ in first })
    }
    // Fixed from here on, and read across all cores.
    let groups = referrers, lookups = targets
    return DerivationSources(
        referrers: { from, via, slug in groups[from + "." + via]?[slug] ?? [] }, lookup: { kind, slug in lookups[kind]?[slug] },
        collation: collation, locator: locator)
}

/// The listing's derived `fields` filled in, in their order, so each may use the ones before it.
/// Throws when a value would pass `NumberLimit`, at the listing whose number takes it there.
func addDerivedFields(
    _ fields: [DerivedField], to listing: inout Listing, schema: KindSchema, sources: DerivationSources, buildDate: CalendarDate,
    formatter: DisplayFormatter, layouts: FieldLayouts
) throws(Diagnostic) {
    var added = false
    for derived in fields {
        let value: Value?
        if derived.operation.gathers {
            let group = sources.referrers(derived.from ?? "", derived.via ?? "", listing.slug)
            let target = Target(listing: listing, field: derived.name, locator: sources.locator)
            value = try gather(derived.operation, over: group, into: target, collation: sources.collation)
        } else {
            value = try compute(derived, on: listing, schema: schema, sources: sources, buildDate: buildDate)
        }
        guard let value else { continue }
        listing.fields[derived.name] = value
        added = true
        if let format = derived.format, let text = formatter.text(for: value, format: format, maximum: derived.maximum) {
            listing.display[derived.name] = text
        }
    }
    guard added else { return }
    listing.fields = layouts.sharing(listing.fields)
    listing.display = layouts.sharing(listing.display)
}

func referencedSlug(_ value: Value?) -> String? {
    switch value {
    case .string(let slug)?: return slug
    case .object(let reference)?: return reference["slug"]?.stringValue
    default: return nil
    }
}

/// The listing and derived field a value is computed for, as errors name them.
struct Target {
    let listing: Listing
    let field: String
    let locator: FieldLocator

    /// An error at `culprit`'s `number` field, whose value takes the derived value past the limit; `what` says how.
    func overflow(at culprit: Listing, _ number: String, _ what: String, scale: Int) -> Diagnostic {
        .error(
            at: locator.location(of: number, in: culprit),
            "\(what) derived field '\(field)' of \(listing.file) past \(NumberLimit.text(scale: scale)), the largest number it may hold")
    }
}

/// Nil when there is nothing to compute from (an average of no reviews); the field is then left out.
private func gather(
    _ operation: DerivedField.Operation, over group: [Listing], into target: Target, collation: Collation
) throws(Diagnostic) -> Value? {
    func numbers(_ field: String) -> [Listing] {
        group.filter { numericValue($0.fields[field]) != nil }
    }
    switch operation {
    case .count:
        return .int(Int64(group.count))
    case .list(let sort):
        let ordered = sort.isEmpty ? group : sortListings(group, keys: sort, collation: collation)
        return .list(ordered.map { .object($0.fields) })
    case .average(let field, let scale):
        return try average(of: field, in: numbers(field), scale: scale, prior: nil, into: target)
    case .bayesianAverage(let field, let scale, let weight, let mean):
        return try average(of: field, in: numbers(field), scale: scale, prior: (weight, mean), into: target)
    case .sum(let field):
        return try total(of: field, in: numbers(field), into: target)
    case .minimum(let field):
        return numbers(field).map { $0.fields[field]! }.min { numericValue($0)! < numericValue($1)! }
    case .maximum(let field):
        return numbers(field).map { $0.fields[field]! }.max { numericValue($0)! < numericValue($1)! }
    case .sumBy(let groupField, let field):
        var order: [String] = []
        var members: [String: [Listing]] = [:]
        for listing in numbers(field) {
            guard let key = listing.fields[groupField]?.stringValue else { continue }
            if members[key] == nil { order.append(key) }
            members[key, default: []].append(listing)
        }
        var totals: [(String, Value)] = []
        for key in order {
            if let sum = try total(of: field, in: members[key]!, into: target) { totals.append((key, sum)) }
        }
        return .list(totals.sorted { a, b in
            numericValue(a.1)! != numericValue(b.1)! ? numericValue(a.1)! > numericValue(b.1)! : a.0 < b.0
        }.map { key, sum in .object(["group": .string(key), "total": sum]) })
    case .daysSince, .ratio, .times, .atLeast, .lookup:
        return nil
    }
}

private func compute(
    _ derived: DerivedField, on listing: Listing, schema: KindSchema, sources: DerivationSources, buildDate: CalendarDate
) throws(Diagnostic) -> Value? {
    switch derived.operation {
    case .daysSince(let field):
        // Dates lie within years 1 to 9999, so the difference is a few million days at most.
        guard case .date(let date)? = listing.fields[field] else { return nil }
        return .int(Int64(buildDate.dayNumber - date.dayNumber))
    case .ratio(let numerator, let denominator, let scale):
        guard let top = numericValue(listing.fields[numerator]), let bottom = numericValue(listing.fields[denominator]), bottom != 0 else { return nil }
        guard let value = rounded(top / bottom, scale: scale) else {
            throw Target(listing: listing, field: derived.name, locator: sources.locator).overflow(
                at: listing, numerator, "'\(numerator)' / '\(denominator)', kept to \(scale) fraction digits, takes", scale: scale)
        }
        return value
    case .times(let field, let factor, let scale):
        guard let number = numericValue(listing.fields[field]) else { return nil }
        guard let value = rounded(number * factor, scale: scale) else {
            throw Target(listing: listing, field: derived.name, locator: sources.locator).overflow(
                at: listing, field, "'\(field)' times 'by', kept to \(scale) fraction digits, takes", scale: scale)
        }
        return value
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

/// The mean of `field` over `members`, or with a `prior` the Bayesian average `(weight × mean + sum) /
/// (weight + count)`; nil over no members.
private func average(
    of field: String, in members: [Listing], scale: Int, prior: (weight: Double, mean: Double)?, into target: Target
) throws(Diagnostic) -> Value? {
    guard !members.isEmpty else { return nil }
    let sum = members.compactMap { numericValue($0.fields[field]) }.reduce(0, +)
    let average = prior.map { ($0.weight * $0.mean + sum) / ($0.weight + Double(members.count)) } ?? sum / Double(members.count)
    guard let value = rounded(average, scale: scale) else {
        // The average lies between the smallest and largest values (and the prior mean), so one of them is past the
        // limit at this scale too.
        let culprit = members.first { rounded(numericValue($0.fields[field])!, scale: scale) == nil } ?? target.listing
        let what = prior == nil ? "average" : "weighted average"
        throw target.overflow(at: culprit, field, "'\(field)' here, kept to \(scale) fraction digits, takes the \(what) for", scale: scale)
    }
    return value
}

/// Sums ints as an int, decimals at their scale (one field's values share it); nil for nothing to sum. Throws
/// at the listing whose value takes the sum past `NumberLimit`.
private func total(of field: String, in listings: [Listing], into target: Target) throws(Diagnostic) -> Value? {
    var sum: Int64 = 0
    var scale: Int?
    for listing in listings {
        let units: Int64
        switch listing.fields[field] {
        case .int(let number)?: units = number
        case .decimal(let number)?: (units, scale) = (number.units, number.scale)
        default: continue
        }
        let (next, overflow) = sum.addingReportingOverflow(units)
        guard !overflow, NumberLimit.holds(next) else {
            throw target.overflow(at: listing, field, "'\(field)' here takes the sum for", scale: scale ?? 0)
        }
        sum = next
    }
    guard !listings.isEmpty else { return nil }
    return scale.map { .decimal(FixedDecimal(units: sum, scale: $0)) } ?? .int(sum)
}

/// `number` rounded half away from zero to `scale` fraction digits; nil when its units pass `NumberLimit`.
private func rounded(_ number: Double, scale: Int) -> Value? {
    let units = (number * pow(10, Double(scale))).rounded(.toNearestOrAwayFromZero)
    guard abs(units) <= Double(NumberLimit.magnitude) else { return nil }
    return .decimal(FixedDecimal(units: Int64(units), scale: scale))
}

private func numericValue(_ value: Value?) -> Double? {
    switch value {
    case .int(let number)?: return Double(number)
    case .decimal(let number)?: return number.doubleValue
    default: return nil
    }
}
