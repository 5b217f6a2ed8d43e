import CatalogueIndex
import Foundation
@testable import Noticeboard
@testable import Rendering
import SiteLoader
import SiteModel
import SiteValidation
import Support
import Testing

/// `TemplateContextShape` is what the template name check holds templates to, so it must describe every name
/// the build really puts in a context: here every page of the example site (and each feed item) is made as a
/// build makes it, and each name path in its context must be in the shape of its role.
@Suite struct TemplateContextShapeTests {
    /// A page's context with what describes it.
    struct Made {
        let what: String
        let role: TemplateContextShape.Role
        let kinds: [KindSchema]
        let context: Value
    }

    @Test func everyNameInTheExampleSitesContextsIsDescribed() throws {
        let root = TestSupport.makeSite()
        defer { TestSupport.removeTree(root) }
        let site = try LoadedSite(files: SiteFiles(root: root))
        var stages = StageTimes()
        let catalogue = try Noticeboard.enrichAndIndex(site, buildDate: TestSupport.now, stages: &stages).catalogue
        let renderer = SiteRenderer(catalogue: catalogue, templates: site.templates)
        let shapes = TemplateContextShape(schemas: site.schemas)
        var made: [Made] = [
            Made(what: "home", role: .home, kinds: [], context: renderer.homePage().context.value),
            Made(what: "search", role: .search, kinds: [], context: renderer.searchPage().context.value),
            Made(what: "404", role: .notFound, kinds: [], context: renderer.notFoundPage().context.value),
        ] + catalogue.pages.map { Made(what: $0.slug, role: .freePage, kinds: [], context: renderer.freePage($0).context.value) }
        for collection in catalogue.kinds {
            let kinds = [collection.schema], name = collection.schema.name
            made += collection.listings.prefix(collection.schema.feeds.isEmpty ? 0 : 3).map { listing in
                Made(what: "\(name) feed item", role: .feedItem, kinds: kinds, context: renderer.feedItemContext(listing))
            }
            guard collection.schema.hasPages else { continue }
            let allPages = { (count: Int) in Array(0..<Pagination<Listing>.count(of: count, size: catalogue.site.pageSize)) }
            made += renderer.indexPages(collection, pages: allPages(collection.listings.count), links: MadeByFirstReader(), cardDigests: .none).map { Made(what: $0.path, role: .list, kinds: kinds, context: $0.context.value) }
            made += collection.listings.map { Made(what: $0.outputPath, role: .listing, kinds: kinds, context: renderer.listingPage($0, in: collection).context.value) }
            for facet in collection.facets {
                made.append(Made(what: "\(name) \(facet.field.name)", role: .facet, kinds: kinds, context: renderer.facetPage(facet, in: collection).context.value))
                for value in facet.values {
                    made += renderer.facetValuePages(
                        value, of: facet, in: collection, pages: allPages(value.listings.count), links: MadeByFirstReader(),
                        combined: renderer.combinedFilters(value, of: facet, in: collection), cardDigests: .none).map {
                        Made(what: $0.path, role: .list, kinds: kinds, context: $0.context.value)
                    }
                }
            }
            made += (renderer.mapPage(collection).map { [$0] } ?? []).map { Made(what: $0.path, role: .map, kinds: kinds, context: $0.context.value) }
            made += renderer.dailyPages(collection).map { Made(what: $0.path, role: .dailyDay, kinds: kinds, context: $0.context.value) }
            made += (renderer.dailyIndexPage(collection).map { [$0] } ?? []).map { Made(what: $0.path, role: .dailyIndex, kinds: kinds, context: $0.context.value) }
        }
        #expect(made.count > 100)
        for page in made {
            let undescribed = shapes.shape(of: page.role, kinds: page.kinds).undescribedPaths(in: page.context)
            #expect(
                undescribed.isEmpty,
                "\(page.what)'s context holds \(undescribed.prefix(5)), which Sources/Rendering/TemplateContextShape.swift does not describe: add each where its object is described there, and to README.md's table of what templates see")
        }
    }

    /// The check above can fail: a name the shape does not have is found, however deep.
    @Test func aNameTheShapeLacksIsFound() {
        let shape = ContextShape.object(["page": .object(["title": .value]), "listings": .list(.object(["title": .value]))])
        let context: Value = .object([
            "page": .object(["title": .string("Home"), "og_image": .string("/a.png")]),
            "listings": .list([.object(["title": .string("A")]), .object(["title": .string("B"), "stars": .int(4)])]),
        ])
        #expect(shape.undescribedPaths(in: context) == ["page.og_image", "listings[].stars"])
    }
}
