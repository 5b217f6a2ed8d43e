import SiteModel

/// Every name a template uses, resolved against the context it is rendered with (`TemplateContextShape`) the
/// way swift-mustache resolves it: a section pushes its value (a list's items), and a name's first part is
/// looked up from the innermost section outward, its other parts inside what that found. A name no context
/// can hold would render as nothing; here it is an error at its line and column, with the nearest name that
/// is there. Partials are checked in the context of each place that includes them.
public struct TemplateNameCheck {
    /// Template names (`cleaners/listing`) with their file and text.
    let sources: [String: (file: String, text: String)]
    let shapes: TemplateContextShape
    /// The names of private fields, at any depth, so that the error can say why such a name is never there.
    let privateFields: Set<String>
    private var problems: [Diagnostic] = []
    private var scanned: [String: [MustacheNode]] = [:]

    /// The problems of every template a page is rendered with; partials through the templates that include them.
    public static func problems(sources: [String: (file: String, text: String)], schemas: [KindSchema]) -> [Diagnostic] {
        var check = TemplateNameCheck(
            sources: sources, shapes: TemplateContextShape(schemas: schemas), privateFields: privateNames(schemas.flatMap(\.fields)))
        for use in uses(of: Set(sources.keys), schemas: schemas) {
            check.check(use)
        }
        // A partial included twice in the same context has the same problems twice.
        return Array(Set(check.problems)).sorted()
    }

    /// A template and the pages it renders, as messages name them ("a cleaners listing page").
    struct Use {
        let template: String
        let role: TemplateContextShape.Role
        let kinds: [KindSchema]
        let pages: String
    }

    /// Which template renders which pages: a kind's own `<kind>/list` or the site's `list`, and so on.
    static func uses(of names: Set<String>, schemas: [KindSchema]) -> [Use] {
        var uses: [Use] = [
            Use(template: "layout", role: .layout, kinds: schemas.filter(\.hasPages), pages: "any page"),
            Use(template: "home", role: .home, kinds: [], pages: "the home page"),
            Use(template: "page", role: .freePage, kinds: [], pages: "a free page"),
            Use(template: "search", role: .search, kinds: [], pages: "the search page"),
            Use(template: "404", role: .notFound, kinds: [], pages: "the 404 page"),
        ]
        let withPages = schemas.filter(\.hasPages)
        // A kind's own `<kind>/<page>` template, or the site's `<page>`.
        let kindTemplates: [(TemplateContextShape.Role, String, [KindSchema])] = [
            (.list, "list", withPages), (.facet, "facet", withPages), (.listing, "listing", withPages),
            (.map, "map", withPages.filter { $0.geo != nil }), (.dailyDay, "daily", withPages.filter { $0.daily != nil }),
            (.dailyIndex, "daily_index", withPages.filter { $0.daily != nil }),
        ]
        for (role, page, kinds) in kindTemplates {
            let byTemplate = Dictionary(grouping: kinds) { names.contains("\($0.name)/\(page)") ? "\($0.name)/\(page)" : page }
            for (template, kinds) in byTemplate.sorted(by: { $0.key < $1.key }) {
                let kindNames = kinds.map(\.name).joined(separator: " or ")
                uses.append(Use(template: template, role: role, kinds: kinds, pages: withArticle("\(kindNames) \(page.replacingOccurrences(of: "_", with: " ")) page")))
            }
        }
        for schema in schemas where !schema.feeds.isEmpty {
            uses.append(Use(template: "\(schema.name)/feed_item", role: .feedItem, kinds: [schema], pages: withArticle("\(schema.name) feed item")))
        }
        return uses.filter { names.contains($0.template) }
    }

    /// What the names are resolved against at one point: the root context, then each section's value.
    private struct Scope {
        let shape: ContextShape
        /// The tag that pushed it, for messages (`{{#listing.reviews}}`).
        let tag: String?
    }

    /// A template included as a partial, and where.
    private struct Inclusion {
        let file: String
        let line: Int
    }

    private mutating func check(_ use: Use) {
        let root = Scope(shape: shapes.shape(of: use.role, kinds: use.kinds), tag: nil)
        check(use.template, use: use, stack: [root], includedFrom: [])
    }

