import LocatedYAML
import SiteModel

extension DerivedField {
    /// Numbers sort; lists of listings do not.
    var isSortable: Bool {
        if case .list = operation { return false }
        return true
    }
}

private let operations = ["count", "average", "sum", "min", "max", "list"]

/// `derived:` in a kind schema: each name maps to `{op, from, via, field, …}`. What needs other kinds'
/// schemas (does `via` point back at this kind?) is checked later by `checkDerivedFields`.
func decodeDerivedFields(_ node: YAMLNode, fields: [FieldSchema], knownKinds: [String], problems: inout Problems) -> [DerivedField] {
    guard case .mapping(let pairs) = node.content else {
        problems.error(node, "'derived' must be a mapping of field names to computations, not \(node.summary)")
        return []
    }
    var derived: [DerivedField] = []
    for pair in pairs {
        let name = pair.name
        if !isIdentifier(name) {
            problems.error(pair.key, "derived field name '\(name)' must be lowercase letters, digits and underscores, starting with a letter")
            continue
        }
        if fields.contains(where: { $0.name == name || $0.name + "_html" == name }) || ["slug", "url", "path", "kind"].contains(name) {
            problems.error(pair.key, "derived field '\(name)' has the name of a field the listing already has")
            continue
        }
        guard let settings = MappingReader(pair.value, what: "derived field '\(name)'", problems: &problems) else { continue }
        settings.reportUnknownKeys(
            known: ["op", "from", "via", "field", "scale", "sort", "label", "format", "maximum"], what: "derived field '\(name)'",
            problems: &problems)
        guard let op = settings.requiredString("op", problems: &problems), let opNode = settings.value("op"),
            let from = settings.requiredString("from", problems: &problems), let fromNode = settings.value("from"),
            let via = settings.requiredString("via", problems: &problems)
        else { continue }
        guard knownKinds.contains(from) else {
            problems.error(fromNode, "derived field '\(name)' gathers from '\(from)', which is not a kind of this site\(suggestion(for: from, among: knownKinds))")
            continue
        }
        let field = settings.string("field", problems: &problems)
        let operation: DerivedField.Operation
        switch op {
        case "count":
            operation = .count
        case "list":
            // Sort keys name the other kind's fields; checked once that kind's schema is known.
            operation = .list(sort: (settings.stringList("sort", problems: &problems) ?? []).map { text, _ in
                SortKey(field: text.hasPrefix("-") ? String(text.dropFirst()) : text, descending: text.hasPrefix("-"))
            })
        case "average", "sum", "min", "max":
            guard let field else {
                problems.error(settings.node, "derived field '\(name)' with op '\(op)' needs 'field', the number field of \(from) to use")
                continue
            }
            switch op {
            case "average": operation = .average(field: field, scale: settings.int("scale", in: 0...9, problems: &problems) ?? 1)
            case "sum": operation = .sum(field: field)
            case "min": operation = .minimum(field: field)
            default: operation = .maximum(field: field)
            }
        default:
            problems.error(opNode, "unknown op '\(op)'; use one of \(quotedList(operations))\(suggestion(for: op, among: operations))")
            continue
        }
        var format: DisplayFormat?
        if let formatName = settings.string("format", problems: &problems), let formatNode = settings.value("format") {
            format = DisplayFormat(rawValue: formatName)
            if format == nil { problems.error(formatNode, "unknown format '\(formatName)'; use one of \(quotedList(DisplayFormat.allCases.map(\.rawValue)))") }
        }
        derived.append(DerivedField(
            name: name, label: settings.string("label", problems: &problems) ?? defaultLabel(name), operation: operation,
            from: from, via: via, format: format, maximum: settings.number("maximum", problems: &problems),
            location: SourceLocation(file: problems.file, line: pair.key.line, column: pair.key.column)))
    }
    return derived
}

/// Checks what a derived field says about another kind, once every schema has been read: `via` must be
/// that kind's reference field pointing back here, and `field` and list sort keys must be its fields.
public func checkDerivedFields(_ schemas: [KindSchema]) -> [Diagnostic] {
    var problems: [Diagnostic] = []
    for schema in schemas {
        for derived in schema.derived {
            guard let source = schemas.first(where: { $0.name == derived.from }) else { continue }
            func fail(_ message: String) { problems.append(.error(at: derived.location, "derived field '\(derived.name)': \(message)")) }
            guard let via = source.field(named: derived.via), case .reference(let target) = via.type, target == schema.name else {
                fail("'via' must name a reference field of \(source.name) that points to \(schema.name), not '\(derived.via)'")
                continue
            }
            switch derived.operation {
            case .average(let name, _), .sum(let name), .minimum(let name), .maximum(let name):
                let field = source.field(named: name)
                switch field?.type {
                case .int?, .decimal?:
                    if field?.isPrivate == true { fail("'\(name)' is a private field of \(source.name)") }
                default:
                    fail("'field' must name an int or decimal field of \(source.name), not '\(name)'")
                }
            case .list(let sort):
                for key in sort where !sortableNames(source.fields).contains(key.field) {
                    fail("cannot sort by '\(key.field)', which is not a sortable field of \(source.name)")
                }
            case .count:
                break
            }
        }
    }
    return problems
}
