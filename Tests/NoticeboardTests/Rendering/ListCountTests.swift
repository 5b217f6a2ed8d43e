import Foundation
@testable import Rendering
import SiteModel
import Testing

/// A list in a template's context counts itself: swift-mustache's `count()` and `empty()` transforms work
/// on every list the build puts there (fields, cards, facet values), since lists reach templates as arrays.
@Suite struct ListCountTests {
    @Test func countAndEmptyTransformsCountLists() throws {
        let templates = try TemplateSet(sources: [
            "layout": ("templates/layout.mustache", "{{{content}}}"), "home": ("h", ""), "list": ("l", ""), "facet": ("f", ""),
            "listing": (
                "templates/listing.mustache",
                "{{count(listing.languages)}} languages;{{#empty(listing.services)}} no services{{/empty(listing.services)}}{{^empty(listing.languages)}} spoken{{/empty(listing.languages)}}"
            ),
        ])
        let context: Value = .object(["listing": .object([
            "languages": .list([.string("Irish"), .string("Polish"), .string("English")]), "services": .list([]),
        ])])
        #expect(templates.render(context, with: "listing") == "3 languages; no services spoken")
    }

    /// The example's templates count the cards and facet values a page holds.
    @Test func aBuiltPageCountsItsCards() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        TestSupport.write(
            "<p id=\"counts\">{{count(listings)}} cards, {{count(kind.facets)}} facets</p>\n" + TestSupport.read(site + "/templates/list.mustache"),
            to: site + "/templates/list.mustache")
        let files = try TestSupport.buildTree(site)
        let rentals = String(decoding: files["rentals/index.html"] ?? Data(), as: UTF8.self)
        #expect(rentals.contains("<p id=\"counts\">14 cards, 3 facets</p>"))
    }
}
