import LocatedYAML
import Markdown
import SiteModel

/// Checks a kind's schema file (`content/schemas/<kind>.yaml`) and builds the kind's schema from it.
/// `reservedFacetNames`: names no facet may have, each with why; the site's are `Outputs.reservedFacetNames`.
public func decodeKindSchema(_ root: YAMLNode?, kind: String, file: String, knownKinds: [String], reservedFacetNames: [String: String]) -> (KindSchema?, [Diagnostic]) {
    var problems = Problems(file: file)
    guard let root else {
        return (nil, [.error(at: SourceLocation(file: file), "schema is empty; it needs at least title_field and fields")])
    }
    guard let settings = MappingReader(root, what: "a kind schema", problems: &problems) else { return (nil, problems.list) }
    settings.reportUnknownKeys(
        known: [
            "title", "singular", "description", "title_field", "date_field", "entries_field", "sort", "fields", "derived",
            "facets", "pages", "browse", "daily", "feeds", "geo", "search_range", "entry_sort", "schema_org", "card",
        ],
        what: "a kind schema", problems: &problems)
    let reader = KindSchemaReader(settings, root: root, knownKinds: knownKinds, problems: &problems)
    let fields = reader.fields
    let titleField = reader.topField("title_field", what: "a string field", problems: &problems) {
        if case .string = $0 { return true }
        return false
    }
    if settings.value("title_field") == nil { problems.error(root, "missing required setting 'title_field'") }
    let dateField = reader.topField("date_field", what: "a date field", problems: &problems) {
        if case .date = $0 { return true }
        return false
    }
    let entriesField = reader.topField("entries_field", what: "a list of objects", problems: &problems) {
        if case .list(let item) = $0, case .object = item.type { return true }
        return false
    }
    var derived: [DerivedField] = []
    if let derivedNode = settings.value("derived") {
        derived = decodeDerivedFields(derivedNode, fields: fields, failed: reader.failed, knownKinds: knownKinds, problems: &problems)
    }
    let sort = decodeSortKeys(
        settings, key: "sort", sortable: sortableNames(fields) + derived.filter(\.isSortable).map(\.name), failed: reader.failed,
        problems: &problems)
    let entryFields = reader.entryFields(of: entriesField)
    let entrySort = decodeSortKeys(settings, key: "entry_sort", sortable: sortableNames(entryFields), problems: &problems)
    let facets = reader.facets(entryFields: entryFields, reserved: reservedFacetNames, kind: kind, problems: &problems)
    let feeds = reader.feeds(problems: &problems)
    let daily = reader.daily(problems: &problems)
    let geo = reader.geo(problems: &problems)
    let searchRange = reader.topField("search_range", what: "an int or decimal field", problems: &problems) {
        switch $0 {
        case .int, .decimal: return true
        default: return false
        }
    }
    let schemaOrg = decodeSchemaOrg(settings.value("schema_org"), fields: fields, derived: derived.map(\.name), problems: &problems)

    let card = settings.value("card").flatMap { decodeCard($0, fields: fields, derived: derived, failed: reader.failed, problems: &problems) }

    let title = settings.string("title", problems: &problems) ?? kind.prefix(1).uppercased() + kind.dropFirst()
    guard !problems.hasErrors, let titleField else { return (nil, problems.list) }
    return (KindSchema(
        name: kind, title: title, singular: settings.string("singular", problems: &problems) ?? title,
        description: settings.string("description", problems: &problems) ?? "", titleField: titleField,
        dateField: dateField, entriesField: entriesField, entrySort: entrySort, sort: sort,
        fields: geo.map { boundedCoordinates(fields, $0) } ?? fields, derived: derived, facets: facets,
        hasPages: settings.bool("pages", problems: &problems) ?? true, browsable: reader.browsable(problems: &problems), daily: daily, feeds: feeds, geo: geo,
        searchRange: searchRange, schemaOrg: schemaOrg, card: card, file: file), problems.list)
}

