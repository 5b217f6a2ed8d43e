import CatalogueIndex
import OrderedCollections
import SiteModel

/// Where browsing goes from a page: breadcrumbs up to the kind and facet, each facet value's page, and on a
/// facet value page the other facets' values within it, each a search for both.
extension PageContexts {
    /// Home, then each of `trail` (`title`, `path` root-relative to the output); the last is the page itself.
    func breadcrumbs(_ trail: [(title: String, outputPath: String)]) -> Value {
        .list(([("Home", "")] + trail).map { title, outputPath in .object(["title": .string(title), "path": .string(site.path(outputPath))]) })
    }

    /// For each facet of the listing itself, its values here with their pages: `facet_links.county`.
    func facetLinks(_ listing: Listing, schema: KindSchema) -> Value {
        var links: OrderedDictionary<String, Value> = [:]
        for facet in schema.facets where !schema.facetIsOverEntries(facet) {
            links[facet] = .list(facetTexts(listing.fields[facet]).map { text in
                .object(["text": .string(text), "path": .string(facetValuePaths.path(kind: schema.name, field: facet, text: text))])
            })
        }
        return .object(links)
    }

    /// On a facet value's page, each other facet of the listings themselves with its values among them and how
    /// many have each, linking to the search page filtered by both (`/search/?kind=cleaners&county=Cork&languages=Polish`).
    func combinedFilters(_ value: FacetValue, of facet: Facet, in collection: KindCollection) -> Value {
        let schema = collection.schema
        guard !schema.facetIsOverEntries(facet.field.name) else { return .list([]) }
        return .list(collection.facets.filter { $0.field.name != facet.field.name && !schema.facetIsOverEntries($0.field.name) }.compactMap { other in
            var counts: [String: Int] = [:]
            for listing in value.listings {
                for text in Set(facetTexts(listing.fields[other.field.name])) { counts[text, default: 0] += 1 }
            }
            let values: [Value] = other.values.compactMap { otherValue in
                guard let count = counts[otherValue.text] else { return nil }
                let query = SearchPageQuery.query([(SearchPageQuery.kind, schema.name), (facet.field.name, value.text), (other.field.name, otherValue.text)])
                return .object(["text": .string(otherValue.text), "count": .int(Int64(count)), "path": .string(site.path("search/") + query)])
            }
            return values.isEmpty ? nil : .object(["label": .string(other.field.label), "values": .list(values)])
        })
    }
}
