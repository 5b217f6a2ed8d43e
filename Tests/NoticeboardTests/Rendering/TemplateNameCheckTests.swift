@testable import Rendering
import SiteModel
import Testing

/// The name check on small template sets, for what the bad-input corpus does not show: how sections, `.`,
/// inherited templates and partials that include themselves are read.
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
            "templates/things/listing.mustache:1:24: error: '.title' is not in a things listing page's context (inside {{#listing}}); README.md (Templates) lists what each page's context holds (a name Noticeboard adds to a context is added there and in its Sources/Rendering/TemplateContextShape.swift)",
        ])
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

    @Test func aPartialThatIncludesItselfIsCheckedOnce() {
        let problems = Self.problems("{{> partials/tree}}", ["partials/tree": "{{#listing.tags}}{{> partials/tree}}{{naem}}{{/listing.tags}}"])
        #expect(problems.count == 1 && problems[0].contains("'naem'"))
    }
}
