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

private let operations = ["count", "average", "bayesian_average", "sum", "min", "max", "list", "sum_by", "days_since", "ratio", "times", "at_least", "lookup"]
private let settingNames = ["op", "from", "via", "field", "scale", "sort", "label", "format", "maximum", "group", "numerator", "denominator", "threshold", "by",
    "prior_weight", "prior_mean"]

/// `derived:` in a kind schema: each name maps to `{op, …}`. A field may use the fields declared before it,
/// derived ones included. What needs other kinds' schemas is checked later by `checkDerivedFields`.
/// `failed`: fields whose declaration has an error, reported already: naming one is not reported again.
func decodeDerivedFields(_ node: YAMLNode, fields: [FieldSchema], failed: Set<String>, knownKinds: [String], problems: inout Problems) -> [DerivedField] {
    guard case .mapping(let pairs) = node.content else {
        problems.error(node, "'derived' must be a mapping of field names to computations, not \(node.summary)")
        return []
    }
    var derived: [DerivedField] = []
    for (index, pair) in pairs.enumerated() {
        let name = pair.name
        guard isNewDerivedName(pair, fields: fields, derived: derived, problems: &problems),
            let settings = MappingReader(pair.value, what: "derived field '\(name)'", problems: &problems)
        else { continue }
        settings.reportUnknownKeys(known: settingNames, what: "derived field '\(name)'", problems: &problems)
        guard let op = settings.requiredString("op", problems: &problems), let opNode = settings.value("op") else { continue }
        guard operations.contains(op) else {
            problems.error(opNode, "unknown op '\(op)'; use one of \(quotedList(operations))\(suggestion(for: op, among: operations))")
            continue
        }
        let reader = DerivedFieldReader(
            name: name, op: op, settings: settings, fields: fields, failed: failed, earlier: derived, later: pairs[(index + 1)...].map(\.name))
        let scale = settings.int("scale", in: 0...9, problems: &problems)
        let decoded = gatheringOperations.contains(op)
            ? reader.gathering(scale: scale, knownKinds: knownKinds, problems: &problems) : reader.onItself(scale: scale, problems: &problems)
        guard let decoded else { continue }
        let format = reader.format(problems: &problems)
        derived.append(DerivedField(
            name: name, label: settings.string("label", problems: &problems) ?? defaultLabel(name), operation: decoded.operation,
            from: decoded.from, via: decoded.via, format: format, maximum: settings.number("maximum", problems: &problems),
            location: SourceLocation(file: problems.file, line: pair.key.line, column: pair.key.column)))
    }
    return derived
}

/// Ops over the listings of another kind that refer to this one.
private let gatheringOperations = ["count", "average", "bayesian_average", "sum", "min", "max", "list", "sum_by"]

/// A derived field's name must be an identifier that no field of the listing already has.
private func isNewDerivedName(_ pair: YAMLPair, fields: [FieldSchema], derived: [DerivedField], problems: inout Problems) -> Bool {
    let name = pair.name
    if !isIdentifier(name) {
        problems.error(pair.key, "derived field name '\(name)' must be lowercase letters, digits and underscores, starting with a letter")
        return false
    }
    if fields.contains(where: { $0.name == name || $0.name + "_html" == name }) || ["slug", "url", "path", "kind", "updated"].contains(name)
        || derived.contains(where: { $0.name == name })
    {
        problems.error(pair.key, "derived field '\(name)' has the name of a field the listing already has")
        return false
    }
    return true
}

/// One derived field's settings, read into its operation.
private struct DerivedFieldReader {
    let name: String
    let op: String
    let settings: MappingReader
    let fields: [FieldSchema]
    let failed: Set<String>
    /// The derived fields declared before this one.
    let earlier: [DerivedField]
    /// The names of those declared after it, which it may not read.
    let later: [String]

    typealias Decoded = (operation: DerivedField.Operation, from: String?, via: String?)

    /// A setting the op needs.
    func required(_ key: String, problems: inout Problems) -> String? {
        guard let value = settings.string(key, problems: &problems) else {
            if settings.value(key) == nil { problems.error(settings.node, "derived field '\(name)' with op '\(op)' needs '\(key)'") }
            return nil
        }
        return value
    }

    /// A number setting the op needs.
    func requiredNumber(_ key: String, problems: inout Problems) -> Double? {
        guard let value = settings.number(key, problems: &problems) else {
            if settings.value(key) == nil { problems.error(settings.node, "derived field '\(name)' with op '\(op)' needs '\(key)'") }
            return nil
        }
        return value
    }