/// A kind schema's settings, with its fields decoded: the settings that name fields are read against them.
private struct KindSchemaReader {
    let settings: MappingReader
    let fields: [FieldSchema]
    /// Names declared under `fields`, even those whose declaration has an error (reported already).
    let declared: [String]

    init(_ settings: MappingReader, root: YAMLNode, knownKinds: [String], problems: inout Problems) {
        self.settings = settings
        if let fieldsNode = settings.value("fields") {
            let faceted = FacetedFields(facetsNode: settings.value("facets"), fieldsNode: fieldsNode, entriesField: settings.value("entries_field")?.scalar)
            fields = decodeFields(fieldsNode, knownKinds: knownKinds, topLevel: true, faceted: faceted, problems: &problems)
        } else {
            fields = []
            problems.error(root, "missing required setting 'fields'")
        }
        if case .mapping(let pairs)? = settings.value("fields")?.content { declared = pairs.map(\.name) } else { declared = [] }
    }

    /// Fields whose declaration failed: they are not reported again where they are named.
    var failed: Set<String> { Set(declared).subtracting(fields.map(\.name)) }

    /// A setting that names one of the kind's public fields, of a type that `accepts`.
    func topField(_ key: String, what: String, problems: inout Problems, accepts: (FieldType) -> Bool) -> String? {
        guard let name = settings.string(key, problems: &problems), let node = settings.value(key) else { return nil }
        guard let field = fields.first(where: { $0.name == name }) else {
            if !declared.contains(name), settings.value("fields") != nil {
                problems.error(node, "'\(key)' names '\(name)', which is not a field of this kind\(suggestion(for: name, among: declared))")
            }
            return nil
        }
        if !accepts(field.type) { problems.error(node, "'\(key)' must name \(what); '\(name)' is \(typeField(field.type.name))") }
        if field.isPrivate { problems.error(node, "'\(key)' cannot name the private field '\(name)'") }
        return name
    }

    /// A collection kind's entry fields, which its facets and entry order may also name.
    func entryFields(of entriesField: String?) -> [FieldSchema] {
        guard let entriesField, case .list(let item)? = fields.first(where: { $0.name == entriesField })?.type,
            case .object(let itemFields) = item.type
        else { return [] }
        return itemFields
    }

    /// `reserved`: names no facet may have, each with why (`<kind>` in it stands for the `kind`'s name).
    func facets(entryFields: [FieldSchema], reserved: [String: String], kind: String, problems: inout Problems) -> [String] {
        var facets: [String] = []
        for (name, node) in settings.stringList("facets", problems: &problems) ?? [] {
            if let why = reserved[name] {
                problems.error(node, "facet '\(name)' cannot have that name: \(why.replacingOccurrences(of: "<kind>", with: kind)); choose another")
                continue
            }
            let source = FacetSource(
                facet: name, isOwnField: { name in fields.contains { $0.name == name } }, isEntryField: { name in entryFields.contains { $0.name == name } })
            guard let source, let field = (source == .listing ? fields : entryFields).first(where: { $0.name == name }) else {
                if failed.contains(name) { continue }
                problems.error(node, "facet '\(name)' is not a field of this kind\(suggestion(for: name, among: (fields + entryFields).map(\.name)))")
                continue
            }
            if field.isPrivate { problems.error(node, "facet '\(name)' is private; facets are published") }
            if let tooLong = Slug.tooLong("the facet's name", slug: name) { problems.error(node, tooLong) }
            if !isFacetable(field.type) {
                problems.error(node, "facet '\(name)' must be a string, enum, bool or reference field, or a list of them; it is \(typeField(field.type.name))")
            }
            facets.append(name)
        }
        return facets
    }

