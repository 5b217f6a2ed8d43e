import Foundation
import Rendering
import SiteModel
import Testing

@Suite struct RenderingTests {
    @Test func jsonKeepsKeyOrderAndEscapes() throws {
        let value: Value = .object([
            "z": .string("quote \" backslash \\ newline \n tab \t bell \u{7} é"),
            "a": .list([.int(-3), .decimal(FixedDecimal(units: 1850, scale: 2)), .bool(true), .null]),
            "d": .date(CalendarDate(year: 2026, month: 1, day: 9)!),
        ])
        let text = String(decoding: JSONWriter.bytes(value), as: UTF8.self)
        #expect(text == #"{"z":"quote \" backslash \\ newline \n tab \t bell \u0007 é","a":[-3,18.50,true,null],"d":"2026-01-09"}"# + "\n")
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect((parsed?["z"] as? String)?.hasSuffix("é") == true)
    }

    @Test func templatesEscapeFieldTextButNotRenderedMarkdown() throws {
        let templates = try TemplateSet(sources: [
            "layout": ("templates/layout.mustache", "{{{content}}}"), "home": ("h", ""), "list": ("l", ""), "facet": ("f", ""),
            "listing": ("templates/listing.mustache", "<h1 title=\"{{listing.name}}\">{{listing.name}}</h1>{{{listing.bio_html}}}"),
        ])
        let context: Value = .object(["listing": .object(["name": .string("<script>\"x\"</script>&'"), "bio_html": .html("<p>ok</p>")])])
        #expect(templates.render(context, with: "listing") == "<h1 title=\"&lt;script&gt;&quot;x&quot;&lt;/script&gt;&amp;&#39;\">&lt;script&gt;&quot;x&quot;&lt;/script&gt;&amp;&#39;</h1><p>ok</p>")
    }

    @Test func templateErrorsPointIntoTheTemplateFile() {
        do throws(BuildFailure) {
            _ = try TemplateSet(sources: [
                "layout": ("templates/layout.mustache", "<main>\n{{#content}}\n</main>\n"),
                "home": ("templates/home.mustache", "<p>\n  {{> partials/missing}}\n"),
                "list": ("templates/list.mustache", ""), "facet": ("templates/facet.mustache", ""),
            ])
            Issue.record("broken templates were accepted")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "templates/home.mustache:2:3: error: template 'home' includes the partial 'partials/missing', but templates/partials/missing.mustache does not exist",
                "templates/layout.mustache:4:1: error: template syntax error: a section is opened but never closed",
                "templates/listing.mustache:1:1: error: missing template: every site needs templates/listing.mustache",
            ])
        }
    }
}
