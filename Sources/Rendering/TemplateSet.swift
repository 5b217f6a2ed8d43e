import Foundation
import Mustache
import SiteModel
import Support

/// The site's Mustache templates, each parsed once by swift-mustache (which reports syntax errors) and
/// compiled for `TemplateRenderer`. Names are paths below `templates/` without `.mustache`: `layout`,
/// `listing`, `cleaners/listing`, `partials/card`.
public struct TemplateSet: Sendable {
    let program: TemplateProgram
    public let names: Set<String>
    /// Each template's file (relative to the site root) and text, by name.
    public let sources: [String: (file: String, text: String)]
    /// SHA-256 of the site's language and every template's name and text: a change to any template, or to
    /// how `longdate` writes dates, changes every render key.
    public let fingerprint: String
    /// How `{{longdate(…)}}` writes a date, in the site's language.
    let dates: DateText
    /// By template, the top-level names a page rendered with it can read: its own and the layout's, which
    /// renders around it with the same context (see `PageContext`).
    private let namesRead: [String: Set<String>]

    /// Page types every site needs; a kind may override `list`, `listing` and `facet` with `<kind>/list` and so on.
    /// `search` and `404` are optional: their pages are written when the templates exist.
    public static let required = ["layout", "home", "list", "listing", "facet"]

    /// Compiles every template, reporting syntax errors and missing partials at their line and column.
    /// `sources` maps names to (file relative to the site root, text); `language` is the site's.
    public init(sources: [String: (file: String, text: String)], language: String = "en") throws(BuildFailure) {
        var program = TemplateProgram()
        var problems: [Diagnostic] = []
        HTMLEscaping.registered
        let scans = sources.mapValues { MustacheTagScanner.scan($0.text) }
        let tags = scans.mapValues(\.nodes)
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            if let deep = scans[name]!.tooDeep {
                problems.append(.error(
                    at: SourceLocation(file: source.file, line: deep.line, column: deep.column),
                    "template error: sections nested more than \(MustacheTagScanner.deepestNesting) deep; a page's data is not that deep"))
                continue
            }
            let chosenByValue = dynamicPartials(in: tags[name]!)
            guard chosenByValue.isEmpty else {
                problems += chosenByValue.map { .error(at: SourceLocation(file: source.file, line: $0.name.line, column: $0.name.column), choosesItsPartial($0)) }
                continue
            }
            do {
                try program.add(MustacheTemplate(string: HTMLEscaping.pragma + source.text), named: name)
            } catch let error as MustacheTemplate.ParserError {
                if case .expectedSectionEnd? = error.error as? MustacheTemplate.Error, let open = unclosedSection(in: source.text) {
                    // The library stops at the end of the file; the section that is never closed starts here.
                    problems.append(.error(
                        at: SourceLocation(file: source.file, line: open.line, column: open.column),
                        "template syntax error: {{\(open.tag)}} opens a section that is never closed; close it with {{/\(open.name)}}"))
                    continue
                }
                // The pragma line is not the user's: lines count from the one after it.
                problems.append(.error(
                    at: SourceLocation(file: source.file, line: error.context.lineNumber - 1, column: error.context.columnNumber),
                    "template syntax error: \(describe(error.error))"))
            } catch {
                problems.append(.error(at: SourceLocation(file: source.file), "template error: \(error)"))
            }
        }
        for (name, source) in sources {
            for partial in partialReferences(in: tags[name]!) where sources[partial.name] == nil {
                problems.append(.error(
                    at: SourceLocation(file: source.file, line: partial.line, column: partial.column),
                    "template '\(name)' includes the partial '\(partial.name)', but templates/\(partial.name).mustache does not exist"))
            }
        }
        for name in TemplateSet.required where sources[name] == nil {
            problems.append(.error(at: SourceLocation(file: "templates/\(name).mustache"), "missing template: every site needs templates/\(name).mustache"))
        }
        guard problems.isEmpty else { throw BuildFailure(problems) }
        self.program = program
        self.names = Set(sources.keys)
        self.sources = sources
        self.dates = DateText(language: language)
        let layoutReads = program.namesRead(by: "layout")
        self.namesRead = Dictionary(uniqueKeysWithValues: sources.keys.map { ($0, program.namesRead(by: $0).union(layoutReads)) })
        var all = Array("\(language)\u{0}".utf8)
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) { all += Array("\(name)\u{0}\(source.text)\u{0}".utf8) }
        self.fingerprint = SHA256.hex(all)
    }

    public func render(_ context: Value, with name: String) -> String {
        String(decoding: rendered(name, by: { TemplateRenderer(program: program, dates: dates, context: context) }), as: UTF8.self)
    }

    func render(_ page: PageContext, with name: String) -> String {
        String(decoding: rendered(name, by: { TemplateRenderer(program: program, dates: dates, page: page) }), as: UTF8.self)
    }

    /// The rendered UTF-8, for a file: always valid, as every piece of it comes from a template's text or a
    /// String (escaping replaces ASCII bytes only), so it needs no check on its way to the file.
    ///
    /// The renderer's buffer has room for a large page (32 KB, where the median page is 6.5 KB) and `room`
    /// more, for what the caller knows goes in (a page's content, inside its layout): a page of 25 MB (the map
    /// of 100,000 places) no longer doubles its buffer on the way. Bytes with much room left are copied out of
    /// it: rendered files wait for the writers, and with that room each held five times its bytes (240 MB of
    /// the L build's peak).
    func renderedBytes(_ page: PageContext, with name: String, room: Int = 0) -> [UInt8] {
        let output = rendered(name, by: { TemplateRenderer(program: program, dates: dates, page: page, room: room) })
        return output.capacity - output.count > output.count / 8 ? output.withUnsafeBufferPointer { Array($0) } : output
    }

    /// The output of the renderer `make` gives, rendering the template `name`. Made here, the renderer is
    /// this function's own: a renderer handed in was still held by the caller, so its first write copied its
    /// buffer, and a page of 25 MB (the map of 100,000 places) was held twice while its layout rendered.
    private func rendered(_ name: String, by make: () -> TemplateRenderer) -> [UInt8] {
        var renderer = make()
        renderer.render(name)
        return renderer.output
    }

    /// The top-level names a page rendered with `template` (inside the layout) can read.
    func namesRead(by template: String) -> Set<String> {
        namesRead[template] ?? []
    }

    /// The kind's own template if it has one (`cleaners/listing`), else the site-wide one (`listing`).
    public func name(_ page: String, forKind kind: String) -> String {
        names.contains("\(kind)/\(page)") ? "\(kind)/\(page)" : page
    }

    /// Whether a kind with `geo` gets a map page: when the theme has a `map` template for it.
    public func hasMap(forKind kind: String) -> Bool {
        names.contains(name("map", forKind: kind))
    }
}

