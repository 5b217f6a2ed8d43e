import OrderedCollections
import SiteModel

/// A field whose values each get a page listing the kind's listings with that value.
public struct Facet: Sendable {
    public let field: FieldSchema
    /// Sorted by their text.
    public let values: [FacetValue]

    /// The facet with its values' listings taken from `base`: the list they were chosen from, compacted or with
    /// one listing edited in place.
    func over(_ base: [Listing]) -> Facet {
        Facet(field: field, values: values.map { FacetValue(text: $0.text, slug: $0.slug, listings: $0.listings.over(base)) })
    }

    /// The facet's own page, listing its values: `cleaners/county/`.
    public func outputPath(kind: String) -> String { "\(kind)/\(field.name)/" }

    /// The page of the value `text` of the facet over the field named `field`: `cleaners/county/cork/`.
    public static func valueOutputPath(kind: String, field: String, text: String) -> String {
        "\(kind)/\(field)/\(Slug.from(text: text))/"
    }
}

public struct FacetValue: Sendable {
    /// As people read it: `Cork`, `Like new`, `Yes`.
    public let text: String
    /// Its URL segment: `cork`, `like-new`, `yes`.
    public let slug: String
    /// In the kind's order.
    public let listings: ListingSelection
}

/// Each value's URL segment is its own slug, whatever other values there are, so adding a value never moves
/// another. Two values with one slug (`Cork` and `cork`), and a value with none (`!!!`), are errors.
func facets(
    of schema: KindSchema, listings: [Listing], entries: [Listing], collation: Collation, locator: FieldLocator
) -> (facets: [Facet], problems: [Diagnostic]) {
    var problems: [Diagnostic] = []
    let facets = schema.facets.compactMap { name -> Facet? in
        guard let field = schema.facetField(named: name) else { return nil }
        var order: [String] = []
        var members: [String: [UInt32]] = [:]
        let base = schema.facetIsOverEntries(name) ? entries : listings
        for (position, listing) in base.enumerated() {
            var seen = Set<String>()
            for text in facetTexts(listing.fields[name]) where seen.insert(text).inserted {
                if members[text] == nil { order.append(text) }
                members[text, default: []].append(UInt32(position))
            }
        }
        // Enum values keep their declared order; others sort by the site language's collation.
        var declared: [String] = []
        if case .enumeration(let values) = field.type { declared = values }
        if case .list(let item) = field.type, case .enumeration(let values) = item.type { declared = values }
        let keys = Dictionary(uniqueKeysWithValues: order.map { ($0, collation.key($0)) })
        let sorted = order.sorted { a, b in
            let (x, y) = (declared.firstIndex(of: a) ?? Int.max, declared.firstIndex(of: b) ?? Int.max)
            if x != y { return x < y }
            let byCollation = Collation.compare(keys[a]!, keys[b]!)
            return byCollation == .orderedSame ? a < b : byCollation == .orderedAscending
        }
        let values = sorted.map { FacetValue(text: $0, slug: Slug.from(text: $0), listings: ListingSelection(base, at: members[$0]!)) }
        // An entry's fields sit inside its collection's file, where no top-level field places them.
        let fieldLocator = schema.facetIsOverEntries(name) ? FieldLocator.fileOnly : locator
        problems += slugProblems(of: values, field: name, locator: fieldLocator)
        problems += sharedTitleProblems(field, in: base, locator: fieldLocator)
        return Facet(field: field, values: values)
    }
    return (facets, problems)
}

