import Foundation
import Testing

/// List pages offer the kind's other orders as links to the search page, which fetches only that order's
/// ranks and the cards it shows; a facet value page keeps its value as a filter.
@Suite struct SortChoiceTests {
    @Test func listPagesLinkEachOtherOrderToTheSearchPage() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        func page(_ path: String) -> String { String(decoding: files[path] ?? Data(), as: UTF8.self) }
        #expect(page("cleaners/index.html").contains(
            "Sorted by <strong>Rating weighed by reviews, highest first</strong>; on the search page by <a href=\"/catalogue/search/?kind=cleaners&amp;sort=name\">Name, A to Z</a>"))
        #expect(page("cleaners/county/cork/index.html").contains("<a href=\"/catalogue/search/?kind=cleaners&amp;county=Cork&amp;sort=name\">Name, A to Z</a>"))
        #expect(page("rentals/condition/like-new/index.html").contains("<a href=\"/catalogue/search/?kind=rentals&amp;condition=Like%20new&amp;sort=title\">Title, A to Z</a>"))
        // Every order offered is one the search index has ranks for.
        let meta = try TestSupport.json(files, "api/search/meta.json")
        let kinds = try #require(meta["kinds"] as? [[String: Any]])
        for kind in ["cleaners", "rentals"] {
            let sorts = (kinds.first { $0["name"] as? String == kind }?["sorts"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
            let offered = page("\(kind)/index.html").matches(of: /search\/\?kind=[a-z]+&amp;sort=([a-z_]+)/).map { String($0.1) }
            #expect(!offered.isEmpty && offered.allSatisfy(sorts.contains), "\(kind): \(offered) not in \(sorts)")
        }
        // Entries on a collection's facet pages are not what search sorts.
        #expect(!page("quotes/category/work/index.html").contains("sort-choices"))
    }
}