    func feeds(problems: inout Problems) -> [FeedFormat] {
        let dateFieldSet = settings.value("date_field") != nil
        var feeds: [FeedFormat] = []
        for (name, node) in settings.stringList("feeds", problems: &problems) ?? [] {
            guard let format = FeedFormat(rawValue: name) else {
                problems.error(node, "unknown feed format '\(name)'; use \(quotedList(FeedFormat.allCases.map(\.rawValue)))")
                continue
            }
            if !dateFieldSet { problems.error(node, "feeds list the newest listings first, so the kind needs a date_field") }
            if case .scalar("false", _)? = settings.value("pages")?.content {
                problems.error(node, "a feed links each entry to its page, and this kind has 'pages: false'; leave out 'feeds' or the 'pages' setting")
            }
            feeds.append(format)
        }
        return feeds
    }

    /// `browse: false`, for a kind with pages that visitors are not offered; a kind without pages has none.
    func browsable(problems: inout Problems) -> Bool {
        guard let browse = settings.bool("browse", problems: &problems) else { return true }
        if case .scalar("false", _)? = settings.value("pages")?.content, let node = settings.value("browse") {
            problems.error(node, "a kind with 'pages: false' has no pages to browse; leave out 'browse'")
        }
        return browse
    }

    /// `daily: true`, or `daily: {days: N}`.
    func daily(problems: inout Problems) -> DailyPick? {
        guard let dailyNode = settings.value("daily") else { return nil }
        if case .scalar("true", .plain) = dailyNode.content { return DailyPick(days: 366) }
        guard let dailySettings = MappingReader(dailyNode, what: "'daily'", problems: &problems) else { return nil }
        dailySettings.reportUnknownKeys(known: ["days"], what: "'daily'", problems: &problems)
        return DailyPick(days: dailySettings.int("days", in: 1...DailyPick.mostDays, problems: &problems) ?? 366)
    }

    /// Whether the schema writes a `scale` for the field `name`.
    private func setsScale(_ name: String) -> Bool {
        guard case .mapping(let fields)? = settings.value("fields")?.content,
            case .mapping(let fieldSettings)? = fields.first(where: { $0.name == name })?.value.content
        else { return false }
        return fieldSettings.contains { $0.name == "scale" }
    }

    /// `geo: {lat, lon}`: two public decimal fields.
    func geo(problems: inout Problems) -> GeoFields? {
        guard let geoNode = settings.value("geo"), let geoSettings = MappingReader(geoNode, what: "'geo'", problems: &problems) else { return nil }
        geoSettings.reportUnknownKeys(known: ["lat", "lon"], what: "'geo'", problems: &problems)
        let names = ["lat", "lon"].map { key -> String? in
            guard let name = geoSettings.requiredString(key, problems: &problems), let node = geoSettings.value(key) else { return nil }
            guard let field = fields.first(where: { $0.name == name }), case .decimal(let scale) = field.type, !field.isPrivate else {
                problems.error(node, "'geo.\(key)' must name a public decimal field of this kind, not '\(name)'")
                return nil
            }
            // A degree is 111 km at most; a value is rounded by up to half its last place. A scale written out is
            // the site's choice: a place that is someone's home may well be published to the nearest 100 m.
            let roundedBy = 111_320 * 0.5 / decimalUnit(places: scale)
            if roundedBy > 10, !setsScale(name) {
                problems.warning(node, """
                    '\(name)' keeps a decimal's default \(scale) places, so a place is moved by up to \(Int(roundedBy)) m; give it \
                    'scale: 5' (about 1 m), or 'scale: 3' (about 100 m) for a place that is someone's home
                    """)
            }
            return name
        }
        guard let lat = names[0], let lon = names[1] else { return nil }
        return GeoFields(latitude: lat, longitude: lon)
    }
}

/// A place's latitude lies within ±90 and its longitude within ±180 (RFC 7946's GeoJSON, and any map), within
/// whatever narrower bounds the schema gives them.
private func boundedCoordinates(_ fields: [FieldSchema], _ geo: GeoFields) -> [FieldSchema] {
    fields.map { field in
        guard let limit: Double = field.name == geo.latitude ? 90 : field.name == geo.longitude ? 180 : nil else { return field }
        var bounded = field
        bounded.minimum = max(field.minimum ?? -limit, -limit)
        bounded.maximum = min(field.maximum ?? limit, limit)
        return bounded
    }
}

