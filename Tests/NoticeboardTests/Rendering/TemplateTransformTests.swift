@testable import Rendering
import SiteModel
import Testing

@Suite struct TemplateTransformTests {
    /// swift-mustache's transforms on text and whole numbers work on the build's values, as on Swift's strings and integers.
    @Test func textAndNumberTransformsRender() throws {
        let templates = try TemplateSet(sources: [
            "layout": ("templates/layout.mustache", "{{{content}}}"),
            "home": ("templates/home.mustache", "{{uppercased(name)}} {{plusone(count)}} {{count(items)}} {{#items}}{{index()}}{{/items}}"),
            "list": ("templates/list.mustache", ""), "listing": ("templates/listing.mustache", ""), "facet": ("templates/facet.mustache", ""),
        ])
        let context: Value = .object(["name": .string("Ana"), "count": .int(4), "items": .list([.string("a"), .string("b")])])
        #expect(templates.render(context, with: "home") == "ANA 5 2 01")
    }

    /// `longdate` writes a date as the site's language does, inside a list's items too, and nothing for a
    /// value that is not a date; the language is part of the templates' fingerprint, so render keys change with it.
    @Test func longDateWritesDatesInTheSitesLanguage() throws {
        let home = "{{#reviews}}{{longdate(date)}}; {{/reviews}}[{{longdate(name)}}]"
        let sources = { (language: String) in
            try TemplateSet(sources: [
                "layout": ("templates/layout.mustache", "{{{content}}}"), "home": ("templates/home.mustache", home),
                "list": ("templates/list.mustache", ""), "listing": ("templates/listing.mustache", ""), "facet": ("templates/facet.mustache", ""),
            ], language: language)
        }
        let context: Value = .object([
            "name": .string("2026-09-02"),
            "reviews": .list([.object(["date": .date(CalendarDate(year: 2026, month: 9, day: 2)!)]), .object(["date": .date(CalendarDate(year: 2025, month: 12, day: 31)!)])]),
        ])
        let irish = try sources("en-IE"), german = try sources("de")
        #expect(irish.render(context, with: "home") == "2 September 2026; 31 December 2025; []")
        #expect(german.render(context, with: "home") == "2. September 2026; 31. Dezember 2025; []")
        #expect(irish.fingerprint != german.fingerprint)
    }
}