    /// A field of this kind (declared, or derived earlier) that `accepts`.
    func ownField(_ key: String, what: String, problems: inout Problems, accepts: (FieldType?, DerivedField?) -> Bool) -> String? {
        guard let fieldName = required(key, problems: &problems), let node = settings.value(key) else { return nil }
        if fields.contains(where: { $0.name == fieldName && $0.isPrivate }) {
            problems.error(node, "'\(key)' of derived field '\(name)' names the private field '\(fieldName)'; \(privateFieldRule(key))")
            return nil
        }
        let declared = fields.first { $0.name == fieldName }
        let derived = earlier.first { $0.name == fieldName }
        if failed.contains(fieldName) { return nil }
        if declared == nil && derived == nil && later.contains(fieldName) {
            problems.error(node, "'\(key)' of derived field '\(name)' names '\(fieldName)', which is declared after it; a derived field reads those of its kind declared before it, so move '\(name)' below '\(fieldName)'")
            return nil
        }
        guard declared != nil || derived != nil, accepts(declared?.type, derived) else {
            problems.error(node, "'\(key)' of derived field '\(name)' must name \(what) of this kind declared before it, not '\(fieldName)'")
            return nil
        }
        return fieldName
    }

    static func isNumber(_ type: FieldType?, _ earlier: DerivedField?) -> Bool {
        switch type {
        case .int?, .decimal?: return true
        default: return earlier?.isNumeric ?? false
        }
    }

    /// `count`, `average`, `sum`, `min`, `max`, `list`, `sum_by`: over the listings of `from` whose `via` points here.
    /// The other kind's field names are checked once its schema is known.
    func gathering(scale: Int?, knownKinds: [String], problems: inout Problems) -> Decoded? {
        guard let kind = required("from", problems: &problems), let fromNode = settings.value("from"),
            let via = required("via", problems: &problems)
        else { return nil }
        guard knownKinds.contains(kind) else {
            problems.error(fromNode, "derived field '\(name)' gathers from '\(kind)', which is not a kind of this site\(suggestion(for: kind, among: knownKinds))")
            return nil
        }
        switch op {
        case "count": return (.count, kind, via)
        case "list":
            let sort = (settings.stringList("sort", problems: &problems) ?? []).map { text, _ in
                SortKey(field: text.hasPrefix("-") ? String(text.dropFirst()) : text, descending: text.hasPrefix("-"))
            }
            return (.list(sort: sort), kind, via)
        case "sum_by":
            guard let group = required("group", problems: &problems), let field = required("field", problems: &problems) else { return nil }
            return (.sumBy(group: group, field: field), kind, via)
        default:
            guard let field = required("field", problems: &problems) else { return nil }
            switch op {
            case "average": return (.average(field: field, scale: scale ?? 1), kind, via)
            case "bayesian_average":
                guard let weight = requiredNumber("prior_weight", problems: &problems), let mean = requiredNumber("prior_mean", problems: &problems)
                else { return nil }
                guard weight > 0 else {
                    problems.error(settings.value("prior_weight")!, "'prior_weight' of derived field '\(name)' must be more than 0: it is how many values of 'prior_mean' each average starts with")
                    return nil
                }
                return (.bayesianAverage(field: field, scale: scale ?? 3, priorWeight: weight, priorMean: mean), kind, via)
            case "sum": return (.sum(field: field), kind, via)
            case "min": return (.minimum(field: field), kind, via)
            default: return (.maximum(field: field), kind, via)
            }
        }
    }

    /// `days_since`, `ratio`, `times`, `at_least`, `lookup`: on the listing's own fields.
    func onItself(scale: Int?, problems: inout Problems) -> Decoded? {
        switch op {
        case "days_since":
            guard let field = ownField("field", what: "a date field", problems: &problems, accepts: { type, _ in
                if case .date? = type { return true }
                return false
            }) else { return nil }
            return (.daysSince(field: field), nil, nil)
        case "ratio":
            guard let numerator = ownField("numerator", what: "a number", problems: &problems, accepts: Self.isNumber),
                let denominator = ownField("denominator", what: "a number", problems: &problems, accepts: Self.isNumber)
            else { return nil }
            return (.ratio(numerator: numerator, denominator: denominator, scale: scale ?? 2), nil, nil)
        case "times":
            guard let field = ownField("field", what: "a number", problems: &problems, accepts: Self.isNumber) else { return nil }
            guard let factor = settings.number("by", problems: &problems) else {
                if settings.value("by") == nil { problems.error(settings.node, "derived field '\(name)' with op 'times' needs 'by'") }
                return nil
            }
            return (.times(field: field, factor: factor, scale: scale ?? 2), nil, nil)
        case "at_least":
            guard let field = ownField("field", what: "a number", problems: &problems, accepts: Self.isNumber) else { return nil }
            guard let threshold = settings.number("threshold", problems: &problems) else {
                if settings.value("threshold") == nil { problems.error(settings.node, "derived field '\(name)' with op 'at_least' needs 'threshold'") }
                return nil
            }
            return (.atLeast(field: field, threshold: threshold), nil, nil)
        default:  // lookup
            guard let via = ownField("via", what: "a reference field", problems: &problems, accepts: { type, _ in
                if case .reference? = type { return true }
                return false
            }), let field = required("field", problems: &problems) else { return nil }
            return (.lookup(field: field), nil, via)
        }
    }

