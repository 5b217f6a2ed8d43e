import CatalogueIndex
import OrderedCollections
import SiteModel

/// A JSON Schema (draft 2020-12) for every kind of JSON file the site writes, under `/api/schema/`,
/// made from the kinds' own schemas so apps can check what they download.
extension SiteRenderer {
    static let draft = "https://json-schema.org/draft/2020-12/schema"

    func jsonSchemas() -> [OutputFile] {
        var documents: [(String, Value)] = []
        for collection in catalogue.kinds {
            let schema = collection.schema
            documents.append(("\(schema.name).listing", listingSchema(schema)))
            documents.append((schema.name, document(schema.name, title: "\(schema.title): every listing", [
                "type": .string("object"),
                "required": strings(["$schema", "kind", "title", "url", "count", "items"]),
                "properties": .object([
                    "$schema": string, "kind": .object(["const": .string(schema.name)]), "title": string,
                    "url": .object(["type": .list([.string("string"), .string("null")])]),
                    "count": .object(["type": .string("integer"), "minimum": .int(0)]),
                    "items": .object(["type": .string("array"), "items": ref("\(schema.name).listing.json")]),
                ]),
            ])))
            if schema.daily != nil {
                let entry: Value
                if let entries = schema.entriesField, case .list(let item)? = schema.field(named: entries)?.type {
                    entry = typeSchema(item.type)
                } else {
                    entry = ref("\(schema.name).listing.json")
                }
                documents.append(("\(schema.name).daily", document("\(schema.name).daily", title: "\(schema.title): the pick of one day", [
                    "type": .string("object"),
                    "required": strings(["$schema", "date", "entry", "position", "listing"]),
                        "properties": .object([
                        "$schema": string, "date": date, "entry": entry,
                        "position": .object([
                            "type": .list([.string("integer"), .string("null")]), "minimum": .int(1),
                            "description": .string("The entry's place among its listing's entries, counting from 1 (its anchor on the listing's page is #entry-<position - 1>); null when the pick is a listing"),
                        ]),
                        "listing": requiredObject(schema.hasPages ? ["slug": string, "title": string, "url": uri] : ["slug": string, "title": string]),
                    ]),
                    "$defs": commonDefinitions,
                ])))
            }
        }
        documents += catalogue.kinds.map { ("\($0.schema.name).page", pageSchema($0.schema)) }
        documents += [("index", apiRootSchema), ("facet", facetSchema)] + syncSchemas
        documents += searchSchemas
        documents.append(("jsonfeed", jsonFeedSchema))
        documents.append(("geojson", geoJSONSchema))
        documents.append(("manifest", manifestSchema))
        return documents.map { name, value in OutputFile(path: "api/schema/\(name).json", contents: .bytes(JSONWriter.bytes(value))) }
    }

    func document(_ name: String, title: String, _ body: OrderedDictionary<String, Value>) -> Value {
        var fields: OrderedDictionary<String, Value> = [
            "$schema": .string(SiteRenderer.draft), "$id": .string(site.url("api/schema/\(name).json")), "title": .string(title),
        ]
        fields.merge(body) { first, _ in first }
        return .object(fields)
    }

    private func listingSchema(_ schema: KindSchema) -> Value {
        // A kind without pages has no URL to give its listings.
        var properties: OrderedDictionary<String, Value> = schema.hasPages ? ["$schema": string, "slug": string, "url": uri, "path": string] : ["$schema": string, "slug": string]
        var required = schema.hasPages ? ["slug", "url", "path"] : ["slug"]
        add(schema.fields, to: &properties, required: &required)
        for derived in schema.derived { properties[derived.name] = derivedTypeSchema(derived) }
        // On a listing's own document, its kind's file, and where another kind's derived list embeds it.
        properties["updated"] = date
        required.append("updated")
        return document("\(schema.name).listing", title: "\(schema.title): one \(schema.singular.lowercased())", [
            "type": .string("object"),
            "required": strings(required),
            "properties": .object(properties),
            "$defs": commonDefinitions,
        ])
    }

    func derivedTypeSchema(_ derived: DerivedField) -> Value {
        switch derived.operation {
        case .count: return .object(["type": .string("integer"), "minimum": .int(0)])
        case .daysSince: return .object(["type": .string("integer")])
        case .list: return .object(["type": .string("array"), "items": ref("\(derived.from ?? "").listing.json")])
        case .sumBy:
            return .object(["type": .string("array"), "items": requiredObject(["group": string, "total": .object(["type": .string("number")])])])
        case .atLeast: return .object(["type": .string("boolean")])
        // A looked-up field keeps its own type, checked by the schema of the kind it comes from.
        case .lookup: return .object([:])
        default: return .object(["type": .string("number")])
        }
    }

    /// Public fields only: a private field is not in the output, so the schema does not allow it either.
    private func add(_ fields: [FieldSchema], to properties: inout OrderedDictionary<String, Value>, required: inout [String]) {
        for field in fields where !field.isPrivate {
            properties[field.name] = typeSchema(field.type, field)
            if field.required || field.defaultValue != nil { required.append(field.name) }
            if case .markdown = field.type {
                properties[field.name + "_html"] = string
                if field.required || field.defaultValue != nil { required.append(field.name + "_html") }
            }
        }
    }

