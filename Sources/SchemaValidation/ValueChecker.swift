import LocatedYAML
import Markdown
import OrderedCollections
import SiteModel

/// What a listing (or a schema's default) points at: other listings, and files below `content/media/`.
struct Findings {
    var references: [Reference] = []
    var media: [MediaUse] = []
}

/// Checks a YAML node against a field's type and turns it into a typed value.
/// Private fields are checked like any other and then left out of the result.
struct ValueChecker {
    /// Files below `content/media/`, relative to it; image fields must name one of them.
    let mediaFiles: Set<String>
    /// The site's limits on what a Markdown field may render to.
    let markdown: MarkdownCheck
    /// Fields whose values become parts of web addresses (facets), of the listing and of a collection's
    /// entries (`entriesField`): each value's slug is checked against `Slug.maxBytes`.
    var facetFields: Set<String> = []
    var entryFacetFields: Set<String> = []
    var entriesField: String? = nil

    /// The fields of a mapping, in schema order; nil when the node is not a mapping.
    /// `hiding`: the node is (inside) a private field, whose value no message may quote: diagnostics reach
    /// terminals, CI logs and the preview's error overlay.
    func checkFields(
        _ node: YAMLNode, fields: [FieldSchema], path: [String], problems: inout Problems, found: inout Findings, hiding: Bool = false
    ) -> OrderedDictionary<String, Value>? {
        guard case .mapping(let pairs) = node.content else {
            let what = path.isEmpty ? "a listing" : "'\(display(path))'"
            problems.error(node, "\(what) must be a mapping of field names to values, not \(summary(node, hiding: hiding))")
            return nil
        }
        let known = fields.map(\.name)
        for pair in pairs where !known.contains(pair.name) {
            problems.error(pair.key, "unknown field '\(display(path + [shortened(pair.name)]))'\(suggestion(for: pair.name, among: known))")
        }
        var values = OrderedDictionary<String, Value>()
        values.reserveCapacity(fields.count)
        for field in fields {
            let fieldPath = path + [field.name]
            guard let pair = pairs.first(where: { $0.name == field.name }), !pair.value.isNull else {
                if field.required {
                    let at = pairs.first(where: { $0.name == field.name })?.key ?? node
                    problems.error(at, "missing required field '\(display(fieldPath))'")
                } else if let fallback = field.defaultValue, !field.isPrivate {
                    values[field.name] = fallback
                }
                continue
            }
            if field.isPrivate {
                // Checked, and its references checked too, but its value and any media it names never go further.
                var hidden = Findings()
                _ = check(pair.value, as: field, path: fieldPath, problems: &problems, found: &hidden, hiding: true)
                found.references += hidden.references.map { reference in
                    var reference = reference
                    reference.isPrivate = true
                    return reference
                }
            } else if let value = check(
                pair.value, as: field, path: fieldPath, problems: &problems, found: &found, hiding: hiding, facet: isFacet(field.name, in: path)
            ) {
                values[field.name] = value
            }
        }
        return values
    }

