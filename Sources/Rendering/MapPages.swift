import CatalogueIndex
import OrderedCollections
import SiteModel

/// A kind's map page (`<kind>/map/`, for kinds with `geo`): its places as a list with links, which the
/// theme's script draws on a Leaflet map from the kind's GeoJSON when the site configures tiles.
extension SiteRenderer {
    /// Nil for a kind without `geo`, or when the theme has no `map` template.
    func mapPage(_ collection: KindCollection, cardDigests: CardDigests = .none) -> Page? {
        let schema = collection.schema
        guard let geo = schema.geo, contexts.mapKinds.contains(schema.name) else { return nil }
        let path = collection.outputPath + "map/"
        let template = templates.name("map", forKind: schema.name)
        var context = pageContext(template, site: contexts.siteValue(.map(schema.name)), [
            "page": contexts.page(title: "\(schema.title) on a map", outputPath: path, description: "Where the \(schema.title.lowercased()) are."),
        ])
        context.set("kind", contexts.kindValue(collection))
        context["geojson"] = .string(site.path("api/\(schema.name).geojson"))
        context["tiles"] = site.map.map { .object(["url": .string($0.tiles), "attribution": .string($0.attribution)]) } ?? .null
        let places = collection.listings.indices.compactMap { place(at: $0, in: collection, geo: geo) }
        // Those without both coordinates are not on the map: the page says how many, so none goes missing unseen.
        context["unplaced"] = .int(Int64(collection.listings.count - places.count))
        context.set("places", placeCards(places, schema: schema, digests: cardDigests))
        return page(at: path, template: template, context: context, lastModified: versions.newestUpdates[schema.name])
    }

    /// The listing at `position` with both coordinates, with the text of its facets (`Tools · Cork · Good`);
    /// nil without them.
    private func place(at position: Int, in collection: KindCollection, geo: GeoFields) -> Place? {
        let listing = collection.listings[position]
        guard case .decimal(let lat)? = listing.fields[geo.latitude], case .decimal(let lon)? = listing.fields[geo.longitude] else { return nil }
        let facets = collection.schema.facets.compactMap { facet -> String? in
            if case .string(let text)? = listing.fields[facet] { return text }
            return nil
        }
        return Place(listing: listing, position: position, lat: Value.decimal(lat).text, lon: Value.decimal(lon).text, summary: facets.joined(separator: " · "))
    }
}

/// A listing on a kind's map, before it becomes a card with its coordinates.
struct Place {
    let listing: Listing
    /// Where it stands in its kind's list.
    let position: Int
    let lat: String
    let lon: String
    let summary: String

    /// What the card adds, as the page's list shows it.
    var additions: OrderedDictionary<String, Value> {
        ["slug": .string(listing.slug), "lat": .string(lat), "lon": .string(lon), "summary": .string(summary)]
    }
}

extension SiteRenderer {
    /// A map page's places: each card off the first screen with the place's own fields added, made as the
    /// template walks them (a kind's every place is one page's list). Render keys take each card as its
    /// digest: the cards hold whole listings, and a large kind's map page had a key of 64 MB (the L build's
    /// peak memory). The list of those digests goes in as its own digest, made a place at a time.
    fileprivate func placeCards(_ places: [Place], schema: KindSchema, digests: CardDigests) -> MadeList {
        let contexts = contexts
        let keyStandIn = Value.string(RenderKey.digest(ofListOf: places.count) { index in
            .list([.string(digests.digest(of: places[index].listing, at: places[index].position, schema: schema, contexts: contexts)), .object(places[index].additions)])
        })
        return MadeList(count: places.count, keyStandIn: keyStandIn) { index in
            let place = places[index]
            return .object(contexts.cardFields(place.listing, schema: schema, firstScreen: false).merging(place.additions) { _, added in added })
        }
    }
}