    /// `format`, one of `DisplayFormat`'s.
    func format(problems: inout Problems) -> DisplayFormat? {
        guard let formatName = settings.string("format", problems: &problems), let formatNode = settings.value("format") else { return nil }
        let format = DisplayFormat(rawValue: formatName)
        if format == nil { problems.error(formatNode, "unknown format '\(formatName)'; use one of \(quotedList(DisplayFormat.allCases.map(\.rawValue)))") }
        return format
    }
}

/// Why no derived field may read a private field, `via` included: what it computes is published, and even a
/// count through a private reference tells which listing that reference names.
private func privateFieldRule(_ key: String) -> String {
    let why = key == "via"
        ? "what is gathered or looked up through a private reference, even a count, would publish which listing it names"
        : "derived fields are published, so they may not read private fields"
    return "\(why); make the field public, or leave this derived field out"
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
            /// True (and reported) when `key` names a private field of `kind`.
            func isPrivate(_ key: String, _ name: String, of kind: KindSchema) -> Bool {
                guard kind.field(named: name)?.isPrivate == true else { return false }
                fail("'\(key)' names the private field '\(name)' of \(kind.name); \(privateFieldRule(key))")
                return true
            }
            if case .lookup(let field) = derived.operation {
                guard case .reference(let target)? = schema.field(named: derived.via ?? "")?.type,
                    let targetSchema = schemas.first(where: { $0.name == target }), !isPrivate("field", field, of: targetSchema)
                else { continue }
                let names = targetSchema.fields.filter { !$0.isPrivate }.map(\.name) + targetSchema.derived.map(\.name)
                if !names.contains(field) { fail("'\(field)' is not a public field of \(target)\(suggestion(for: field, among: names))") }
                continue
            }
            guard derived.operation.gathers, let source = schemas.first(where: { $0.name == derived.from }),
                !isPrivate("via", derived.via ?? "", of: source)
            else { continue }
            guard let via = source.field(named: derived.via ?? ""), case .reference(let target) = via.type, target == schema.name else {
                fail("'via' must name a reference field of \(source.name) that points to \(schema.name), not '\(derived.via ?? "")'")
                continue
            }
            switch derived.operation {
            case .average(let name, _), .bayesianAverage(let name, _, _, _), .sum(let name), .minimum(let name), .maximum(let name):
                if !isPrivate("field", name, of: source), !numbers(source).contains(name) {
                    fail("'field' must name a public number field of \(source.name), not '\(name)'")
                }
            case .sumBy(let group, let name):
                if !isPrivate("field", name, of: source), !numbers(source).contains(name) {
                    fail("'field' must name a public number field of \(source.name), not '\(name)'")
                }
                switch source.field(named: group)?.type {
                case .string?, .enumeration?: _ = isPrivate("group", group, of: source)
                default: fail("'group' must name a text or enum field of \(source.name), not '\(group)'")
                }
            case .list(let sort):
                let sortable = sortableNames(source.fields) + source.derived.filter(\.isSortable).map(\.name)
                for key in sort where !isPrivate("sort", key.field, of: source) && !sortable.contains(key.field) {
                    fail("cannot sort by '\(key.field)', which is not a sortable field of \(source.name)")
                }
            default:
                break
            }
        }
    }
    return problems + loopProblems(schemas)
}

/// Fields that read each other round a loop, at the first: each would need the next computed first.
private func loopProblems(_ schemas: [KindSchema]) -> [Diagnostic] {
    do throws(DerivedFieldOrder.Loop) {
        _ = try DerivedFieldOrder(schemas)
        return []
    } catch {
        return [loopProblem(error)]
    }
}

private func loopProblem(_ loop: DerivedFieldOrder.Loop) -> Diagnostic {
    let steps = (loop.fields + loop.fields.prefix(1)).map { "\($0.kind).\($0.field.name)" }
    let places = loop.fields.map { "\($0.kind).\($0.field.name) at \($0.field.location.file):\($0.field.location.line)" }
    return .error(
        at: loop.fields[0].field.location,
        "derived field '\(loop.fields[0].field.name)' reads itself through other derived fields (\(steps.joined(separator: " reads "))), "
            + "so none of them can be computed first; leave one of them out (\(places.joined(separator: "; ")))")
}