    func check(
        _ node: YAMLNode, as field: FieldSchema, path: [String], problems: inout Problems, found: inout Findings, hiding: Bool = false,
        facet: Bool = false
    ) -> Value? {
        let name = display(path)
        if node.isNull {
            problems.error(node, "'\(name)' needs a value")
            return nil
        }
        switch field.type {
        case .list(let item):
            guard case .sequence(let items) = node.content else {
                problems.error(node, "'\(name)' must be a list, not \(summary(node, hiding: hiding))")
                return nil
            }
            if field.required && items.isEmpty { problems.error(node, "'\(name)' needs at least one item") }
            var values: [Value] = []
            values.reserveCapacity(items.count)
            var facetValues: [String: Int] = [:]  // each value's item number, in a facet's list
            for (index, itemNode) in items.enumerated() {
                // A value twice is a slip: the listing's page and JSON would show it twice, its facet once.
                if facet, let text = itemNode.scalar {
                    if let first = facetValues[text] {
                        problems.error(itemNode, "'\(name)' lists \(summary(itemNode, hiding: hiding)) twice (items \(first) and \(index + 1)); name each value once")
                        continue
                    }
                    facetValues[text] = index + 1
                }
                if let value = check(itemNode, as: item, path: path + [String(index + 1)], problems: &problems, found: &found, hiding: hiding, facet: facet) {
                    values.append(value)
                }
            }
            return .list(values)
        case .object(let fields):
            // As empty as `[]` or `""`, unless a field within is required (which says so itself) or has a default.
            if field.required, !fields.contains(where: { $0.required || $0.defaultValue != nil }), case .mapping(let pairs) = node.content,
                pairs.allSatisfy(\.value.isNull)
            {
                problems.error(node, "'\(name)' needs at least one of its fields (\(fields.map(\.name).joined(separator: ", ")))")
            }
            return checkFields(node, fields: fields, path: path, problems: &problems, found: &found, hiding: hiding).map(Value.object)
        default:
            guard case .scalar(let text, let style) = node.content else {
                problems.error(node, "'\(name)' must be \(expectation(field.type)), not \(summary(node, hiding: hiding))")
                return nil
            }
            let scalar = Scalar(node: node, text: text, style: style, name: name, path: path, hiding: hiding, facet: facet)
            return checkScalar(scalar, as: field, problems: &problems, found: &found)
        }
    }

    /// A scalar value being checked, with what messages about it need.
    private struct Scalar {
        let node: YAMLNode
        let text: String
        let style: ScalarStyle
        /// The field's path as messages show it (`services[2]`).
        let name: String
        let path: [String]
        /// In a private field: messages may not quote the value.
        let hiding: Bool
        /// A facet's value, which becomes part of a web address.
        let facet: Bool

        /// The value as a message may show it: not at all in a private field.
        func quoted(_ text: String) -> String { hiding ? ValueChecker.hiddenValue : "'\(text)'" }
    }

    private func checkScalar(_ scalar: Scalar, as field: FieldSchema, problems: inout Problems, found: inout Findings) -> Value? {
        let (node, text, style, name) = (scalar.node, scalar.text, scalar.style, scalar.name)
        func fail(_ hint: String = "") -> Value? {
            problems.error(node, "'\(name)' must be \(expectation(field.type)), not \(summary(node, hiding: scalar.hiding))\(hint)")
            return nil
        }
        switch field.type {
        case .string, .markdown:
            return checkText(scalar, as: field, problems: &problems)
        case .int, .decimal:
            return checkNumber(scalar, as: field, problems: &problems) ?? (style == .plain ? nil : fail(" (numbers are written without quotes)"))
        case .bool:
            guard style == .plain, let flag = parseBool(text) else {
                let yamlOne = ["yes", "no", "on", "off", "y", "n"].contains(text.lowercased())
                let quoted = style != .plain && parseBool(text) != nil
                return fail(yamlOne ? " (write true or false)" : quoted ? " (true and false are written without quotes)" : "")
            }
            return .bool(flag)
        case .date:
            guard let date = CalendarDate(parsing: text[...]) else {
                let written = !scalar.hiding && text.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil
                return fail(written ? " (written so, but no such day is in the calendar)" : "")
            }
            return .date(date)
        case .url:
            if let flaw = urlFlaw(text) { return fail(flaw) }
            return .string(publishedURL(text))
        case .email:
            return isValidEmail(text) ? .string(text) : fail()
        case .phone:
            return isValidPhone(text) ? .string(text) : fail()
        case .image:
            return checkImage(scalar, problems: &problems, found: &found)
        case .enumeration(let allowed):
            guard allowed.contains(text) else {
                problems.error(node, "'\(name)' must be one of \(quotedList(allowed)), not \(scalar.quoted(text))\(scalar.hiding ? "" : suggestion(for: text, among: allowed))")
                return nil
            }
            return facetValueFits(scalar, problems: &problems) ? .string(text) : nil
        case .reference(let kind):
            guard Slug.isValid(text) else {
                problems.error(node, "'\(name)' must be the slug of a listing in content/\(kind)/ (its file name without .yaml), not \(scalar.quoted(text))")
                return nil
            }
            // Noted, for the site to check that it names a real listing once every kind's slugs are known.
            found.references.append(Reference(kind: kind, slug: text, fieldPath: scalar.path, location: SourceLocation(file: problems.file, line: node.line, column: node.column)))
            return .string(text)
        case .list, .object:
            return nil  // handled by `check`
        }
    }

