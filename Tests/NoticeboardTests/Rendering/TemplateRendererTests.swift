import Mustache
import OrderedCollections
@testable import Rendering
import SiteModel
import Support
import Synchronization
import Testing

/// `TemplateRenderer` against swift-mustache itself, the reference it replaces: the same templates and values
/// must give the same bytes, for hand-picked cases of each rule and for generated templates.
@Suite struct TemplateRendererTests {
    static let context: Value = .object([
        "name": .string("Ana <Nowak> & \"Co\" 'x'"),
        "accented": .string("Łódź é\u{301} <b>"),
        "html": .html("<p>ok</p>"),
        "languages": .list([.string("Polish"), .string("Irish"), .string("English")]),
        "flags": .list([.bool(true), .bool(false)]),
        "nulls": .list([.null, .string("after")]),
        "empty_list": .list([]),
        "empty_text": .string(""),
        "flag": .bool(true),
        "off": .bool(false),
        "nothing": .null,
        "count": .int(3),
        "one": .int(1),
        "rating": .decimal(FixedDecimal(units: 44, scale: 1)),
        "date": .date(CalendarDate(year: 2026, month: 3, day: 9)!),
        "listing": .object([
            "name": .string("Drill"),
            "languages": .list([.string("French")]),
            "address": .object(["city": .string("Cork")]),
        ]),
        "cards": .list([
            .object(["title": .string("One"), "price": .int(5)]),
            .object(["title": .string("Two"), "extra": .null]),
        ]),
    ])

    static let partials = [
        "partials/item": "<li>{{name}}</li>\n<li>two</li>\n",
        "partials/nested": "<div>\n  {{> partials/item}}\n</div>\n",
        "frame": "<h1>{{$title}}Default{{/title}}</h1>\n{{$body}}Body{{/body}}",
        "partials/position": "{{#first()}}F{{/first()}}{{.}}",
        "partials/card": "<b>{{title}}</b>{{#price}} €{{.}}{{/price}}{{^extra}}-{{/extra}}",
    ]

    static let cases = [
        "{{name}} {{{html}}} {{&html}} [{{missing}}] {{accented}}",
        "{{#languages}}{{.}}{{^last()}}, {{/last()}}{{/languages}}",
        "{{#languages}}{{index()}}{{#first()}}F{{/first()}}{{#even()}}e{{/even()}}{{#odd()}}o{{/odd()}}{{/languages}}",
        "{{#listing}}{{name}} / {{count}} / {{.name}} / [{{.count}}] / {{address.city}}{{/listing}} {{listing.address.city}}",
        "{{#listing}}{{#address}}{{city}} {{name}} {{languages}}{{/address}}{{/listing}}",
        "{{#empty_list}}x{{/empty_list}}{{^empty_list}}none [{{.}}]{{/empty_list}}",
        "{{#flag}}yes{{/flag}}{{^flag}}no{{/flag}}{{#off}}yes{{/off}}{{^off}}no{{/off}} {{flag}} {{off}}",
        "{{#nothing}}x{{/nothing}}{{^nothing}}absent{{/nothing}}{{#empty_text}}[{{.}}]{{/empty_text}}",
        "{{uppercased(name)}} {{lowercased(accented)}} {{capitalized(name)}} {{reversed(name)}} {{count(languages)}}",
        "{{first(languages)}} {{last(languages)}} {{#empty(empty_list)}}E{{/empty(empty_list)}} {{empty(empty_text)}}",
        "{{plusone(count)}} {{minusone(count)}} {{#even(count)}}even{{/even(count)}} {{equalzero(count)}} {{odd(count)}}",
        "{{#plural(count)}}s{{/plural(count)}} {{#plural(one)}}s{{/plural(one)}} {{stars(rating)}} {{stars(count)}} {{stars(name)}}",
        "{{#reversed(languages)}}{{.}}{{/reversed(languages)}} {{count(reversed(languages))}} {{first(reversed(languages))}}",
        "{{#first(nulls)}}x{{/first(nulls)}}{{^first(nulls)}}y{{/first(nulls)}} [{{first(nulls)}}] {{last(nulls)}}",
        "{{#flags}}[{{.}}]{{#.}}t{{/.}}{{/flags}} {{#first(flags)}}{{.}}{{/first(flags)}}",
        "{{=<% %>=}}<% name %> <%# languages %><% . %><%/ languages %><%={{ }}=%>{{name}}",
        "{{! a comment }}\n  {{#languages}}\n  - {{.}}\n  {{/languages}}\nend\n",
        "<ul>\n  {{> partials/item}}\n</ul>\n",
        "<section>\n    {{> partials/nested}}\n</section>\n",
        "{{<frame}}{{$title}}Mine {{name}}{{/title}}{{/frame}}",
        "{{<frame}}\n{{$body}}\nLines\n{{/body}}\n{{/frame}}\n",
        "{{% CONTENT_TYPE: TEXT }}\n{{name}}",
        "{{#languages}}{{> partials/position}}|{{/languages}}",
        "{{#cards}}{{> partials/card}}{{#last()}}!{{/last()}}{{/cards}}",
        "{{rating}} {{date}} {{count}} {{languages}} {{listing}}",
        "crlf\r\n  {{> partials/item}}\r\n  {{#flag}}\r\n  in\r\n  {{/flag}}\r\n",
        "{{#listing.languages}}{{.}}{{name}}{{/listing.languages}} {{#index()}}x{{/index()}} {{first()}}",
        "{{#count}}{{.}} {{plusone(.)}}{{/count}} {{#name}}{{uppercased(.)}}{{/name}} {{#rating}}{{.}}{{/rating}}",
    ]

