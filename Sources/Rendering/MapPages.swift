import CatalogueIndex
import OrderedCollections
import SiteModel

/// A kind's map page (`<kind>/map/`, for kinds with `geo`): its places as a list with links, which the
/// theme's script draws on a Leaflet map from the kind's GeoJSON when the site configures tiles.
extension SiteRenderer {
    /// Nil for a kind without `geo`, or when the theme has no `map` template.
    func mapPage(_ collection: KindCollection) -> Page? {
        let schema = collection.schema
        guard let geo = schema.geo, contexts.mapKinds.contains(schema.name) else { return nil }
        let path = collection.outputPath + "map/"
        var context = PageContext([
            "site": contexts.siteValue(currentKind: schema.name),
            "page": contexts.page(title: "\(schema.title) on a map", outputPath: path, description: "Where the \(schema.title.lowercased()) are."),
        ])
        context.set("kind", contexts.kindValue(collection))
        context["geojson"] = .string(site.path("api/\(schema.name).geojson"))
        context["tiles"] = site.map.map { .object(["url": .string($0.tiles), "attribution": .string($0.attribution)]) } ?? .null
        context["places"] = .list(collection.listings.compactMap { place($0, in: collection, geo: geo) })
        return page(at: path, template: templates.name("map", forKind: schema.name), context: context, lastModified: collection.latestDate(of: collection.listings))
    }

    /// A listing with both coordinates, as the map's list shows it: its card, its coordinates and the text of
    /// its facets (`Tools · Cork · Good`).
    private func place(_ listing: Listing, in collection: KindCollection, geo: GeoFields) -> Value? {
        guard case .decimal(let lat)? = listing.fields[geo.latitude], case .decimal(let lon)? = listing.fields[geo.longitude],
            case .object(var fields) = contexts.card(listing, schema: collection.schema, firstScreen: false)
        else { return nil }
        fields["slug"] = .string(listing.slug)
        fields["lat"] = .string(Value.decimal(lat).text)
        fields["lon"] = .string(Value.decimal(lon).text)
        let facets = collection.schema.facets.compactMap { facet -> String? in
            if case .string(let text)? = listing.fields[facet] { return text }
            return nil
        }
        fields["summary"] = .string(facets.joined(separator: " · "))
        return .object(fields)
    }
}