    /// A string or Markdown field: not empty when required, Markdown tables within bounds, only the declared
    /// placeholders.
    private func checkText(_ scalar: Scalar, as field: FieldSchema, problems: inout Problems) -> Value? {
        let (node, text, name) = (scalar.node, scalar.text, scalar.name)
        if field.required && isBlank(text) {
            problems.error(node, "'\(name)' must not be empty")
            return nil
        }
        if case .markdown = field.type, case let cells = widestTableLine(text).cells, cells > maxTableCells {
            problems.error(node, tableTooWideMessage("'\(name)'", cells: cells))
            return nil
        }
        if case .markdown = field.type {
            let found = markdown.check(text)
            if let overrun = found.overrun {
                problems.error(node, overrun.message("'\(name)'"))
                return nil
            }
            if let control = found.controlCharacter {
                problems.error(node, "'\(name)' has a character reference on its line \(control.line + 1) that makes \(ControlCharacters.described(control.scalar)); remove it")
                return nil
            }
            // A private field is never published, and its value never quoted.
            for link in found.linksLeavingSite where !scalar.hiding {
                problems.warning(node, link.leavingMessage("'\(name)'", sitePath: markdown.sitePath, namingLine: true))
            }
            for tag in found.filteredTags where !scalar.hiding { problems.warning(node, tag.message("'\(name)'", namingLine: true)) }
        }
        if let allowed = field.placeholders {
            for placeholder in placeholderNames(in: text) where !allowed.contains(String(placeholder)) {
                let shown = scalar.hiding ? "an unknown placeholder" : "the placeholder {{\(placeholder)}}"
                problems.error(node, "'\(name)' uses \(shown); the app fills in only \(allowed.map { "{{\($0)}}" }.joined(separator: ", "))")
            }
        }
        return facetValueFits(scalar, problems: &problems) ? .string(text) : nil
    }

    /// A facet's value becomes a folder name, which may not be empty (a page's JSON showed `""` that no facet
    /// page listed) or over-long.
    private func facetValueFits(_ scalar: Scalar, problems: inout Problems) -> Bool {
        if scalar.facet && scalar.text.isEmpty {
            problems.error(scalar.node, "'\(scalar.name)' is empty; a facet's value needs text, from which its page's address is made: remove it, or give the text")
            return false
        }
        guard scalar.facet, let tooLong = Slug.tooLong("the facet value", slug: Slug.from(text: scalar.text)) else { return true }
        problems.error(scalar.node, tooLong)
        return false
    }

    /// An int or decimal within `NumberLimit` and the field's bounds. Nil, with nothing reported, for a quoted
    /// number (the caller says how to write one); a plain text that is no number fails here.
    private func checkNumber(_ scalar: Scalar, as field: FieldSchema, problems: inout Problems) -> Value? {
        let (node, text, name, hiding) = (scalar.node, scalar.text, scalar.name, scalar.hiding)
        guard scalar.style == .plain else { return nil }
        if case .decimal(let scale) = field.type {
            guard let number = FixedDecimal(parsing: text[...], scale: scale), NumberLimit.holds(number.units) else {
                if isPlainNumber(text, fraction: true) { return tooLarge(node, name, hiding, &problems, scale: scale) }
                problems.error(node, "'\(name)' must be \(expectation(field.type)), not \(summary(node, hiding: hiding))")
                return nil
            }
            // The bounds hold for the number as written, before it is rounded to the field's scale (-0.004 is below 0).
            return inRange(Double(text) ?? number.doubleValue, field, node, name, hiding, &problems) ? .decimal(number) : nil
        }
        guard let number = Int64(text), NumberLimit.holds(number) else {
            if isPlainNumber(text, fraction: false) { return tooLarge(node, name, hiding, &problems) }
            problems.error(node, "'\(name)' must be \(expectation(field.type)), not \(summary(node, hiding: hiding))")
            return nil
        }
        return inRange(Double(number), field, node, name, hiding, &problems) ? .int(number) : nil
    }

