import CatalogueIndex
import OrderedCollections
import SiteModel
import Support

/// The JSON apps read: a document per kind and per listing, daily picks, and GeoJSON. Each names its
/// JSON Schema in `$schema`.
extension SiteRenderer {
    static let searchIndexPath = "api/search.json"

    func schemaURL(_ name: String) -> Value { .string(site.url("api/schema/\(name).json")) }

    /// `api/<kind>.json` and `api/<kind>/<slug>.json`; with `onlyListings`, the per-listing documents of those
    /// listings only. Each listing's fields and `updated` are encoded once (`ListingVersions`), for both its
    /// own document and the kind's.
    func kindDocuments(_ collection: KindCollection, onlyListings: Set<String>?) -> [OutputFile] {
        let schema = collection.schema
        guard let items = versions.documents[schema.name] else { preconditionFailure("\(schema.name)'s listings were not encoded") }
        let list: OrderedDictionary<String, Value> = [
            "$schema": schemaURL(schema.name),
            "kind": .string(schema.name),
            "title": .string(schema.title),
            "url": schema.hasPages ? .string(site.url(collection.outputPath)) : .null,
            "count": .int(Int64(collection.listings.count)),
        ]
        var files = [OutputFile(path: "api/\(schema.name).json", contents: .bytes(JSONWriter.bytes(list, thenList: "items", of: items)))]
        let listingSchema = schemaURL("\(schema.name).listing")
        let documents = zip(collection.listings, items).filter { listing, _ in onlyListings?.contains(listing.slug) ?? true }
        files += documents.parallelMap { listing, fields in
            OutputFile(
                path: "api/\(schema.name)/\(listing.slug).json",
                contents: .bytes(JSONWriter.bytes(["$schema": listingSchema], followedByFieldsOf: fields)))
        }
        return files
    }

    /// `api/<kind>/daily/YYYY-MM-DD.json`, for the kinds that ask for daily picks.
    func dailyPicks(_ collection: KindCollection) -> [OutputFile] {
        let schema = collection.schema
        guard let daily = schema.daily else { return [] }
        return DailyPicks(collection: collection, from: catalogue.buildDate, days: daily.days).picks.map { pick in
            let document: Value = .object([
                "$schema": schemaURL("\(schema.name).daily"),
                "date": .date(pick.date),
                "entry": pick.entry,
                "position": pick.position.map { .int(Int64($0)) } ?? .null,
                "listing": .object(linkedListing(pick.listing, schema: schema)),
            ])
            return OutputFile(path: "api/\(schema.name)/daily/\(pick.date).json", contents: .bytes(JSONWriter.bytes(document)))
        }
    }

    /// `api/<kind>.geojson`, for the kinds with coordinates.
    func geoJSONDocument(_ collection: KindCollection) -> [OutputFile] {
        guard let geo = collection.schema.geo else { return [] }
        return [OutputFile(path: "api/\(collection.schema.name).geojson", contents: .bytes(JSONWriter.bytes(geoJSON(collection, geo))))]
    }

    /// A listing as other documents name it: its slug, title and, when its kind has pages, its page's URL.
    private func linkedListing(_ listing: Listing, schema: KindSchema) -> OrderedDictionary<String, Value> {
        var fields: OrderedDictionary<String, Value> = ["slug": .string(listing.slug), "title": .string(contexts.title(of: listing, schema: schema))]
        if let url = listing.fields["url"] { fields["url"] = url }
        return fields
    }

    /// A FeatureCollection of the listings that have both coordinates (RFC 7946: longitude first).
    private func geoJSON(_ collection: KindCollection, _ geo: GeoFields) -> Value {
        let features: [Value] = collection.listings.compactMap { listing in
            guard case .decimal(let lat)? = listing.fields[geo.latitude], case .decimal(let lon)? = listing.fields[geo.longitude] else {
                return nil
            }
            var properties = linkedListing(listing, schema: collection.schema)
            for facet in collection.schema.facets { properties[facet] = listing.fields[facet] ?? .null }
            return .object([
                "type": .string("Feature"),
                "geometry": .object(["type": .string("Point"), "coordinates": .list([.decimal(lon), .decimal(lat)])]),
                "properties": .object(properties),
            ])
        }
        return .object([
            "$schema": schemaURL("geojson"),
            "type": .string("FeatureCollection"),
            "features": .list(features),
        ])
    }

    /// One compact index of every listing that has a page, for the search page's script:
    /// each item is `[kind, title, path, text, [facet value indexes per facet], range value or null]`,
    /// where `text` is the listing's public text folded to lowercase without accents.
    func searchIndex() -> OutputFile {
        var kinds: [Value] = []
        var items: [Value] = []
        for collection in catalogue.kinds where collection.schema.hasPages {
            let schema = collection.schema
            let kindIndex = Int64(kinds.count)
            var rangeLabel: Value = .null
            if let range = schema.searchRange, let field = schema.field(named: range) {
                rangeLabel = .object(["field": .string(range), "label": .string(field.label)])
            }
            kinds.append(.object([
                "name": .string(schema.name),
                "title": .string(schema.title),
                "facets": .list(collection.facets.map { facet in
                    .object(["name": .string(facet.field.name), "label": .string(facet.field.label), "values": .list(facet.values.map { .string($0.text) })])
                }),
                "range": rangeLabel,
            ]))
            // For each facet, the indexes of the values each listing has, by slug.
            let membership: [[String: [Int]]] = collection.facets.map { facet in
                var valuesOf: [String: [Int]] = [:]
                for (index, value) in facet.values.enumerated() {
                    for listing in value.listings { valuesOf[listing.slug, default: []].append(index) }
                }
                return valuesOf
            }
            items += collection.listings.parallelMap { listing -> Value in
                let facetIndexes: [Value] = membership.map { .list(($0[listing.slug] ?? []).map { .int(Int64($0)) }) }
                var range: Value = .null
                if let field = schema.searchRange, let value = listing.fields[field] { range = value }
                return .list([
                    .int(kindIndex),
                    .string(contexts.title(of: listing, schema: schema)),
                    .string(listing.outputPath),
                    .string(searchText(listing, schema: schema)),
                    .list(facetIndexes),
                    range,
                ])
            }
        }
        let document: Value = .object([
            "$schema": schemaURL("search"),
            "base_path": .string(site.basePath),
            "kinds": .list(kinds),
            "items": .list(items),
        ])
        return OutputFile(path: SiteRenderer.searchIndexPath, contents: .bytes(JSONWriter.bytes(document)))
    }

    /// Text, enum and Markdown fields (Markdown as its source, less its punctuation), whitespace collapsed.
    private func searchText(_ listing: Listing, schema: KindSchema) -> String {
        var parts: [String] = []
        func collect(_ value: Value, _ type: FieldType) {
            switch (type, value) {
            case (.string, .string(let text)), (.enumeration, .string(let text)), (.markdown, .string(let text)):
                parts.append(text)
            case (.list(let item), .list(let values)):
                values.forEach { collect($0, item.type) }
            case (.object(let fields), .object(let values)):
                for field in fields { if let value = values[field.name] { collect(value, field.type) } }
            case (.reference, .object(let reference)):
                parts.append(reference["title"]?.text ?? "")
            default:
                break
            }
        }
        for field in schema.fields where field.name != schema.titleField {
            if let value = listing.fields[field.name] { collect(value, field.type) }
        }
        return SearchWords.of(parts.joined(separator: " "))
    }
}