func sortableNames(_ fields: [FieldSchema]) -> [String] {
    fields.filter { field in
        switch field.type {
        case .list, .object, .markdown: return false
        default: return !field.isPrivate
        }
    }.map(\.name)
}

/// `sort: [-listed, title]`: names from `sortable`, each optionally prefixed with `-` for descending.
func decodeSortKeys(_ settings: MappingReader, key: String, sortable: [String], failed: Set<String> = [], problems: inout Problems) -> [SortKey] {
    var keys: [SortKey] = []
    for (text, node) in settings.stringList(key, problems: &problems) ?? [] {
        let descending = text.hasPrefix("-")
        let name = descending ? String(text.dropFirst()) : text
        guard sortable.contains(name) else {
            if failed.contains(name) { continue }
            let hint = suggestion(for: name, among: sortable)
            problems.error(node, "cannot sort by '\(name)'" + (hint.isEmpty ? "; sortable fields are \(quotedList(sortable))" : hint))
            continue
        }
        // A later key only settles ties of the ones before it, and the search index keeps one order a field.
        guard !keys.contains(where: { $0.field == name }) else {
            problems.error(node, "'\(key)' names '\(name)' twice; name each field once, as '\(name)' (ascending) or '-\(name)' (descending)")
            continue
        }
        keys.append(SortKey(field: name, descending: descending))
    }
    return keys
}

private func isFacetable(_ type: FieldType) -> Bool {
    switch type {
    case .string, .enumeration, .bool, .reference: return true
    case .list(let item): return isFacetable(item.type)
    default: return false
    }
}

/// "an int field", "a string field": a type's name with its article, for messages ("a url field": `url` is
/// said "you-are-ell").
func typeField(_ typeName: String) -> String {
    ("aeio".contains(typeName.first ?? "x") ? "an " : "a ") + typeName + " field"
}

/// Which fields of one level of a schema are facets, and of the levels below it, found before the fields are
/// decoded so that a facet's default is checked once, as a facet's value. `facets:` names the kind's own
/// fields and its collection's entry fields; problems with the list itself are reported when the facets are
/// read (`KindSchemaReader.facets`).
private struct FacetedFields {
    var names: Set<String>
    /// By field name, the facets among that field's own fields (an object's, or its list's items').
    var inside: [String: FacetedFields] = [:]

    func within(_ field: String) -> FacetedFields { inside[field] ?? FacetedFields(names: []) }

    /// Each name in `facets:` as `FacetSource` places it; one that names no field is reported with the facets.
    init(facetsNode: YAMLNode?, fieldsNode: YAMLNode, entriesField: String?) {
        guard case .sequence(let items)? = facetsNode?.content else {
            self.init(names: [])
            return
        }
        let own: Set<String> = if case .mapping(let pairs) = fieldsNode.content { Set(pairs.map(\.name)) } else { [] }
        var sources: [FacetSource: Set<String>] = [:]
        for name in items.compactMap(\.scalar) {
            guard let source = FacetSource(facet: name, isOwnField: own.contains, isEntryField: { _ in entriesField != nil }) else { continue }
            sources[source, default: []].insert(name)
        }
        self.init(names: sources[.listing] ?? [])
        if let entriesField { inside[entriesField] = FacetedFields(names: sources[.entries] ?? []) }
    }

    init(names: Set<String>, inside: [String: FacetedFields] = [:]) {
        self.names = names
        self.inside = inside
    }
}

/// Names the pipeline adds to every listing; a field may not take them.
private let reservedFieldNames: Set<String> = ["slug", "url", "path", "kind", "updated"]