/// A value without a slug, and each value whose slug an earlier one has, at the first listing (by file
/// path) that has it; "earlier" goes by that listing too, so which value is blamed does not depend on order.
/// Each value's first listing is found once: found in the sort's comparisons, it made this check grow faster
/// than the catalogue (a value of 50,000 listings scanned at every comparison; 3 s of a 400,000-listing build).
private func slugProblems(of values: [FacetValue], field: String, locator: FieldLocator) -> [Diagnostic] {
    let firstListings = values.map { value in (value: value, listing: value.listings.min { $0.file < $1.file }!) }
    var problems: [Diagnostic] = []
    var owners: [String: (text: String, file: String)] = [:]
    for (value, listing) in firstListings.sorted(by: { ($0.listing.file, $0.value.text) < ($1.listing.file, $1.value.text) }) {
        if value.slug.isEmpty {
            problems.append(.error(
                at: locator.location(of: field, in: listing),
                "'\(field)' value '\(value.text)' has no letters or digits to make its page's URL from; add some"))
        } else if let owner = owners[value.slug] {
            let place = owner.file == listing.file ? "this file" : owner.file
            problems.append(.error(
                at: locator.location(of: field, in: listing),
                "'\(field)' value '\(value.text)' would have the URL segment '\(value.slug)', which the value '\(owner.text)' in \(place) already has; write them the same way if they are one value, or tell them apart with letters or digits"))
        } else {
            owners[value.slug] = (value.text, listing.file)
        }
    }
    return problems
}

/// A facet over a reference has the referred listings' titles for values: two listings referred to under one
/// title would be one value, their referrers on one page. Of each title's listings, the one referred to first
/// (by the referrer's file path) keeps it; an error at each referrer of another. One pass over the listings,
/// and a sort of the referrers in error only: this runs on every build, over hundreds of thousands of them.
private func sharedTitleProblems(_ field: FieldSchema, in base: [Listing], locator: FieldLocator) -> [Diagnostic] {
    guard isReference(field.type) else { return [] }
    var firstReferrers: [String: [String: String]] = [:]  // by title, by slug: the first referrer's file
    for listing in base {
        for (title, slug) in references(listing.fields[field.name]) {
            firstReferrers[title, default: [:]][slug] = min(firstReferrers[title]?[slug] ?? listing.file, listing.file)
        }
    }
    let keeper = firstReferrers.filter { $0.value.count > 1 }.mapValues { slugs in slugs.min { ($0.value, $0.key) < ($1.value, $1.key) }!.key }
    guard !keeper.isEmpty else { return [] }
    let misreferred = { (title: String, slug: String) in keeper[title].map { $0 != slug } ?? false }
    let inError = base.filter { listing in references(listing.fields[field.name]).contains(where: misreferred) }
    return inError.sorted { $0.file < $1.file }.flatMap { listing in
        references(listing.fields[field.name]).filter(misreferred).map { title, slug -> Diagnostic in
            let kept = keeper[title]!
            return .error(
                at: locator.location(of: field.name, in: listing),
                "'\(field.name)' refers to '\(slug)', titled '\(title)' as '\(kept)' is; the '\(field.name)' facet's values are titles, so the two would be one value: give one of them another title")
        }
    }
}

private func isReference(_ type: FieldType) -> Bool {
    switch type {
    case .reference: return true
    case .list(let item): return isReference(item.type)
    default: return false
    }
}

/// The titles and slugs of the listings a field's value refers to.
private func references(_ value: Value?) -> [(title: String, slug: String)] {
    referenceObjects(value).compactMap { reference in
        guard case .string(let slug)? = reference["slug"], let title = reference["title"]?.text else { return nil }
        return (title, slug)
    }
}

private func referenceObjects(_ value: Value?) -> [OrderedDictionary<String, Value>] {
    switch value {
    case .object(let reference)?: return [reference]
    case .list(let items)?: return items.flatMap { referenceObjects($0) }
    default: return []
    }
}

/// A facet field's value as the texts its facet pages are made from: a bool as Yes or No, a reference by its title.
public func facetTexts(_ value: Value?) -> [String] {
    switch value {
    case .string(let text)?: return text.isEmpty ? [] : [text]
    case .bool(let flag)?: return [flag ? "Yes" : "No"]
    case .object(let reference)?: return reference["title"].map { [$0.text] } ?? []
    case .list(let items)?: return items.flatMap { facetTexts($0) }
    default: return []
    }
}
