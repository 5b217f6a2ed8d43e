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
        // Those without both coordinates are not on the map: the page says how many and names the first few,
        // so none goes missing unseen.
        context["unplaced"] = .int(Int64(collection.listings.count - places.count))
        context.set("unplaced_named", unplacedNamed(collection, geo: geo))
        context["unplaced_unnamed"] = .int(Int64(max(0, collection.listings.count - places.count - Self.unplacedNamedAtMost)))
        context.set("places", placeCards(places, schema: schema, digests: cardDigests))
        return page(at: path, template: template, context: context, lastModified: versions.newestUpdates[schema.name])
    }

    /// How many of the listings without a place a map page names; the rest it counts, with a link to the kind's list,
    /// so that a kind with thousands of them does not make the page huge.
    static let unplacedNamedAtMost = 20

    /// The first listings without both coordinates, in the kind's order, as their titles and paths: what the
    /// page shows of them, so their render key is the value itself (at most `unplacedNamedAtMost` short pairs).
    private func unplacedNamed(_ collection: KindCollection, geo: GeoFields) -> Value {
        let schema = collection.schema
        let unplaced = collection.listings.lazy.filter { !Self.hasPlace($0, geo: geo) }.prefix(Self.unplacedNamedAtMost)
        return .list(unplaced.map { listing in
            .object(["title": .string(contexts.title(of: listing, schema: schema)), "path": listing.fields["path"] ?? .null])
        })
    }

    private static func hasPlace(_ listing: Listing, geo: GeoFields) -> Bool {
        guard case .decimal? = listing.fields[geo.latitude], case .decimal? = listing.fields[geo.longitude] else { return false }
        return true
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
