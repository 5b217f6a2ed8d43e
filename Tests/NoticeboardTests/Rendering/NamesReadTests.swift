import CatalogueIndex
import Foundation
@testable import Noticeboard
@testable import Rendering
import SiteLoader
import SiteModel
import SiteValidation
import Testing

/// A page's context holds only the fields its templates can read (`TemplateSet.namesRead(by:)`): the others
/// are neither made nor keyed.
@Suite struct NamesReadTests {
    /// The first name of every tag, in sections, partials, a parent's overrides and blocks' defaults (even where
    /// overridden), with the layout's: names inside a section count, as a name is looked up outward to the
    /// page's own fields.
    @Test func theNamesAreEveryTagsFirstNameThroughWhatATemplateIncludes() throws {
        var sources = Dictionary(uniqueKeysWithValues: TemplateSet.required.map { ($0, (file: "templates/\($0).mustache", text: "")) })
        sources["layout"] = ("templates/layout.mustache", "{{site.title}}{{{content}}}")
        sources["case"] = ("templates/case.mustache", "{{#listing.reviews}}{{text}}{{> partials/p}}{{/listing.reviews}}{{<frame}}{{$title}}{{kind.name}}{{/title}}{{/frame}}{{first()}}{{.}}")
        sources["partials/p"] = ("templates/partials/p.mustache", "{{count(cards)}}{{> partials/p2}}")
        sources["partials/p2"] = ("templates/partials/p2.mustache", "{{^empty(.breadcrumbs)}}x{{/empty(.breadcrumbs)}}")
        sources["frame"] = ("templates/frame.mustache", "{{$title}}{{page.title}}{{/title}}{{$body}}{{json_ld}}{{/body}}")
        let templates = try TemplateSet(sources: sources)
        #expect(templates.namesRead(by: "case") == ["site", "content", "listing", "text", "cards", "breadcrumbs", "kind", "page", "json_ld"])
        #expect(templates.namesRead(by: "home") == ["site", "content"])
    }

    /// In the example site, cleaners have their own listing template, which shows no generic field rows;
    /// quotes, without theirs here, use the site's, which does. Only the second's pages have `fields`, and
    /// the first's have everything their templates show.
    @Test func aListingPageHasOnlyTheFieldsItsTemplatesRead() throws {
        let root = TestSupport.makeSite()
        defer { TestSupport.removeTree(root) }
        try FileManager.default.removeItem(atPath: root + "/templates/quotes/listing.mustache")
        let site = try LoadedSite(files: SiteFiles(root: root))
        var stages = StageTimes()
        let catalogue = try Noticeboard.enrichAndIndex(site, buildDate: TestSupport.now, stages: &stages).catalogue
        let renderer = SiteRenderer(catalogue: catalogue, templates: site.templates)
        func fieldNames(ofKind kind: String) throws -> Set<String> {
            let collection = try #require(catalogue.collection(kind))
            let page = renderer.listingPage(try #require(collection.listings.first), in: collection)
            guard case .object(let fields) = page.context.value else { return [] }
            return Set(fields.keys)
        }
        let cleaners = try fieldNames(ofKind: "cleaners")
        #expect(!cleaners.contains("fields") && !cleaners.contains("entries"))
        #expect(cleaners.isSuperset(of: ["site", "page", "listing", "display", "dates", "facet_links", "breadcrumbs", "json_ld", "sharing"]))
        #expect(try fieldNames(ofKind: "quotes").contains("fields"))
    }
}
