import CatalogueIndex
import OrderedCollections
import SiteModel

/// The JSON Schemas of the paged documents, the API root and the sync documents (see `JSONSchemas.swift`).
extension SiteRenderer {
    /// `api/<kind>/page/N.json` and the kind's facet value pages: cards with the kind's key fields.
    func pageSchema(_ schema: KindSchema) -> Value {
        var card: OrderedDictionary<String, Value> = ["slug": string, "title": string, "document": uri, "url": uri, "updated": date]
        for name in Self.keyFields(of: schema) where card[name] == nil {
            if let field = schema.facetField(named: name), !field.isPrivate {
                card[name] = typeSchema(field.type, field)
            } else if let derived = schema.derived.first(where: { $0.name == name }) {
                card[name] = derivedTypeSchema(derived)
            }
        }
        let count: Value = .object(["type": .string("integer"), "minimum": .int(0)])
        let link: Value = .object(["type": .list([.string("string"), .string("null")]), "format": .string("uri")])
        return document("\(schema.name).page", title: "\(schema.title): one page of a list", [
            "type": .string("object"),
            "required": strings(["$schema", "kind", "facet", "page", "pages", "total", "page_size", "prev", "next", "items"]),
            "properties": .object([
                "$schema": string, "kind": .object(["const": .string(schema.name)]),
                "facet": .object(["anyOf": .list([.object(["type": .string("null")]), requiredObject(["name": string, "value": string, "slug": string])])]),
                "page": count, "pages": count, "total": count, "page_size": count, "prev": link, "next": link,
                "items": .object([
                    "type": .string("array"),
                    "items": .object([
                        "type": .string("object"), "required": strings(["slug", "title", "document", "updated"]), "properties": .object(card),
                    ]),
                ]),
            ]),
            "$defs": commonDefinitions,
        ])
    }

    var facetSchema: Value {
        document("facet", title: "A facet's values, each with its count and first page", [
            "type": .string("object"),
            "required": strings(["$schema", "kind", "facet", "label", "values"]),
            "properties": .object([
                "$schema": string, "kind": string, "facet": string, "label": string,
                "values": .object(["type": .string("array"), "items": requiredObject([
                    "value": string, "slug": string, "count": .object(["type": .string("integer"), "minimum": .int(1)]), "url": uri,
                ])]),
            ]),
        ])
    }

    var apiRootSchema: Value {
        let count: Value = .object(["type": .string("integer"), "minimum": .int(0)])
        return document("index", title: "The API root: the build, its kinds and the sync entry point", [
            "type": .string("object"),
            "required": strings(["$schema", "api_version", "title", "url", "language", "currency", "build", "date", "sync", "kinds"]),
            "properties": .object([
                "$schema": string, "api_version": .object(["const": .int(Int64(SyncDocuments.apiVersion))]), "title": string, "url": uri,
                "language": string, "currency": string,
                "build": .object(["type": .string("integer"), "minimum": .int(1)]), "date": date, "sync": uri,
                "kinds": .object(["type": .string("array"), "items": requiredObject([
                    "name": string, "title": string, "singular": string, "count": count, "schema": uri,
                    "pages": requiredObject(["count": count, "size": count, "first": uri]),
                    "fields": .object(["type": .string("array"), "items": requiredObject([
                        "name": string, "label": string,
                        "format": .object(["anyOf": .list([openEnum(DisplayFormat.allCases.map(\.rawValue)), .object(["type": .string("null")])])]),
                        "out_of": .object(["type": .list([.string("number"), .string("null")])]),
                    ])]),
                    "facets": .object(["type": .string("array"), "items": requiredObject(["name": string, "label": string, "url": uri])]),
                    "daily": .object(["type": .list([.string("string"), .string("null")])]),
                ])]),
            ]),
        ])
    }

    /// `sync.head`, `sync.tree`, `sync.bucket` and `sync.changes`.
    var syncSchemas: [(String, Value)] {
        let count: Value = .object(["type": .string("integer"), "minimum": .int(0)])
        let sha256: Value = .object(["type": .string("string"), "pattern": .string("^[0-9a-f]{64}$")])
        let rootDigest: Value = .object(["type": .string("string"), "pattern": .string("^([0-9a-f]{64})?$")])
        let file = requiredObject(["path": string, "size": count, "sha256": sha256])
        let files: Value = .object(["type": .string("array"), "items": file])
        let build: Value = .object(["type": .string("integer"), "minimum": .int(1)])
        func object(_ name: String, _ title: String, _ properties: OrderedDictionary<String, Value>) -> (String, Value) {
            var all: OrderedDictionary<String, Value> = ["$schema": string]
            all.merge(properties) { first, _ in first }
            return (name, document(name, title: title, [
                "type": .string("object"), "required": strings(Array(all.keys)), "properties": .object(all),
            ]))
        }
        return [
            object("sync.head", "Where a sync starts: the build, its tree and the chain of change lists", [
                "api_version": .object(["const": .int(Int64(SyncDocuments.apiVersion))]), "build": build, "date": date, "root": sha256,
                "tree": requiredObject(["url": uri, "size": count, "sha256": sha256]),
                "changes": .object(["type": .string("array"), "items": requiredObject([
                    "build": build, "from": rootDigest, "to": sha256, "url": uri, "size": count, "sha256": sha256,
                ])]),
            ]),
            object("sync.tree", "The synced files' buckets with their digests", [
                "files": count,
                "buckets": .object(["type": .string("array"), "items": requiredObject([
                    "bucket": string, "url": uri, "files": count, "size": count, "sha256": sha256,
                ])]),
            ]),
            object("sync.bucket", "The synced files whose path's SHA-256 starts with the bucket's digits", ["bucket": string, "files": files]),
            object("sync.changes", "What one build changed in the synced files", [
                "build": build, "date": date, "from": rootDigest, "to": sha256, "changed": files,
                "removed": .object(["type": .string("array"), "items": string]),
                "buckets": .object(["type": .string("array"), "items": requiredObject(["bucket": string, "sha256": sha256])]),
            ]),
        ]
    }
}