private func decodeFields(_ node: YAMLNode, knownKinds: [String], topLevel: Bool, faceted: FacetedFields, problems: inout Problems) -> [FieldSchema] {
    guard case .mapping(let pairs) = node.content else {
        problems.error(node, "'fields' must be a mapping of field names to field types, not \(node.summary)")
        return []
    }
    var fields: [FieldSchema] = []
    for pair in pairs {
        let name = pair.name
        if !isIdentifier(name) {
            problems.error(pair.key, "field name '\(name)' must be lowercase letters, digits and underscores, starting with a letter")
            continue
        }
        if topLevel && reservedFieldNames.contains(name) {
            problems.error(pair.key, "field name '\(name)' is reserved; every listing already has it")
            continue
        }
        if let field = decodeField(name: name, pair.value, knownKinds: knownKinds, faceted: faceted, problems: &problems) { fields.append(field) }
    }
    // A markdown field `bio` gains `bio_html`; no other field may be called that.
    for field in fields {
        if case .markdown = field.type, let clash = pairs.first(where: { $0.name == field.name + "_html" }) {
            problems.error(clash.key, "field name '\(clash.name)' clashes with the HTML of markdown field '\(field.name)'")
        }
    }
    return fields
}

private let fieldSettings = [
    "type", "label", "required", "default", "private", "values", "of", "fields", "to", "minimum", "maximum", "format", "scale", "placeholders",
]

/// `faceted`: the facets among the fields of the level `name` is at.
private func decodeField(name: String, _ node: YAMLNode, knownKinds: [String], faceted: FacetedFields, problems: inout Problems) -> FieldSchema? {
    // `name: string` is short for `name: {type: string}`.
    if let typeName = node.scalar, !node.isNull {
        guard let type = simpleType(typeName) else {
            problems.error(node, "unknown field type '\(typeName)'\(suggestion(for: typeName, among: allTypeNames)); enum, list, object and reference need the long form")
            return nil
        }
        return FieldSchema(name: name, type: type, label: defaultLabel(name))
    }
    guard let settings = MappingReader(node, what: "field '\(name)'", problems: &problems) else { return nil }
    settings.reportUnknownKeys(known: fieldSettings, what: "field '\(name)'", problems: &problems)
    guard let typeName = settings.requiredString("type", problems: &problems), let typeNode = settings.value("type") else { return nil }
    guard let type = decodeFieldType(
        typeName, typeNode, of: name, node, settings, knownKinds: knownKinds, faceted: faceted.within(name), problems: &problems)
    else { return nil }
    for (key, allowed) in [("values", "enum"), ("of", "list"), ("fields", "object"), ("to", "reference"), ("scale", "decimal")]
    where settings.value(key) != nil && typeName != allowed {
        problems.error(settings.value(key)!, "'\(key)' applies only to \(allowed) fields, and '\(name)' is \(typeField(typeName))")
    }
    var field = decodeFieldSettings(name: name, type: type, typeName: typeName, settings, problems: &problems)
    if let defaultNode = settings.value("default") {
        decodeDefault(defaultNode, of: &field, isFacet: faceted.names.contains(name), problems: &problems)
    }
    return field
}