private func describe(_ error: Error) -> String {
    switch error as? MustacheTemplate.Error {
    case .sectionCloseNameIncorrect?: return "a closing tag does not match the section it closes"
    case .unfinishedName?: return "a tag is not closed with }}"
    case .expectedSectionEnd?: return "a section is opened but never closed"
    case .invalidSetDelimiter?: return "badly formed set-delimiter tag"
    default: return String(describing: error)
    }
}

/// The `{{>*name}}` and `{{<*name}}` tags among `nodes`, at any depth, each with its sigil.
private func dynamicPartials(in nodes: [MustacheNode]) -> [(name: MustacheName, sigil: Character)] {
    nodes.flatMap { node -> [(name: MustacheName, sigil: Character)] in
        switch node {
        case .dynamicPartial(let name, let sigil): return [(name, sigil)]
        case .section(_, _, let children), .group(let children): return dynamicPartials(in: children)
        case .variable, .partial: return []
        }
    }
}

/// Why `{{>*name}}` is refused: the template check follows partials by name, to check the names they use in
/// each place they are included and to find one included inside itself, which would render without end.
private func choosesItsPartial(_ tag: (name: MustacheName, sigil: Character)) -> String {
    "'{{\(tag.sigil)*\(tag.name.written)}}' chooses its partial by a value, which Noticeboard does not do, as no check before the build "
        + "could follow it (to the names it uses, or to a partial included inside itself); include each partial by name, "
        + "in a section that chooses it"
}

/// The partials and parents (`{{> name}}`, `{{<name}}`) among `nodes`, at any depth, with the place of each name;
/// as the scanner reads them, delimiters set by `{{=<% %>=}}` are followed and comments skipped.
private func partialReferences(in nodes: [MustacheNode]) -> [(name: String, line: Int, column: Int)] {
    nodes.flatMap { node -> [(name: String, line: Int, column: Int)] in
        switch node {
        case .partial(let name, let line, let column): return [(name, line, column)]
        case .section(_, _, let children), .group(let children): return partialReferences(in: children)
        case .variable, .dynamicPartial: return []
        }
    }
}

/// The innermost section, inverted section, block or parent (`{{#…}}`, `{{^…}}`, `{{$…}}`, `{{<…}}`) that
/// `text` opens and never closes, with the line and column where its tag starts; nil when there is none, or
/// when a set-delimiter tag (`{{=<% %>=}}`) changes what a tag looks like.
func unclosedSection(in text: String) -> (tag: String, name: String, line: Int, column: Int)? {
    var open: [(tag: String, name: String, start: String.Index)] = []
    var rest = text[...]
    while let opening = rest.range(of: "{{") {
        guard let closing = rest[opening.upperBound...].range(of: "}}") else { break }
        let tag = rest[opening.upperBound..<closing.lowerBound]
        rest = rest[closing.upperBound...]
        let name = tag.dropFirst().trimmingCharacters(in: .whitespaces)
        switch tag.first {
        case "#", "^", "$", "<": open.append((String(tag), name, opening.lowerBound))
        case "/": if open.last?.name == name { open.removeLast() }
        case "=": return nil
        default: break
        }
    }
    guard let innermost = open.last else { return nil }
    let before = text[..<innermost.start]
    let line = before.count { $0 == "\n" } + 1
    let column = before.distance(from: before.lastIndex(of: "\n").map(before.index(after:)) ?? before.startIndex, to: before.endIndex) + 1
    return (innermost.tag, innermost.name, line, column)
}