    /// Why no file below `content/media/` is at `path`, with the likeliest meaning (only an error's path looks).
    private func missing(_ path: String) -> String {
        let lowered = path.lowercased()
        if mediaFiles.contains(where: { $0.hasPrefix(path + "/") }) { return "is a folder; name an image file in it" }
        if let other = mediaFiles.first(where: { $0.lowercased() == lowered }) { return "does not exist; did you mean '\(other)'? (names differ in case)" }
        for prefix in ["content/media/", "media/"] where path.hasPrefix(prefix) && mediaFiles.contains(String(path.dropFirst(prefix.count))) {
            return "does not exist; paths start below content/media/, so write '\(path.dropFirst(prefix.count))'"
        }
        return "does not exist"
    }

    /// An image field names a file below `content/media/` by a safe path; its use is noted for publishing.
    private func checkImage(_ scalar: Scalar, problems: inout Problems, found: inout Findings) -> Value? {
        let (node, text, name, hiding) = (scalar.node, scalar.text, scalar.name, scalar.hiding)
        if let reason = unsafeMediaPathReason(text) {
            problems.error(node, "'\(name)' cannot use \(hiding ? "the path given (not shown: the field is private)" : "the path '\(text)'"): \(reason)")
            return nil
        }
        guard mediaFiles.contains(text) else {
            problems.error(node, hiding ? "'\(name)' names a file below content/media/ that does not exist (\(Self.hiddenValue))" : "'\(name)' names content/media/\(text), which \(missing(text))")
            return nil
        }
        if !hiding, let tooLong = mediaNameTooLong(text) {
            problems.error(node, "'\(name)' names content/media/\(text): \(tooLong)")
            return nil
        }
        found.media.append(MediaUse(path: text, field: name, location: SourceLocation(file: problems.file, line: node.line, column: node.column)))
        return .string(text)
    }

    private func tooLarge(_ node: YAMLNode, _ name: String, _ hiding: Bool, _ problems: inout Problems, scale: Int = 0) -> Value? {
        let units = scale == 0 ? "" : " in units of its \(scale) fraction digits"
        let shown = hiding ? Self.hiddenValue : node.scalar ?? ""
        problems.error(node, "'\(name)' is \(shown), past the largest number it may hold, \(NumberLimit.text(scale: scale)) (2^53 − 1\(units), the largest whole number JSON readers such as JavaScript hold exactly)")
        return nil
    }

    private func inRange(_ number: Double, _ field: FieldSchema, _ node: YAMLNode, _ name: String, _ hiding: Bool, _ problems: inout Problems) -> Bool {
        let shown = hiding ? Self.hiddenValue : node.scalar ?? ""
        if let minimum = field.minimum, number < minimum {
            problems.error(node, "'\(name)' must be at least \(formatBound(minimum)), not \(shown)")
            return false
        }
        if let maximum = field.maximum, number > maximum {
            problems.error(node, "'\(name)' must be at most \(formatBound(maximum)), not \(shown)")
            return false
        }
        return true
    }
}

extension ValueChecker {
    /// Whether the field at `name` below `path` is a facet: a listing's own, or one of a collection entry's.
    func isFacet(_ name: String, in path: [String]) -> Bool {
        path.isEmpty ? facetFields.contains(name) : path.count == 2 && path[0] == entriesField && entryFacetFields.contains(name)
    }