/// A long-form field's `type`, with the settings that type needs (`values`, `of`, `fields`, `to`, `scale`).
/// `faceted`: the facets among an object's fields, or its list's items' fields.
private func decodeFieldType(
    _ typeName: String, _ typeNode: YAMLNode, of name: String, _ node: YAMLNode, _ settings: MappingReader, knownKinds: [String],
    faceted: FacetedFields, problems: inout Problems
) -> FieldType? {
    switch typeName {
    case "enum":
        return decodeEnumValues(of: name, node, settings, problems: &problems)
    case "list":
        guard let itemNode = settings.value("of") else {
            problems.error(node, "list field '\(name)' needs 'of', the type of its items")
            return nil
        }
        let items = FacetedFields(names: [], inside: [name: faceted])
        guard let item = decodeField(name: name, itemNode, knownKinds: knownKinds, faceted: items, problems: &problems) else { return nil }
        // Privacy is the list's: its items' own `private` was never read, so their values were published.
        if item.isPrivate, case .mapping(let pairs) = itemNode.content, let privateNode = pairs.first(where: { $0.name == "private" })?.key {
            problems.error(privateNode, "'private' applies to the list field '\(name)' as a whole, not to its items; write 'private: true' beside its 'type: list'")
            return nil
        }
        if case .list = item.type {
            problems.error(itemNode, "list field '\(name)' cannot hold lists directly; use a list of objects")
            return nil
        }
        return .list(of: item)
    case "object":
        guard let fieldsNode = settings.value("fields") else {
            problems.error(node, "object field '\(name)' needs 'fields'")
            return nil
        }
        return .object(decodeFields(fieldsNode, knownKinds: knownKinds, topLevel: false, faceted: faceted, problems: &problems))
    case "reference":
        guard let target = settings.string("to", problems: &problems), let targetNode = settings.value("to") else {
            if settings.value("to") == nil { problems.error(node, "reference field '\(name)' needs 'to', the kind it points at") }
            return nil
        }
        guard knownKinds.contains(target) else {
            problems.error(targetNode, "reference field '\(name)' points to '\(target)', which is not a kind of this site\(suggestion(for: target, among: knownKinds))")
            return nil
        }
        return .reference(kind: target)
    case "decimal":
        return .decimal(scale: settings.int("scale", in: 0...9, problems: &problems) ?? 2)
    default:
        guard let simple = simpleType(typeName) else {
            let hint = suggestion(for: typeName, among: allTypeNames)
            problems.error(typeNode, "unknown field type '\(typeName)'\(hint.isEmpty ? "; the types are " + allTypeNames.joined(separator: ", ") : hint)")
            return nil
        }
        return simple
    }
}

/// An enum field's `values`: each with text, none listed twice.
private func decodeEnumValues(of name: String, _ node: YAMLNode, _ settings: MappingReader, problems: inout Problems) -> FieldType? {
    guard let values = settings.stringList("values", problems: &problems) else {
        if settings.value("values") == nil { problems.error(node, "enum field '\(name)' needs 'values', the list of allowed values") }
        return nil
    }
    guard !values.isEmpty else {
        problems.error(settings.value("values")!, "enum field '\(name)' needs at least one value")
        return nil
    }
    for (value, valueNode) in values where isBlank(value) {
        problems.error(valueNode, "an enum value of '\(name)' is empty; every value needs text, which pages and facet links show")
    }
    var seen = Set<String>(), repeated = Set<String>()
    for (value, valueNode) in values where !seen.insert(value).inserted && repeated.insert(value).inserted {
        problems.error(valueNode, "'\(value)' is listed more than once in the values of enum field '\(name)'")
    }
    return .enumeration(values.map(\.0))
}

/// 10 to the power `places`: a decimal's units in one.
private func decimalUnit(places: Int) -> Double {
    (0..<places).reduce(1.0) { power, _ in power * 10 }
}

/// A bound with more decimal places than the field keeps (`maximum: 9.995` on a decimal kept to 2) would let
/// through a value that is then kept past it (9.995 is kept as 10.00); so a bound is one of the values the
/// field can hold.
private func checkBoundsFit(_ field: FieldSchema, _ settings: MappingReader, problems: inout Problems) {
    let places = if case .decimal(let scale) = field.type { scale } else { 0 }
    let unit = decimalUnit(places: places)
    for (key, bound) in [("minimum", field.minimum), ("maximum", field.maximum)] {
        guard let bound, let node = settings.value(key) else { continue }
        let scaled = bound * unit
        guard abs(scaled - scaled.rounded()) > 1e-9 * max(1, abs(scaled)), abs(scaled) < 9e15 else { continue }
        let (below, above) = (FixedDecimal(units: Int64(scaled.rounded(.down)), scale: places), FixedDecimal(units: Int64(scaled.rounded(.up)), scale: places))
        let kept = places == 0 ? "holds whole numbers" : "keeps \(places) decimal place\(places == 1 ? "" : "s")"
        problems.error(node, "'\(field.name)' \(kept), so its \(key) \(node.scalar ?? "") lies between two values it can hold; give \(below) or \(above)")
    }
}

