@testable import Rendering
import SiteModel
import Testing

/// The name check on small template sets, for what the bad-input corpus does not show: how sections, `.`,
/// inherited templates and partials included inside themselves are read.
@Suite struct TemplateNameCheckTests {
    static let things = KindSchema(
        name: "things", title: "Things", singular: "Thing", description: "", titleField: "name",
        fields: [
            FieldSchema(name: "name", type: .string, label: "Name"),
            FieldSchema(name: "tags", type: .list(of: FieldSchema(name: "tag", type: .string, label: "Tag")), label: "Tags"),
            FieldSchema(name: "phone", type: .phone, label: "Phone", isPrivate: true),
        ],
        file: "content/schemas/things.yaml")

    /// The messages of the problems in `listing` (the things' listing template) and the other templates given.
    static func problems(_ listing: String, _ others: [String: String] = [:]) -> [String] {
        var sources: [String: (file: String, text: String)] = ["things/listing": ("templates/things/listing.mustache", listing)]
        for (name, text) in others { sources[name] = ("templates/\(name).mustache", text) }
        return TemplateNameCheck.problems(sources: sources, schemas: [things]).map(\.description)
    }

    @Test func sectionsPushAndNamesClimbOutward() {
        #expect(Self.problems("{{#listing.tags}}{{.}} {{listing.name}} {{kind.title}}{{/listing.tags}}{{^listing.tags}}{{page.title}}{{/listing.tags}}").isEmpty)
        // Inside an inverted section nothing is pushed; `.name` does not climb.
        #expect(Self.problems("{{#listing}}{{.name}}{{.title}}{{/listing}}") == [
            "templates/things/listing.mustache:1:24: error: '.title' is not in a things listing page's context (inside {{#listing}}); the README's Templates section lists what each page's context holds",
        ])
    }

    /// A list has no text of its own: `{{listing.tags}}` wrote `[SiteModel.Value.string(&quot;…&quot;)…]` (a
    /// tester's report). Its count, its first item and its items in a section are text.
    @Test func aListWrittenAsTextIsAnError() {
        #expect(Self.problems("{{listing.tags}}") == [
            "templates/things/listing.mustache:1:3: error: 'listing.tags' is a list, which {{…}} cannot write; show its items with a section: {{#listing.tags}}{{.}}{{/listing.tags}}",
        ])
        #expect(Self.problems("{{count(listing.tags)}} {{first(listing.tags)}} {{#listing.tags}}{{.}}{{/listing.tags}}").isEmpty)
        // In a template two kinds share, a field that is a list in one of them is refused too (the review).
        let labels = KindSchema(
            name: "labels", title: "Labels", singular: "Label", description: "", titleField: "name",
            fields: [FieldSchema(name: "name", type: .string, label: "Name"), FieldSchema(name: "tags", type: .string, label: "Tags")],
            file: "content/schemas/labels.yaml")
        let shared = TemplateNameCheck.problems(sources: ["listing": ("templates/listing.mustache", "{{listing.tags}}")], schemas: [Self.things, labels])
        #expect(shared.count == 1 && shared.first?.message.contains("'listing.tags' is a list") == true, "\(shared)")
    }

    @Test func aPrivateFieldIsInNoContext() {
        #expect(Self.problems("{{listing.phone}}") == [
            "templates/things/listing.mustache:1:3: error: 'listing.phone' is not in a things listing page's context: a private field is never in a template's context, nor anywhere else the build writes",
        ])
    }

    @Test func anInheritedTemplateIsCheckedInTheContextOfTheOneThatExtendsIt() {
        let problems = Self.problems("{{<base}}{{$body}}{{listing.name}}{{/body}}{{/base}}", ["base": "<h1>{{page.titel}}</h1>{{$body}}{{/body}}"])
        #expect(problems == [
            "templates/base.mustache:1:7: error: 'page.titel' is not in a things listing page's context (in a partial that templates/things/listing.mustache:1 includes); did you mean 'page.title'?",
        ])
    }

    /// Included inside itself, a partial would render without end (the section around it finds `listing.tags`
    /// again at every depth): an error at the inclusion, naming the chain, rather than a crash; its names are
    /// still checked, once.
    @Test func aPartialIncludedInsideItselfIsAnError() {
        let tree = Self.problems("{{> partials/tree}}", ["partials/tree": "{{#listing.tags}}{{> partials/tree}}{{naem}}{{/listing.tags}}"])
        let endless = "so a page rendered with it would never end: a section around the inclusion finds its value again at every depth, as names are looked up outward; write out each level instead"
        #expect(tree.count == 2 && tree[1].contains("'naem'"))
        #expect(tree.first == "templates/partials/tree.mustache:1:22: error: 'partials/tree' is included inside itself (templates/partials/tree.mustache:1), \(endless)")
        // Through another partial, and a page's template included from its own partial.
        let chain = Self.problems("a\n{{> partials/a}}", ["partials/a": "{{> partials/b}}", "partials/b": "\n{{> partials/a}}{{> things/listing}}"])
        #expect(chain == [
            "templates/partials/b.mustache:2:5: error: 'partials/a' is included inside itself (templates/partials/a.mustache:1 → templates/partials/b.mustache:2), \(endless)",
            "templates/partials/b.mustache:2:21: error: 'things/listing' is included inside itself (templates/things/listing.mustache:2 → templates/partials/a.mustache:1 → templates/partials/b.mustache:2), \(endless)",
        ])
        // The same partial twice, one after the other, is no cycle.
        #expect(Self.problems("{{> partials/name}}{{> partials/name}}", ["partials/name": "{{listing.name}}"]).isEmpty)
    }
}