    /// Why a media path makes an output name too long (its folders and name are slugged, as variants are named).
    func mediaNameTooLong(_ path: String) -> String? {
        let parts = path.split(separator: "/").map(String.init)
        for (index, part) in parts.enumerated() {
            let slug = index == parts.count - 1 ? Slug.from(fileName: part) : Slug.from(text: part)
            if let tooLong = Slug.tooLong(index == parts.count - 1 ? "its name" : "the folder name", slug: slug) { return tooLong }
        }
        return nil
    }

    /// What messages say in place of a private field's value.
    static let hiddenValue = "the value given (not shown: the field is private)"

    /// `node.summary`, without the value when it is private.
    func summary(_ node: YAMLNode, hiding: Bool) -> String {
        guard hiding, node.scalar != nil, !node.isNull else { return node.summary }
        return Self.hiddenValue
    }
}

/// The names written between `{{` and `}}`, without the spaces around them: what the pattern
/// `\{\{\s*([^}]*?)\s*\}\}` finds, in one pass. Swift's Regex backtracks, and on text of many `{{` and no
/// `}}` it took time quadratic in the length (36 s for 12 KB in a debug build).
func placeholderNames(in text: String) -> [Substring] {
    let utf8 = text.utf8
    let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
    var names: [Substring] = []
    var position = utf8.startIndex
    while let brace = utf8[position...].firstIndex(of: open) {
        let second = utf8.index(after: brace)
        guard second < utf8.endIndex, utf8[second] == open else {
            position = second
            continue
        }
        let start = utf8.index(after: second)
        // A name holds no '}': the first one after `{{` must begin its `}}`.
        guard let end = utf8[start...].firstIndex(of: close) else { break }
        let afterEnd = utf8.index(after: end)
        if afterEnd < utf8.endIndex, utf8[afterEnd] == close {
            var name = text[start..<end].drop(while: \.isWhitespace)
            while name.last?.isWhitespace == true { name.removeLast() }
            names.append(name)
            position = utf8.index(after: afterEnd)
        } else {
            // Every `{{` before this '}' meets it first, and fails as this one did.
            position = afterEnd
        }
    }
    return names
}

/// Digits with an optional sign (and, with `fraction`, decimal point): a number, however large.
private func isPlainNumber(_ text: String, fraction: Bool) -> Bool {
    var body = Substring(text)
    if body.first == "-" || body.first == "+" { body = body.dropFirst() }
    let parts = body.split(separator: ".", omittingEmptySubsequences: false)
    return parts.count <= (fraction ? 2 : 1) && !(parts.first ?? "").isEmpty && parts.allSatisfy { $0.allSatisfy { ("0"..."9").contains($0) } }
}

private func formatBound(_ value: Double) -> String {
    value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
}

/// `quotes.3.text` reads as `quotes[3].text`.
public func display(_ path: [String]) -> String {
    var text = ""
    for part in path {
        if let first = part.first, first.isNumber {
            text += "[\(part)]"
        } else {
            text += text.isEmpty ? part : "." + part
        }
    }
    return text
}

private func expectation(_ type: FieldType) -> String {
    switch type {
    case .string, .markdown: return "text"
    case .int: return "a whole number"
    case .decimal(let scale): return scale == 0 ? "a whole number" : "a decimal number such as 18.50"
    case .bool: return "true or false"
    case .date: return "a date written YYYY-MM-DD"
    case .url: return "an absolute http or https URL"
    case .email: return "an email address"
    case .phone: return "a phone number (digits, spaces, dashes or brackets, optional leading +, 7 to 15 digits)"
    case .image: return "an image path below content/media/"
    case .enumeration: return "one of its allowed values"
    case .reference(let kind): return "the slug of a listing in content/\(kind)/"
    case .list: return "a list"
    case .object: return "a mapping"
    }
}