    @Test(arguments: cases) func rendersAsTheLibraryDoes(template: String) throws {
        let (ours, library) = try Self.renderBothWays(template)
        #expect(ours == library)
    }

    /// Generated templates mixing every kind of tag, nested, with line breaks and indentation between tags
    /// (where the library's standalone-line rules apply).
    @Test func generatedTemplatesRenderAsTheLibraryDoes() throws {
        var generator = TemplateGenerator(seed: 7)
        var mismatches: [String] = []
        for _ in 0..<400 {
            let template = generator.template(depth: 3)
            let (ours, library) = try Self.renderBothWays(template)
            if ours != library { mismatches.append(template) }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(3))")
    }

    /// A page's context whose lists are made as the template walks them (`MadeList`, a map page's cards)
    /// renders as the context with the lists made ahead: the hand-picked cases and generated templates.
    @Test func madeListsRenderAsTheListsTheyMake() throws {
        guard case .object(let fields) = Self.context else { Issue.record("the test context is an object"); return }
        var page = PageContext(fields)
        for (name, value) in fields {
            if case .list(let items) = value { page.set(name, MadeList(count: items.count, keyStandIn: .null) { items[$0] }) }
        }
        #expect(page.value == Self.context)
        var generator = TemplateGenerator(seed: 11)
        var mismatches: [String] = []
        for template in Self.cases + (0..<400).map({ _ in generator.template(depth: 3) }) {
            let templates = try Self.templateSet(template)
            if templates.render(page, with: "case") != templates.render(Self.context, with: "case") { mismatches.append(template) }
        }
        #expect(mismatches.isEmpty, "first mismatches: \(mismatches.prefix(3))")
    }

    /// A made list's items are made as a section walks them, once each, and none before.
    @Test func aMadeListMakesItsItemsAsTheyAreWalked() throws {
        let made = Mutex<[Int]>([])
        var page = PageContext(["title": .string("Places")])
        page.set("places", MadeList(count: 3, keyStandIn: .null) { index in
            made.withLock { $0.append(index) }
            return .object(["name": .string("Place \(index)")])
        })
        let templates = try Self.templateSet("{{title}}:{{#places}} {{name}}{{/places}}")
        #expect(made.withLock { $0 }.isEmpty)
        #expect(templates.render(page, with: "case") == "Places: Place 0 Place 1 Place 2")
        #expect(made.withLock { $0 } == [0, 1, 2])
    }

    /// The partials, the templates every site needs (empty) and `template` as `case`.
    static func sources(_ template: String) -> [String: (file: String, text: String)] {
        var sources = partials.mapValues { (file: "p", text: $0) }
        for required in TemplateSet.required { sources[required] = (file: "r", text: "") }
        sources["case"] = (file: "templates/case.mustache", text: template)
        return sources
    }

    static func templateSet(_ template: String) throws -> TemplateSet {
        try TemplateSet(sources: sources(template))
    }

    /// (TemplateSet's rendering, swift-mustache's rendering) of `template` with `context` and the partials.
    static func renderBothWays(_ template: String) throws -> (String, String) {
        let sources = sources(template)
        let ours = try TemplateSet(sources: sources).render(context, with: "case")
        HTMLEscaping.registered
        var library = MustacheLibrary()
        for (name, source) in sources { library.register(try MustacheTemplate(string: HTMLEscaping.pragma + source.text), named: name) }
        return (ours, library.render(context, withTemplate: "case") ?? "")
    }
}

/// Random templates over the test context's names (seeded: the same templates every run).
private struct TemplateGenerator {
    private var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    private mutating func next(_ bound: Int) -> Int {
        Int(random.next() % UInt64(bound))
    }

    private mutating func pick<T>(_ items: [T]) -> T { items[next(items.count)] }

    private static let names = ["name", "accented", "html", "languages", "flags", "nulls", "empty_list", "empty_text", "flag",
                                "off", "nothing", "count", "rating", "date", "listing", "listing.name", ".name", ".", "cards",
                                "address.city", "title", "price", "missing"]
    private static let transforms = ["first", "last", "count", "empty", "reversed", "uppercased", "plusone", "plural", "stars",
                                     "even", "odd", "index"]
    private static let spacing = ["", " ", "\n", "  ", "\n  ", "x\n", "\r\n"]

    private mutating func name() -> String {
        switch next(6) {
        case 0: return "\(pick(Self.transforms))(\(pick(Self.names)))"
        case 1: return "\(pick(Self.transforms))()"
        default: return pick(Self.names)
        }
    }

    mutating func template(depth: Int) -> String {
        var text = ""
        for _ in 0..<(1 + next(5)) {
            text += pick(Self.spacing)
            switch next(depth > 0 ? 8 : 5) {
            case 0: text += "{{\(name())}}"
            case 1: text += "{{{\(name())}}}"
            case 2: text += "{{> \(pick(Array(TemplateRendererTests.partials.keys).sorted()))}}"
            case 3: text += "{{! note }}"
            case 4: text += "text"
            default:
                let tag = name()
                text += "{{\(pick(["#", "^"]))\(tag)}}" + template(depth: depth - 1) + pick(Self.spacing) + "{{/\(tag)}}"
            }
        }
        return text
    }
}
