import CatalogueIndex
import OrderedCollections
import SiteModel
import Support

/// The JSON apps read: a document per kind and per listing, daily picks, and GeoJSON. Each names its
/// JSON Schema in `$schema`.
extension SiteRenderer {
    func schemaURL(_ name: String) -> Value { .string(site.url("api/schema/\(name).json")) }

    /// `api/<kind>.json`, made as it is written (`ByteStream`); `made` is given where each listing's item lies in it.
    func kindDocument(_ collection: KindCollection, made: @escaping @Sendable (ItemSpans) -> Void) -> OutputFile {
        OutputFile(path: Self.kindDocumentPath(collection.schema), contents: .streamed { made(writeKindDocument(collection, into: &$0)) })
    }

    /// Writes `api/<kind>.json` into `output`; returns where each listing's item lies in it. Each listing's
    /// fields and `updated` are encoded as the document is written, and again for its own document: holding
    /// them encoded between the two cost more memory than encoding twice.
    func writeKindDocument(_ collection: KindCollection, into output: inout some ByteSink) -> ItemSpans {
        let schema = collection.schema
        let list: OrderedDictionary<String, Value> = [
            "$schema": schemaURL(schema.name),
            "kind": .string(schema.name),
            "title": .string(schema.title),
            "url": schema.hasPages ? .string(site.url(collection.outputPath)) : .null,
            "count": .int(Int64(collection.listings.count)),
        ]
        return JSONWriter.listDocument(list, thenList: "items", of: collection.listings.lazy.map(encoded), into: &output)
    }

    static func kindDocumentPath(_ schema: KindSchema) -> String { "api/\(schema.name).json" }

    /// A listing's item in its kind's document.
    func kindDocumentItem(_ listing: Listing) -> [UInt8] {
        encoded(listing).bytes
    }

    /// `api/<kind>/<slug>.json` of the kind's listings at `positions` (in the kind's order).
    func listingDocuments(_ collection: KindCollection, at positions: ArraySlice<Int>) -> [OutputFile] {
        let schema = collection.schema
        let listingSchema = schemaURL("\(schema.name).listing")
        return positions.map { position in
            OutputFile(
                path: "api/\(schema.name)/\(collection.listings[position].slug).json",
                contents: .bytes(JSONWriter.bytes(["$schema": listingSchema], followedByFieldsOf: encoded(collection.listings[position]))))
        }
    }

    /// The listing's published fields followed by `updated`; a listing that a derived list embeds carries its own.
    private func encoded(_ listing: Listing) -> JSONWriter.Encoded {
        JSONWriter.encoded(datingEmbedded(listing.fields, kind: listing.kind), adding: ["updated": .date(versions.updated(listing))])
    }

    /// The fields `encoded` writes, as a value.
    private func datedFields(_ listing: Listing) -> OrderedDictionary<String, Value> {
        var fields = datingEmbedded(listing.fields, kind: listing.kind)
        fields["updated"] = .date(versions.updated(listing))
        return fields
    }

    /// `fields` of a listing of `kind`, each listing its derived lists embed (a cleaner's reviews) given its
    /// `updated`, as its own document has it. The listing's version is of its fields without them: an embedded
    /// listing's date moves only when its fields do, which are in the listing's fields too.
    private func datingEmbedded(_ fields: OrderedDictionary<String, Value>, kind: String) -> OrderedDictionary<String, Value> {
        guard let schema = catalogue.kinds.first(where: { $0.schema.name == kind })?.schema else { return fields }
        var dated = fields
        for derived in schema.derived {
            guard case .list = derived.operation, let from = derived.from, case .list(let items)? = fields[derived.name] else { continue }
            dated[derived.name] = .list(items.map { item in
                guard case .object(let embedded) = item, let slug = embedded["slug"]?.text else { return item }
                var withDate = datingEmbedded(embedded, kind: from)
                withDate["updated"] = .date(versions.updated(kind: from, slug: slug))
                return .object(withDate)
            })
        }
        return dated
    }

    /// `api/<kind>/daily/YYYY-MM-DD.json`, for the kinds that ask for daily picks.
    func dailyPicks(_ collection: KindCollection) -> [OutputFile] {
        let schema = collection.schema
        guard let daily = schema.daily else { return [] }
        let (first, count) = daily.documentDays(from: catalogue.buildDate)
        return DailyPicks(collection: collection, from: first, days: count).picks.map { pick in
            let document: Value = .object([
                "$schema": schemaURL("\(schema.name).daily"),
                "date": .date(pick.date),
                // A listing kind's pick is the listing, as its own document has it (with `updated`).
                "entry": schema.entriesField == nil ? .object(datedFields(pick.listing)) : pick.entry,
                "position": pick.position.map { .int(Int64($0)) } ?? .null,
                "listing": .object(linkedListing(pick.listing, schema: schema)),
            ])
            return OutputFile(path: "api/\(schema.name)/daily/\(pick.date).json", contents: .bytes(JSONWriter.bytes(document)))
        }
    }

    /// `api/<kind>.geojson`, for the kinds with coordinates.
    func geoJSONDocument(_ collection: KindCollection) -> [OutputFile] {
        guard let geo = collection.schema.geo else { return [] }
        let head: OrderedDictionary<String, Value> = ["$schema": schemaURL("geojson"), "type": .string("FeatureCollection")]
        return [
            OutputFile(path: "api/\(collection.schema.name).geojson", contents: .streamed { output in
                let features = collection.listings.lazy.compactMap { self.geoJSONFeature($0, collection.schema, geo) }.map(JSONWriter.encoded)
                _ = JSONWriter.listDocument(head, thenList: "features", of: features, into: &output)
            })
        ]
    }

    /// A listing as other documents name it: its slug, title and, when its kind has pages, its page's URL.
    private func linkedListing(_ listing: Listing, schema: KindSchema) -> OrderedDictionary<String, Value> {
        var fields: OrderedDictionary<String, Value> = ["slug": .string(listing.slug), "title": .string(contexts.title(of: listing, schema: schema))]
        if let url = listing.fields["url"] { fields["url"] = url }
        return fields
    }

    /// A listing's Feature in its kind's FeatureCollection (RFC 7946: longitude first); nil unless it has
    /// both coordinates. The collection is written a Feature at a time, as a stream, rather than made whole
    /// as one value tree and then encoded (at 10× L, 100,000 Features and their 29 MB of JSON held together).
    private func geoJSONFeature(_ listing: Listing, _ schema: KindSchema, _ geo: GeoFields) -> Value? {
        guard case .decimal(let lat)? = listing.fields[geo.latitude], case .decimal(let lon)? = listing.fields[geo.longitude] else {
            return nil
        }
        var properties = linkedListing(listing, schema: schema)
        for facet in schema.facets { properties[facet] = listing.fields[facet] ?? .null }
        return .object([
            "type": .string("Feature"),
            "geometry": .object(["type": .string("Point"), "coordinates": .list([.decimal(lon), .decimal(lat)])]),
            "properties": .object(properties),
        ])
    }
}
