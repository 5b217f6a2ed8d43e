import LocatedYAML
import SiteModel

extension DerivedField {
    /// Numbers sort; lists and grouped sums do not.
    var isSortable: Bool {
        switch operation {
        case .list, .sumBy: return false
        default: return true
        }
    }

    /// True when the value is a number (lookups are taken on trust; their target is checked later).
    var isNumeric: Bool {
        switch operation {
        case .list, .sumBy, .atLeast: return false
        default: return true
        }
    }
}

private let operations = ["count", "average", "sum", "min", "max", "list", "sum_by", "days_since", "ratio", "at_least", "lookup"]
private let settingNames = ["op", "from", "via", "field", "scale", "sort", "label", "format", "maximum", "group", "numerator", "denominator", "threshold"]

/// `derived:` in a kind schema: each name maps to `{op, …}`. A field may use the fields declared before it,
/// derived ones included. What needs other kinds' schemas is checked later by `checkDerivedFields`.
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
        if fields.contains(where: { $0.name == name || $0.name + "_html" == name }) || ["slug", "url", "path", "kind", "updated"].contains(name)
            || derived.contains(where: { $0.name == name })
        {
            problems.error(pair.key, "derived field '\(name)' has the name of a field the listing already has")
            continue
        }
        guard let settings = MappingReader(pair.value, what: "derived field '\(name)'", problems: &problems) else { continue }
        settings.reportUnknownKeys(known: settingNames, what: "derived field '\(name)'", problems: &problems)
        guard let op = settings.requiredString("op", problems: &problems), let opNode = settings.value("op") else { continue }
        guard operations.contains(op) else {
            problems.error(opNode, "unknown op '\(op)'; use one of \(quotedList(operations))\(suggestion(for: op, among: operations))")
            continue
        }
        func required(_ key: String) -> String? {
            guard let value = settings.string(key, problems: &problems) else {
                if settings.value(key) == nil { problems.error(settings.node, "derived field '\(name)' with op '\(op)' needs '\(key)'") }
                return nil
            }
            return value
        }
        /// A field of this kind (declared, or derived earlier) that `accepts`.
        func ownField(_ key: String, what: String, accepts: (FieldType?, DerivedField?) -> Bool) -> String? {
            guard let fieldName = required(key), let node = settings.value(key) else { return nil }
            let declared = fields.first { $0.name == fieldName && !$0.isPrivate }
            let earlier = derived.first { $0.name == fieldName }
            guard declared != nil || earlier != nil, accepts(declared?.type, earlier) else {
                problems.error(node, "'\(key)' of derived field '\(name)' must name \(what) of this kind declared before it, not '\(fieldName)'")
                return nil
            }
            return fieldName
        }
        let isNumber: (FieldType?, DerivedField?) -> Bool = { type, earlier in
            switch type {
            case .int?, .decimal?: return true
            default: return earlier?.isNumeric ?? false
            }
        }
        let scale = settings.int("scale", in: 0...9, problems: &problems)
        var from: String?
        var via: String?
        let operation: DerivedField.Operation
        if ["count", "average", "sum", "min", "max", "list", "sum_by"].contains(op) {
            guard let kind = required("from"), let fromNode = settings.value("from"), let reference = required("via") else { continue }
            guard knownKinds.contains(kind) else {
                problems.error(fromNode, "derived field '\(name)' gathers from '\(kind)', which is not a kind of this site\(suggestion(for: kind, among: knownKinds))")
                continue
            }
            from = kind
            via = reference
            // The other kind's field names are checked once its schema is known.
            switch op {
            case "count": operation = .count
            case "list":
                operation = .list(sort: (settings.stringList("sort", problems: &problems) ?? []).map { text, _ in
                    SortKey(field: text.hasPrefix("-") ? String(text.dropFirst()) : text, descending: text.hasPrefix("-"))
                })
            case "sum_by":
                guard let group = required("group"), let field = required("field") else { continue }
                operation = .sumBy(group: group, field: field)
            default:
                guard let field = required("field") else { continue }
                switch op {
                case "average": operation = .average(field: field, scale: scale ?? 1)
                case "sum": operation = .sum(field: field)
                case "min": operation = .minimum(field: field)
                default: operation = .maximum(field: field)
                }
            }
        } else {
            switch op {
            case "days_since":
                guard let field = ownField("field", what: "a date field", accepts: { type, _ in
                    if case .date? = type { return true }
                    return false
                }) else { continue }
                operation = .daysSince(field: field)
            case "ratio":
                guard let numerator = ownField("numerator", what: "a number", accepts: isNumber),
                    let denominator = ownField("denominator", what: "a number", accepts: isNumber)
                else { continue }
                operation = .ratio(numerator: numerator, denominator: denominator, scale: scale ?? 2)
            case "at_least":
                guard let field = ownField("field", what: "a number", accepts: isNumber) else { continue }
                guard let threshold = settings.number("threshold", problems: &problems) else {
                    if settings.value("threshold") == nil { problems.error(settings.node, "derived field '\(name)' with op 'at_least' needs 'threshold'") }
                    continue
                }
                operation = .atLeast(field: field, threshold: threshold)
            default:  // lookup
                guard let reference = ownField("via", what: "a reference field", accepts: { type, _ in
                    if case .reference? = type { return true }
                    return false
                }), let field = required("field") else { continue }
                via = reference
                operation = .lookup(field: field)
            }
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

/// Checks what derived fields say about other kinds, once every schema has been read: `via` must be the
/// other kind's reference field pointing back here (or, for `lookup`, this kind's reference field), and the
/// fields named must exist there with the right type.
public func checkDerivedFields(_ schemas: [KindSchema]) -> [Diagnostic] {
    var problems: [Diagnostic] = []
    func numbers(_ schema: KindSchema) -> [String] {
        schema.fields.filter { field in
            switch field.type {
            case .int, .decimal: return !field.isPrivate
            default: return false
            }
        }.map(\.name) + schema.derived.filter(\.isNumeric).map(\.name)
    }
    for schema in schemas {
        for derived in schema.derived {
            func fail(_ message: String) { problems.append(.error(at: derived.location, "derived field '\(derived.name)': \(message)")) }
            if case .lookup(let field) = derived.operation {
                guard case .reference(let target)? = schema.field(named: derived.via ?? "")?.type,
                    let targetSchema = schemas.first(where: { $0.name == target })
                else { continue }
                let names = targetSchema.fields.filter { !$0.isPrivate }.map(\.name) + targetSchema.derived.map(\.name)
                if !names.contains(field) { fail("'\(field)' is not a public field of \(target)\(suggestion(for: field, among: names))") }
                continue
            }
            guard derived.operation.gathers, let source = schemas.first(where: { $0.name == derived.from }) else { continue }
            guard let via = source.field(named: derived.via ?? ""), case .reference(let target) = via.type, target == schema.name else {
                fail("'via' must name a reference field of \(source.name) that points to \(schema.name), not '\(derived.via ?? "")'")
                continue
            }
            switch derived.operation {
            case .average(let name, _), .sum(let name), .minimum(let name), .maximum(let name):
                if !numbers(source).contains(name) { fail("'field' must name a public number field of \(source.name), not '\(name)'") }
            case .sumBy(let group, let name):
                if !numbers(source).contains(name) { fail("'field' must name a public number field of \(source.name), not '\(name)'") }
                let groupField = source.field(named: group)
                switch groupField?.type {
                case .string?, .enumeration?: if groupField?.isPrivate == true { fail("'group' names the private field '\(group)'") }
                default: fail("'group' must name a text or enum field of \(source.name), not '\(group)'")
                }
            case .list(let sort):
                let sortable = sortableNames(source.fields) + source.derived.filter(\.isSortable).map(\.name)
                for key in sort where !sortable.contains(key.field) {
                    fail("cannot sort by '\(key.field)', which is not a sortable field of \(source.name)")
                }
            default:
                break
            }
        }
    }
    return problems
}