    func typeSchema(_ type: FieldType, _ field: FieldSchema? = nil) -> Value {
        func bounded(_ base: String) -> Value {
            var fields: OrderedDictionary<String, Value> = ["type": .string(base)]
            if let minimum = field?.minimum { fields["minimum"] = .number(minimum) }
            if let maximum = field?.maximum { fields["maximum"] = .number(maximum) }
            return .object(fields)
        }
        switch type {
        case .string, .markdown, .phone, .email: return string
        case .int: return bounded("integer")
        case .decimal: return bounded("number")
        case .bool: return .object(["type": .string("boolean")])
        case .date: return date
        case .url: return uri
        case .image: return .object(["$ref": .string("#/$defs/image")])
        case .reference(let kind):
            let linked = catalogue.collection(kind)?.schema.hasPages ?? false
            return .object(["$ref": .string(linked ? "#/$defs/reference" : "#/$defs/reference_without_page")])
        case .enumeration(let values): return openEnum(values)
        case .list(let item): return .object(["type": .string("array"), "items": typeSchema(item.type, item)])
        case .object(let fields):
            var properties = OrderedDictionary<String, Value>()
            var required: [String] = []
            add(fields, to: &properties, required: &required)
            return .object(["type": .string("object"), "required": strings(required), "properties": .object(properties)])
        }
    }

    var commonDefinitions: Value {
        .object([
            "image": imageSchema,
            "reference": requiredObject(["kind": string, "slug": string, "title": string, "path": string, "url": uri]),
            "reference_without_page": requiredObject(["kind": string, "slug": string, "title": string]),
        ])
    }

    /// An image field's value: the fallback file, `srcset` strings (not for SVG), and every published variant.
    private var imageSchema: Value {
        let pixels: Value = .object(["type": .string("integer"), "minimum": .int(1)])
        let format: Value = openEnum(ImageFormat.allCases.map(\.rawValue))
        return .object([
            "type": .string("object"),
            "required": strings(["path", "src", "url", "width", "height", "format", "variants"]),
            "properties": .object([
                "path": string, "src": string, "url": uri, "width": pixels, "height": pixels, "format": format,
                "srcset": string, "webp_srcset": string,
                "variants": .object([
                    "type": .string("array"), "minItems": .int(1),
                    "items": requiredObject(["url": uri, "width": pixels, "height": pixels, "format": format]),
                ]),
            ]),
        ])
    }

    private var jsonFeedSchema: Value {
        document("jsonfeed", title: "JSON Feed 1.1", [
            "type": .string("object"),
            "required": strings(["version", "title", "items"]),
            "properties": .object([
                "version": .object(["const": .string("https://jsonfeed.org/version/1.1")]),
                "title": string, "home_page_url": uri, "feed_url": uri, "description": string, "language": string,
                "items": .object(["type": .string("array"), "items": .object([
                    "type": .string("object"), "required": strings(["id", "url", "title", "content_html", "date_modified"]),
                    "properties": .object([
                        "id": string, "url": uri, "title": string, "content_html": string,
                        "date_published": .object(["type": .string("string"), "format": .string("date-time")]),
                        "date_modified": .object(["type": .string("string"), "format": .string("date-time")]),
                        "tags": .object(["type": .string("array"), "items": string]),
                        "image": uri,
                        "_noticeboard": requiredObject(["images": .object(["type": .string("array"), "items": ref("#/$defs/image")])]),
                    ]),
                ])]),
            ]),
            "$defs": commonDefinitions,
        ])
    }

    private var geoJSONSchema: Value {
        document("geojson", title: "GeoJSON FeatureCollection of points", [
            "type": .string("object"),
            "required": strings(["type", "features"]),
            "properties": .object([
                "$schema": string,
                "type": .object(["const": .string("FeatureCollection")]),
                "features": .object(["type": .string("array"), "items": .object([
                    "type": .string("object"), "required": strings(["type", "geometry", "properties"]),
                    "properties": .object([
                        "type": .object(["const": .string("Feature")]),
                        "geometry": requiredObject([
                            "type": .object(["const": .string("Point")]),
                            "coordinates": .object([
                                "type": .string("array"), "minItems": .int(2), "maxItems": .int(2),
                                "prefixItems": .list([
                                    .object(["type": .string("number"), "minimum": .int(-180), "maximum": .int(180)]),
                                    .object(["type": .string("number"), "minimum": .int(-90), "maximum": .int(90)]),
                                ]),
                            ]),
                        ]),
                        // `url` only for kinds with pages.
                        "properties": .object(["type": .string("object"), "required": strings(["slug", "title"])]),
                    ]),
                ])]),
            ]),
        ])
    }

    private var manifestSchema: Value {
        document("manifest", title: "Every file of the site with its size and SHA-256", [
            "type": .string("object"),
            "required": strings(["$schema", "files"]),
            "properties": .object([
                "$schema": string,
                "files": .object(["type": .string("array"), "items": requiredObject([
                    "path": string,
                    "size": .object(["type": .string("integer"), "minimum": .int(0)]),
                    "sha256": .object(["type": .string("string"), "pattern": .string("^[0-9a-f]{64}$")]),
                ])]),
            ]),
        ])
    }

    var string: Value { .object(["type": .string("string")]) }
    var uri: Value { .object(["type": .string("string"), "format": .string("uri")]) }
    var date: Value { .object(["type": .string("string"), "format": .string("date")]) }
    func ref(_ target: String) -> Value { .object(["$ref": .string(target)]) }
    func strings(_ values: [String]) -> Value { .list(values.map(Value.string)) }

    /// Today's values, and any other string a later build may add: a client keeps an unknown value rather
    /// than failing (see the README's versioning policy).
    func openEnum(_ values: [String]) -> Value {
        .object(["anyOf": .list([.object(["enum": strings(values)]), .object(["type": .string("string")])])])
    }

    /// An object with these properties, all required (and, like every object, open to fields added later).
    func requiredObject(_ properties: OrderedDictionary<String, Value>) -> Value {
        .object([
            "type": .string("object"), "required": strings(Array(properties.keys)),
            "properties": .object(properties),
        ])
    }
}
