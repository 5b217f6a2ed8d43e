import CatalogueIndex
@testable import Rendering
import SiteModel
import Testing

/// The links to facet value pages, made once for a render: each leads to the page its value has, and a text
/// no facet holds is given the path its slug makes.
@Suite struct FacetValuePathsTests {
    @Test func eachValueLinksTheFolderOfItsOwnPage() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let catalogue = try RenderShareTests.renderer(in: folder).catalogue
        let paths = FacetValuePaths(catalogue), site = catalogue.site
        var checked = 0
        for collection in catalogue.kinds {
            let kind = collection.schema.name
            for facet in collection.facets {
                for value in facet.values {
                    #expect(paths.path(kind: kind, field: facet.field.name, text: value.text) == site.path(facet.outputPath(kind: kind) + value.slug + "/"))
                    checked += 1
                }
            }
        }
        #expect(checked > 20)
        #expect(paths.path(kind: "cleaners", field: "county", text: "Tír na nÓg") == site.path("cleaners/county/tir-na-nog/"))
        #expect(paths.path(kind: "nowhere", field: "county", text: "Cork") == site.path("nowhere/county/cork/"))
    }
}
