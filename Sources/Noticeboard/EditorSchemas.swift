import OrderedCollections
import Rendering
import SiteLoader
import SiteModel
import SiteValidation

/// JSON Schemas (draft 2020-12) for the listing files themselves, one per kind, so editors with YAML
/// support check and complete listings as they are typed. Private fields are included: they are written
/// in listing files, only never published.
extension Noticeboard {
    public static func editorSchemas(_ options: BuildOptions) throws(BuildFailure) -> [OutputFile] {
        let site = try LoadedSite(files: SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes))
        return site.schemas.map { schema in
            var document = objectSchema(schema.fields)
            if case .object(var fields) = document {
                // A listing may set its web address with `slug:` (ListingValidator.declaredSlug).
                if case .object(var properties)? = fields["properties"] {
                    properties["slug"] = .object(["description": .string("The listing's web address, in place of its file name's"), "type": .string("string")])
                    fields["properties"] = .object(properties)
                }
                fields.updateValue(.string("https://json-schema.org/draft/2020-12/schema"), forKey: "$schema", insertingAt: 0)
                fields.updateValue(.string("\(schema.title): one \(schema.singular.lowercased()) (content/\(schema.name)/*.yaml)"), forKey: "title", insertingAt: 1)
                document = .object(fields)
            }
            return OutputFile(path: "\(schema.name).schema.json", contents: .bytes(JSONWriter.bytes(document)))
        }
    }

    private static func objectSchema(_ fields: [FieldSchema]) -> Value {
        .object([
            "type": .string("object"),
            "additionalProperties": .bool(false),
            "required": .list(fields.filter(\.required).map { .string($0.name) }),
            "properties": .object(.init(uniqueKeysWithValues: fields.map { ($0.name, fieldSchema($0)) })),
        ])
    }

    private static func fieldSchema(_ field: FieldSchema) -> Value {
        var schema: [(String, Value)] = [("description", .string(field.label + (field.isPrivate ? " (private: never published)" : "")))]
        switch field.type {
        case .string, .markdown: schema.append(("type", .string("string")))
        case .int: schema.append(("type", .string("integer")))
        case .decimal: schema.append(("type", .string("number")))
        case .bool: schema.append(("type", .string("boolean")))
        case .date: schema += [("type", .string("string")), ("pattern", .string("^[0-9]{4}-[0-9]{2}-[0-9]{2}$"))]
        case .url: schema += [("type", .string("string")), ("pattern", .string("^https?://"))]
        case .email: schema += [("type", .string("string")), ("pattern", .string("^[^@\\s]+@[^@\\s]+\\.[A-Za-z]{2,}$"))]
        case .phone: schema += [("type", .string("string")), ("pattern", .string("^\\+?[0-9 ().-]{7,}$"))]
        case .image: schema += [("type", .string("string")), ("description", .string(field.label + ": a path below content/media/"))]
        case .enumeration(let values): schema.append(("enum", .list(values.map(Value.string))))
        case .reference(let kind):
            schema += [("type", .string("string")), ("pattern", .string("^[a-z0-9]+(-[a-z0-9]+)*$")), ("description", .string(field.label + ": the slug of a \(kind) listing"))]
        case .list(let item):
            schema += [("type", .string("array")), ("items", fieldSchema(item))]
            if field.required { schema.append(("minItems", .int(1))) }
        case .object(let fields):
            guard case .object(let object) = objectSchema(fields) else { break }
            schema += object.map { ($0.key, $0.value) }
        }
        if let minimum = field.minimum { schema.append(("minimum", .number(minimum))) }
        if let maximum = field.maximum { schema.append(("maximum", .number(maximum))) }
        var ordered: [String: Value] = [:]
        var keys: [String] = []
        for (key, value) in schema {
            if ordered[key] == nil { keys.append(key) }
            ordered[key] = value
        }
        return .object(.init(uniqueKeysWithValues: keys.map { ($0, ordered[$0]!) }))
    }
}