    private mutating func check(_ template: String, use: Use, stack: [Scope], includedFrom: [Inclusion]) {
        guard let source = sources[template] else { return }
        if scanned[template] == nil { scanned[template] = MustacheTagScanner.nodes(of: source.text) }
        let place = Place(file: source.file, use: use, includedFrom: includedFrom)
        check(scanned[template] ?? [], stack: stack, place: place, template: template)
    }

    /// Where names are checked, for messages.
    private struct Place {
        let file: String
        let use: Use
        let includedFrom: [Inclusion]
    }

    private mutating func check(_ nodes: [MustacheNode], stack: [Scope], place: Place, template: String) {
        for node in nodes {
            switch node {
            case .variable(let name):
                // A list has no text of its own: `{{tags}}` wrote Swift's description of the values.
                if let shapes = resolve(name, stack: stack, place: place), shapes.contains(where: \.mayBeList) {
                    let at = SourceLocation(file: place.file, line: name.line, column: name.column)
                    problems.append(.error(at: at, "'\(name.written)' is a list, which {{…}} cannot write; show its items with a section: {{#\(name.written)}}{{.}}{{/\(name.written)}}"))
                }
            case .section(let name, let inverted, let children):
                let found = resolve(name, stack: stack, place: place)
                // An inverted section renders only when its value is absent or empty: it pushes nothing.
                let inner = inverted ? stack : stack + [Scope(shape: found.map { ContextShape.anyOf($0).pushed } ?? .open, tag: "{{#\(name.written)}}")]
                check(children, stack: inner, place: place, template: template)
            case .group(let children):
                check(children, stack: stack, place: place, template: template)
            case .dynamicPartial:
                // Refused where the templates are compiled (`TemplateSet`).
                continue
            case .partial(let partial, let line, let column):
                guard let included = sources[partial] else { continue }
                let inclusion = Inclusion(file: place.file, line: line)
                if let cycle = Self.cycle(including: included.file, place: place, inclusion: inclusion) {
                    problems.append(.error(at: SourceLocation(file: place.file, line: line, column: column), Self.includesItself(partial, cycle: cycle)))
                    continue
                }
                check(partial, use: place.use, stack: stack, includedFrom: place.includedFrom + [inclusion])
            }
        }
    }
}

/// A template that includes itself, which would render without end.
extension TemplateNameCheck {
    /// The inclusions from where `file` was first included down to `inclusion`, which includes it again; nil
    /// when it is not already being included.
    private static func cycle(including file: String, place: Place, inclusion: Inclusion) -> [Inclusion]? {
        if file == place.file { return [inclusion] }
        return place.includedFrom.firstIndex { $0.file == file }.map { Array(place.includedFrom[$0...]) + [inclusion] }
    }

    /// A section around the inclusion does not end it: its name is looked up outward, so it finds the same
    /// value again at every depth (and the data's nesting is the schema's, known and finite).
    private static func includesItself(_ partial: String, cycle: [Inclusion]) -> String {
        let chain = cycle.map { "\($0.file):\($0.line)" }.joined(separator: " → ")
        return "'\(partial)' is included inside itself (\(chain)), so a page rendered with it would never end: a section "
            + "around the inclusion finds its value again at every depth, as names are looked up outward; write out each level instead"
    }
}

/// Resolving one name, and the error when it cannot be.
extension TemplateNameCheck {
    /// The shapes the name can have; nil, with an error recorded, when it cannot be resolved.
    private mutating func resolve(_ name: MustacheName, stack: [Scope], place: Place) -> [ContextShape]? {
        let location = SourceLocation(file: place.file, line: name.line, column: name.column)
        if name.path.isEmpty {
            for transform in name.transforms where !SequencePosition.transformNames.contains(transform) {
                problems.append(.error(at: location, unknownTransform(transform, in: name, known: SequencePosition.transformNames)))
                return nil
            }
            return [.value]
        }
        for transform in name.transforms where !TemplateValue.transformNames.contains(transform) {
            problems.append(.error(at: location, unknownTransform(transform, in: name, known: TemplateValue.transformNames)))
            return nil
        }
        guard let shapes = lookUp(name.path, stack: stack, place: place, at: location) else { return nil }
        return name.transforms.reversed().reduce(shapes) { shapes, transform in shapes.map { $0.transformed(by: transform) } }
    }

