import Foundation
import OrderedCollections
import SiteModel

/// The JSON-LD of a listing page, from its kind's `schema_org` mapping: read from the listing's enriched
/// fields, which hold no private field, and escaped so that no value can end the `<script>` holding it.
extension PageContexts {
    /// `json_ld` of a listing page: the text for `<script type="application/ld+json">`, or null when the kind maps none.
    func jsonLD(_ listing: Listing, schema: KindSchema) -> Value {
        guard let mapping = schema.schemaOrg else { return .null }
        var document: OrderedDictionary<String, Value> = ["@context": .string("https://schema.org")]
        let object = StructuredObject(site: site, fields: schema.fields).make(mapping, from: listing.fields, url: listing.fields["url"])
        document.merge(object.fields) { _, new in new }
        return .html(Self.scriptSafe(JSONWriter.bytes(.object(document)).dropLast()))
    }

    /// `<`, `>` and `&` only occur inside JSON strings, where `\u003c` means the same: so `</script>` and
    /// `<!--` in a value cannot close or comment out the script element.
    static func scriptSafe(_ json: ArraySlice<UInt8>) -> String {
        let needsEscapes = json.contains { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: "&") }
        guard needsEscapes else { return String(decoding: json, as: UTF8.self) }
        var safe: [UInt8] = []
        safe.reserveCapacity(json.count + 16)
        for byte in json {
            switch byte {
            case UInt8(ascii: "<"): safe.append(contentsOf: #"\u003c"#.utf8)
            case UInt8(ascii: ">"): safe.append(contentsOf: #"\u003e"#.utf8)
            case UInt8(ascii: "&"): safe.append(contentsOf: #"\u0026"#.utf8)
            default: safe.append(byte)
            }
        }
        return String(decoding: safe, as: UTF8.self)
    }
}

/// One schema.org object made from a mapping and the fields it reads.
private struct StructuredObject {
    let site: SiteConfig
    /// The schema of the fields read: the kind's, or a nested object's.
    let fields: [FieldSchema]

    /// The object, and whether every field it maps had a value (a nested object is left out otherwise:
    /// an `Offer` without its price or an `AggregateRating` without its value would mislead).
    func make(_ mapping: SchemaOrgMapping, from values: OrderedDictionary<String, Value>, url: Value? = nil)
        -> (fields: OrderedDictionary<String, Value>, complete: Bool)
    {
        var object: OrderedDictionary<String, Value> = ["@type": .string(mapping.type)]
        if let url, url != .null { object["url"] = url }
        var complete = true
        for property in mapping.properties {
            let value = self.value(property.source, from: values)
            if value == .null { complete = false } else { object[property.name] = value }
        }
        return (object, complete)
    }

    private func value(_ source: SchemaOrgMapping.Source, from values: OrderedDictionary<String, Value>) -> Value {
        switch source {
        case .siteCurrency:
            return .string(site.currency)
        case .field(let name):
            return published(name, values)
        case .object(let mapping, from: nil):
            let nested = make(mapping, from: values)
            return nested.complete ? .object(nested.fields) : .null
        case .object(let mapping, from: let name?):
            let itemFields = objectFields(of: name)
            let reader = StructuredObject(site: site, fields: itemFields)
            let items = (values[name]?.listValue ?? values[name].map { [$0] } ?? []).compactMap { item -> Value? in
                guard let itemValues = item.objectValue else { return nil }
                let nested = reader.make(mapping, from: itemValues)
                return nested.complete ? .object(nested.fields) : nil
            }
            if values[name]?.listValue == nil { return items.first ?? .null }
            return items.isEmpty ? .null : .list(items)
        }
    }

    /// A field's value as schema.org takes it: a Markdown field as plain text, an image or a reference as its
    /// URL, a list item by item; null for what is absent or empty.
    private func published(_ name: String, _ values: OrderedDictionary<String, Value>) -> Value {
        if case .markdown? = fields.first(where: { $0.name == name })?.type {
            return values[name + "_html"].map { .string(plainText(ofHTML: $0.text)) } ?? .null
        }
        return values[name].map(scalar) ?? .null
    }

    private func scalar(_ value: Value) -> Value {
        switch value {
        case .null, .html: return .null
        case .string(let text): return text.isEmpty ? .null : value
        case .object(let object): return object["url"] ?? .null
        case .list(let items):
            let published = items.map(scalar).filter { $0 != .null }
            return published.isEmpty ? .null : .list(published)
        default: return value
        }
    }

    private func objectFields(of name: String) -> [FieldSchema] {
        fields.first { $0.name == name }?.type.objectFields ?? []
    }
}