/// The settings every type may have: label, required, private, and for numbers their bounds and format, for
/// text its placeholders.
private func decodeFieldSettings(name: String, type: FieldType, typeName: String, _ settings: MappingReader, problems: inout Problems) -> FieldSchema {
    var field = FieldSchema(name: name, type: type, label: settings.string("label", problems: &problems) ?? defaultLabel(name))
    field.required = settings.bool("required", problems: &problems) ?? false
    field.isPrivate = settings.bool("private", problems: &problems) ?? false
    field.minimum = settings.number("minimum", problems: &problems)
    field.maximum = settings.number("maximum", problems: &problems)
    let isNumber: Bool
    switch type {
    case .int, .decimal: isNumber = true
    default: isNumber = false
    }
    for key in ["minimum", "maximum", "format"] where settings.value(key) != nil && !isNumber {
        problems.error(settings.value(key)!, "'\(key)' applies only to int and decimal fields, and '\(name)' is \(typeField(typeName))")
    }
    if isNumber, let minimum = field.minimum, let maximum = field.maximum, minimum > maximum, let node = settings.value("maximum") {
        problems.error(node, "'\(name)' has a maximum below its minimum, so no value could be given")
    }
    if isNumber {
        checkBoundsFit(field, settings, problems: &problems)
    }
    if let formatName = settings.string("format", problems: &problems), let formatNode = settings.value("format") {
        if let format = DisplayFormat(rawValue: formatName) {
            field.format = format
        } else {
            problems.error(formatNode, "unknown format '\(formatName)'; use one of \(quotedList(DisplayFormat.allCases.map(\.rawValue)))")
        }
    }
    if let names = settings.stringList("placeholders", problems: &problems), let node = settings.value("placeholders") {
        switch type {
        case .string, .markdown: field.placeholders = names.map(\.0)
        default: problems.error(node, "'placeholders' applies only to string and markdown fields, and '\(name)' is \(typeField(typeName))")
        }
    }
    return field
}

/// `default`: checked as a value of the field (as a facet's, when `isFacet`: a list of them names each value
/// once), each problem reported where it lies in the default, and never used when the field is required. The
/// listings it refers to are kept for the site to check once every kind's slugs are known.
private func decodeDefault(_ defaultNode: YAMLNode, of field: inout FieldSchema, isFacet: Bool, problems: inout Problems) {
    if field.required { problems.warning(defaultNode, "field '\(field.name)' is required, so its default is never used") }
    var defaultProblems = Problems(file: problems.file)
    var found = Findings()
    var check = field
    check.required = true
    let value = ValueChecker(mediaFiles: [], markdown: MarkdownCheck(limits: .standard))
        .check(defaultNode, as: check, path: [field.name], problems: &defaultProblems, found: &found, facet: isFacet)
    for diagnostic in defaultProblems.list {
        let at = diagnostic.location ?? SourceLocation(file: problems.file, line: defaultNode.line, column: defaultNode.column)
        problems.error(at: at, "default of '\(field.name)' is not valid: \(diagnostic.message)")
    }
    field.defaultValue = defaultProblems.hasErrors ? nil : value
    field.defaultReferences = found.references
}

private let allTypeNames = ["string", "markdown", "int", "decimal", "bool", "date", "url", "email", "phone", "image", "enum", "list", "object", "reference"]

private func simpleType(_ name: String) -> FieldType? {
    switch name {
    case "string": return .string
    case "markdown": return .markdown
    case "int": return .int
    case "decimal": return .decimal(scale: 2)
    case "bool": return .bool
    case "date": return .date
    case "url": return .url
    case "email": return .email
    case "phone": return .phone
    case "image": return .image
    default: return nil
    }
}

/// `hourly_rate` → "Hourly rate".
func defaultLabel(_ name: String) -> String {
    let words = name.replacingOccurrences(of: "_", with: " ")
    return words.prefix(1).uppercased() + words.dropFirst()
}
