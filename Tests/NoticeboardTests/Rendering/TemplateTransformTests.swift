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
}