    private mutating func lookUp(_ path: String, stack: [Scope], place: Place, at location: SourceLocation) -> [ContextShape]? {
        if path == "." { return [stack.last?.shape ?? .open] }
        // `.name` looks only at the innermost value; `name` climbs outward until a value holds it.
        let parts = path.split(separator: ".").map(String.init)
        let searched = path.hasPrefix(".") ? Array(stack.suffix(1)) : stack
        var found = Self.holders(of: parts[0], in: searched)
        if found.isEmpty {
            let candidates = searched.flatMap(\.shape.names)
            problems.append(.error(at: location, notHeld(path, place: place, stack: stack, suggestion: nearest(parts[0], in: candidates).map { fixed in
                ([fixed] + parts.dropFirst()).joined(separator: ".")
            })))
            return nil
        }
        for (index, part) in parts.enumerated().dropFirst() {
            let next = found.flatMap { $0.child(part) }
            if next.isEmpty {
                let prefix = parts[..<index].joined(separator: ".")
                let suggestion = nearest(part, in: found.flatMap(\.names)).map { ([prefix, $0] + parts[(index + 1)...]).joined(separator: ".") }
                problems.append(.error(at: location, notHeld(path, place: place, stack: stack, suggestion: suggestion)))
                return nil
            }
            found = next
        }
        return found
    }

    /// What `name` can be on any value of the stack, innermost first (rendering reads outward from the innermost
    /// value that has it, and a field may be absent), each shape once: with every copy kept, sections nested in
    /// sections of the same name doubled the shapes at each level, and 30 levels took a minute to check.
    private static func holders(of name: String, in stack: [Scope]) -> [ContextShape] {
        var found: [ContextShape] = []
        for shape in stack.reversed().flatMap({ $0.shape.child(name) }) where !found.contains(shape) { found.append(shape) }
        return found
    }

    private func notHeld(_ path: String, place: Place, stack: [Scope], suggestion: String?) -> String {
        var message = "'\(path)' is not in \(place.use.pages)'s context"
        var whereAbouts: [String] = []
        if let section = stack.last?.tag { whereAbouts.append("inside \(section)") }
        if let inclusion = place.includedFrom.first {
            whereAbouts.append("in a partial that \(inclusion.file):\(inclusion.line) includes")
        }
        if !whereAbouts.isEmpty { message += " (" + whereAbouts.joined(separator: ", ") + ")" }
        if let last = path.split(separator: ".").last, privateFields.contains(String(last)) {
            return message + ": a private field is never in a template's context, nor anywhere else the build writes"
        }
        if let suggestion { return message + "; did you mean '\(suggestion)'?" }
        // A name Noticeboard adds to a context is added to the README's list and to `TemplateContextShape`.
        return message + "; the README's Templates section lists what each page's context holds"
    }

    private func unknownTransform(_ transform: String, in name: MustacheName, known: Set<String>) -> String {
        let message = "'\(transform)' in '\(name.written)' is not one of the transforms a template may use (\(known.sorted().joined(separator: ", ")))"
        return nearest(transform, in: Array(known)).map { message + "; did you mean '\($0)'?" } ?? message
    }

    /// The candidate closest to `name` by edit distance, if it is close enough to be a slip of the keyboard.
    func nearest(_ name: String, in candidates: [String]) -> String? {
        let limit = name.count < 4 ? 1 : name.count < 8 ? 2 : 3
        let scored = Set(candidates).map { ($0, editDistance(name, $0)) }.filter { $0.1 <= limit && $0.0 != name }
        return scored.min { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0 < $1.0 }?.0
    }
}

/// "an owners listing page", "a cleaners listing page".
private func withArticle(_ words: String) -> String {
    ("aeiou".contains(words.first ?? "x") ? "an " : "a ") + words
}

/// The names of the private fields among `fields` and the fields of their objects and lists.
private func privateNames(_ fields: [FieldSchema]) -> Set<String> {
    fields.reduce(into: Set<String>()) { names, field in
        if field.isPrivate { names.insert(field.name) }
        switch field.type {
        case .object(let subfields): names.formUnion(privateNames(subfields))
        case .list(let item): names.formUnion(privateNames([item]))
        default: break
        }
    }
}

/// The optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours
/// (`titel` → `title` is one edit).
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    guard !a.isEmpty else { return b.count }
    guard !b.isEmpty else { return a.count }
    var table = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
    for i in 0...a.count { table[i][0] = i }
    for j in 0...b.count { table[0][j] = j }
    for i in 1...a.count {
        for j in 1...b.count {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
            if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
            }
        }
    }
    return table[a.count][b.count]
}
