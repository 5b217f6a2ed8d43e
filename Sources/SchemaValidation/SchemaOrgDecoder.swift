import LocatedYAML
import SiteModel

/// Checks a kind's `schema_org:` block: a schema.org `type` and `properties`, each naming a public field or
/// derived field of the kind, `site.currency`, or a nested object of its own `type` and `properties` (with
/// `from`, one per item of a list-of-objects field, from the item's fields).
func decodeSchemaOrg(_ node: YAMLNode?, fields: [FieldSchema], derived: [String], problems: inout Problems) -> SchemaOrgMapping? {
    guard let node else { return nil }
    return SchemaOrgReader(fields: fields, derived: derived, scope: "of this kind").mapping(node, what: "'schema_org'", nested: false, problems: &problems)
}

private struct SchemaOrgReader {
    /// What the properties may name: at the top, the kind's fields and derived fields; inside `from`, the item's fields.
    let fields: [FieldSchema]
    let derived: [String]
    /// Where the names come from, for messages: "of this kind", "of 'home'".
    let scope: String

    func mapping(_ node: YAMLNode, what: String, nested: Bool, problems: inout Problems) -> SchemaOrgMapping? {
        guard let settings = MappingReader(node, what: what, problems: &problems) else { return nil }
        settings.reportUnknownKeys(known: nested ? ["type", "from", "properties"] : ["type", "properties"], what: what, problems: &problems)
        let type = settings.string("type", problems: &problems)
        if settings.value("type") == nil { problems.error(node, "missing required setting 'type' in \(what): a schema.org type") }
        if let type, let typeNode = settings.value("type"), !isSchemaOrgName(type, capitalised: true) {
            problems.error(typeNode, "'type' must be a schema.org type such as LocalBusiness or Product, not '\(shortened(type))'")
        }
        guard let propertiesNode = settings.value("properties") else {
            problems.error(node, "missing required setting 'properties' in \(what): which schema.org property each field fills")
            return nil
        }
        guard case .mapping(let pairs) = propertiesNode.content, !pairs.isEmpty else {
            let found = propertiesNode.content.isMapping ? "an empty mapping" : propertiesNode.summary
            problems.error(propertiesNode, "'properties' must map at least one schema.org property to a field, not \(found)")
            return nil
        }
        var properties: [SchemaOrgMapping.Property] = []
        for pair in pairs {
            guard isSchemaOrgName(pair.name, capitalised: false) else {
                problems.error(pair.key, "'\(shortened(pair.name))' is not a schema.org property name such as name or aggregateRating")
                continue
            }
            if let source = source(pair.value, property: pair.name, problems: &problems) {
                properties.append(SchemaOrgMapping.Property(name: pair.name, source: source))
            }
        }
        guard let type else { return nil }
        return SchemaOrgMapping(type: type, properties: properties)
    }

    private func source(_ node: YAMLNode, property: String, problems: inout Problems) -> SchemaOrgMapping.Source? {
        if case .mapping = node.content {
            return nestedObject(node, property: property, problems: &problems)
        }
        guard let name = node.scalar, !node.isNull else {
            problems.error(node, "property '\(property)' must name a field, site.currency, or be a mapping with type and properties, not \(node.summary)")
            return nil
        }
        if name == "site.currency" { return .siteCurrency }
        guard let field = fields.first(where: { $0.name == name }) else {
            if derived.contains(name) { return .field(name) }
            problems.error(node, "property '\(property)' names '\(shortened(name))', which is not a field \(scope)\(suggestion(for: name, among: fields.map(\.name) + derived))")
            return nil
        }
        if field.isPrivate {
            problems.error(node, "property '\(property)' names the private field '\(name)'; structured data is published")
            return nil
        }
        return .field(name)
    }

    private func nestedObject(_ node: YAMLNode, property: String, problems: inout Problems) -> SchemaOrgMapping.Source? {
        guard case .mapping(let pairs) = node.content else { return nil }
        guard let fromNode = pairs.first(where: { $0.name == "from" })?.value else {
            return mapping(node, what: "property '\(property)'", nested: true, problems: &problems).map { .object($0, from: nil) }
        }
        let from = fromNode.scalar ?? ""
        let itemFields: [FieldSchema]?
        switch fields.first(where: { $0.name == from }) {
        case let field? where field.isPrivate:
            problems.error(fromNode, "'from' names the private field '\(from)'; structured data is published")
            itemFields = nil
        case let field?:
            itemFields = field.type.objectFields
            if itemFields == nil { problems.error(fromNode, "'from' must name an object field or a list of objects; '\(from)' is \(typeField(field.type.name))") }
        case nil:
            problems.error(fromNode, "'from' names '\(shortened(from))', which is not a field \(scope)\(suggestion(for: from, among: fields.map(\.name)))")
            itemFields = nil
        }
        guard let itemFields else { return nil }
        let reader = SchemaOrgReader(fields: itemFields, derived: [], scope: "of '\(from)'")
        return reader.mapping(node, what: "property '\(property)'", nested: true, problems: &problems).map { .object($0, from: from) }
    }
}

/// schema.org names: types are `LocalBusiness`, properties `aggregateRating`.
private func isSchemaOrgName(_ name: String, capitalised: Bool) -> Bool {
    guard let first = name.unicodeScalars.first, name.unicodeScalars.count <= 64 else { return false }
    let firstOK = capitalised ? ("A"..."Z").contains(first) : ("a"..."z").contains(first)
    return firstOK && name.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
}

extension YAMLNode.Content {
    fileprivate var isMapping: Bool {
        if case .mapping = self { return true }
        return false
    }
}
