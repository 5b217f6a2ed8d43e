import Foundation
import Testing

/// Facet values link to their pages wherever pages show them; breadcrumbs lead up to the kind and facet; a
/// facet value's page lists the other facets' values within it as searches for both.
@Suite struct FacetLinksTests {
    func build(removing templates: [String] = []) throws -> [String: String] {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        for template in templates { try FileManager.default.removeItem(atPath: site + "/templates/" + template) }
        return try TestSupport.buildTree(site).compactMapValues { String(data: $0, encoding: .utf8) }
    }

    @Test func listingPagesLinkFacetValuesAndLeadBackUp() throws {
        let pages = try build()
        let aoife = pages["cleaners/aoife-byrne/index.html"] ?? ""
        #expect(aoife.contains("<dt>County</dt><dd><a href=\"/catalogue/cleaners/county/cork/\">Cork</a></dd>"))
        #expect(aoife.contains("<a href=\"/catalogue/cleaners/languages/english/\">English</a>, <a href=\"/catalogue/cleaners/languages/irish/\">Irish</a>"))
        #expect(aoife.contains(
            "<nav aria-label=\"Breadcrumb\"><ol class=\"breadcrumb\"><li><a href=\"/catalogue/\">Home</a></li><li><a href=\"/catalogue/cleaners/\">Cleaners</a></li><li><a href=\"/catalogue/cleaners/aoife-byrne/\" aria-current=\"page\">Aoife Byrne</a></li></ol></nav>"))
        #expect((pages["rentals/kayak/index.html"] ?? "").contains("<dt>City</dt><dd><a href=\"/catalogue/rentals/city/galway/\">Galway</a></dd>"))
        // A collection's entries link their facet values too.
        #expect((pages["quotes/on-work/index.html"] ?? "").contains("<a class=\"tag\" href=\"/catalogue/quotes/category/work/\">Work</a>"))
        #expect((pages["cleaners/county/cork/index.html"] ?? "").contains(
            "<li><a href=\"/catalogue/cleaners/county/\">County</a></li><li><a href=\"/catalogue/cleaners/county/cork/\" aria-current=\"page\">Cork</a></li></ol></nav>"))
        #expect((pages["rentals/condition/index.html"] ?? "").contains("<li><a href=\"/catalogue/rentals/condition/\" aria-current=\"page\">Condition</a></li></ol></nav>"))
    }

    /// The navigation marks the entry that links the page itself as the page, and a kind's entry from the
    /// kind's other pages as where they are (`aria-current="true"`), for screen readers to say which is which.
    @Test func theNavigationMarksThePageOrTheKindItIsIn() throws {
        let pages = try build()
        // The navigation's links, once each (the phone menu repeats them), before the breadcrumbs.
        let marked = { (path: String) in
            let header = (pages[path] ?? "").components(separatedBy: "<main").first ?? ""
            return Set(header.components(separatedBy: "<li><a ").filter { $0.contains("aria-current") }.compactMap { $0.components(separatedBy: "</a>").first })
        }
        let cleaners = "href=\"/catalogue/cleaners/\" aria-current=", rentals = "href=\"/catalogue/rentals/\" aria-current="
        #expect(marked("cleaners/index.html") == [cleaners + "\"page\">Cleaners"])
        #expect(marked("cleaners/aoife-byrne/index.html") == [cleaners + "\"true\">Cleaners"])
        #expect(marked("cleaners/county/cork/index.html") == [cleaners + "\"true\">Cleaners"])
        #expect(marked("rentals/map/index.html") == [rentals + "\"true\">Rentals", "href=\"/catalogue/rentals/map/\" aria-current=\"page\">Map"])
        #expect(marked("index.html").isEmpty)
    }

    /// The generic listing template, for kinds without their own, shows a facet's values as links.
    @Test func theGenericListingTemplateLinksFacetValues() throws {
        let kayak = try build(removing: ["rentals/listing.mustache"])["rentals/kayak/index.html"] ?? ""
        #expect(kayak.contains("<a href=\"/catalogue/rentals/category/camping/\">Camping</a>"))
        #expect(kayak.contains("<a href=\"/catalogue/rentals/city/galway/\">Galway</a>"))
    }

    /// Counted at build time from the listings with both values.
    @Test func facetValuePagesOfferTheOtherFacetsWithinThem() throws {
        let pages = try build()
        let cork = pages["cleaners/county/cork/index.html"] ?? ""
        let links = cork.matches(of: /<a href="\/catalogue\/search\/\?kind=cleaners&amp;county=Cork&amp;languages=([A-Za-z]+)">\1<\/a> <span class="count">\((\d+)\)<\/span>/)
        let shown = Dictionary(uniqueKeysWithValues: links.map { (String($0.1), Int($0.2)!) })
        // Recount from the listing files.
        var expected: [String: Int] = [:]
        let folder = TestSupport.repository + "/content/cleaners"
        for file in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let text = TestSupport.read(folder + "/" + file)
            guard text.contains("\ncounty: Cork\n") || text.hasPrefix("county: Cork\n"),
                let line = text.split(separator: "\n").first(where: { $0.hasPrefix("languages: [") })
            else { continue }
            for language in line.dropFirst("languages: [".count).dropLast().split(separator: ",") {
                expected[language.trimmingCharacters(in: .whitespaces), default: 0] += 1
            }
        }
        #expect(!shown.isEmpty && shown == expected)
    }
}
