import OrderedCollections
import SiteModel

/// JSON Schemas of the search index's files (SearchIndex.swift).
extension SiteRenderer {
    var searchSchemas: [(String, Value)] {
        let postings = Value.object(["type": .string("string"), "pattern": .string("^[0-9a-zA-Z_-]*$")])
        let count = Value.object(["type": .string("integer"), "minimum": .int(0)])
        let kind = requiredObject([
            "name": string, "title": string, "singular": string, "first": count, "count": count,
            "cluster": .object(["type": .list([.string("string"), .string("null")])]),
            "facets": array(requiredObject([
                "name": string, "label": string,
                "values": array(tuple([string, count, count])),
            ])),
            "range": .object(["oneOf": .list([.object(["type": .string("null")]), requiredObject(["field": string, "label": string, "file": string])])]),
            "sorts": array(requiredObject(["field": string, "label": string, "file": string])),
            "order": string,
        ])
        return [
            ("search.meta", searchDocument("search.meta", "Search index: kinds, facets, term files", [
                "version": .object(["const": .int(Int64(Self.searchIndexVersion))]), "documents": count, "cards": array(count),
                "terms": array(string), "kinds": array(kind),
            ])),
            ("search.terms", searchDocument("search.terms", "Search index: terms and their documents", [
                "terms": .object(["type": .string("object"), "additionalProperties": postings]),
            ])),
            ("search.facets", searchDocument("search.facets", "Search index: the documents of facet values", [
                "values": .object([
                    "type": .string("object"), "propertyNames": .object(["pattern": .string("^[0-9]+\\.[0-9]+\\.[0-9]+$")]),
                    "additionalProperties": postings,
                ]),
            ])),
            ("search.cards", searchDocument("search.cards", "Search index: what results show", [
                "cards": array(tuple(
                    [string, string, .object(["type": .list([.string("string"), .string("null")])]), array(string), string, string],
                    optional: [array(tuple([string, string, .object(["type": .string("object"), "additionalProperties": array(string)])]))])),
            ])),
            ("search.range", searchDocument("search.range", "Search index: a kind's range values", [
                "values": array(.object(["type": .list([.string("number"), .string("null")])])),
            ])),
            ("search.sort", searchDocument("search.sort", "Search index: a kind's order by one field", ["ranks": array(count)])),
            ("search.order", searchDocument("search.order", "Search index: where a kind's documents stand in its list", ["runs": array(postings)])),
        ]
    }

    private func searchDocument(_ name: String, _ title: String, _ properties: OrderedDictionary<String, Value>) -> Value {
        var all: OrderedDictionary<String, Value> = ["$schema": string]
        all.merge(properties) { first, _ in first }
        return document(name, title: title, [
            "type": .string("object"), "required": strings(Array(all.keys)), "properties": .object(all),
        ])
    }

    private func array(_ items: Value) -> Value { .object(["type": .string("array"), "items": items]) }

    /// An array of `items`, then, when given, of `optional` items.
    private func tuple(_ items: [Value], optional: [Value] = []) -> Value {
        .object([
            "type": .string("array"), "prefixItems": .list(items + optional), "minItems": .int(Int64(items.count)),
            "maxItems": .int(Int64(items.count + optional.count)),
        ])
    }
}
