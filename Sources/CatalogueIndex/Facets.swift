import SiteModel

/// A field whose values each get a page listing the kind's listings with that value.
public struct Facet: Sendable {
    public let field: FieldSchema
    /// Sorted by their text.
    public let values: [FacetValue]

    /// The facet's own page, listing its values: `cleaners/county/`.
    public func outputPath(kind: String) -> String { "\(kind)/\(field.name)/" }
}

public struct FacetValue: Sendable {
    /// As people read it: `Cork`, `Like new`, `Yes`.
    public let text: String
    /// Its URL segment: `cork`, `like-new`, `yes`.
    public let slug: String
    /// In the kind's order.
    public let listings: [Listing]
}

func facets(of schema: KindSchema, listings: [Listing], entries: [Listing]) -> [Facet] {
    schema.facets.compactMap { name -> Facet? in
        guard let field = schema.facetField(named: name) else { return nil }
        var order: [String] = []
        var members: [String: [Listing]] = [:]
        for listing in schema.facetIsOverEntries(name) ? entries : listings {
            var seen = Set<String>()
            for text in facetTexts(listing.fields[name]) where seen.insert(text).inserted {
                if members[text] == nil { order.append(text) }
                members[text, default: []].append(listing)
            }
        }
        // Enum values keep their declared order; others sort alphabetically.
        var declared: [String] = []
        if case .enumeration(let values) = field.type { declared = values }
        if case .list(let item) = field.type, case .enumeration(let values) = item.type { declared = values }
        let sorted = order.sorted { a, b in
            let (x, y) = (declared.firstIndex(of: a) ?? Int.max, declared.firstIndex(of: b) ?? Int.max)
            return x != y ? x < y : a.lowercased() < b.lowercased()
        }
        var usedSlugs = Set<String>()
        let values = sorted.map { text in
            // Two values with one slug ("C++" and "C") get -2, -3… in value order, so URLs stay stable.
            let base = Slug.from(text: text).isEmpty ? "value" : Slug.from(text: text)
            var slug = base
            var counter = 2
            while !usedSlugs.insert(slug).inserted {
                slug = "\(base)-\(counter)"
                counter += 1
            }
            return FacetValue(text: text, slug: slug, listings: members[text]!)
        }
        return Facet(field: field, values: values)
    }
}

private func facetTexts(_ value: Value?) -> [String] {
    switch value {
    case .string(let text)?: return text.isEmpty ? [] : [text]
    case .bool(let flag)?: return [flag ? "Yes" : "No"]
    case .object(let reference)?: return reference["title"].map { [$0.text] } ?? []
    case .list(let items)?: return items.flatMap { facetTexts($0) }
    default: return []
    }
}
