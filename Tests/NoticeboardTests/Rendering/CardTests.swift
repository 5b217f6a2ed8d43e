import Foundation
import LocatedYAML
import SchemaValidation
import SiteModel
import Testing

/// Cards declared in a kind's schema (`card:`), or made from its fields, shown the same on lists, facet pages,
/// the home page, an owner's page and in search results.
@Suite struct CardTests {
    /// The card of one listing on a page: from its `<li class="card">` up to the next.
    func card(_ page: String, linking path: String) -> String {
        let cards = page.components(separatedBy: "<li class=\"card\">").dropFirst()
        return cards.first { $0.contains("<a href=\"/catalogue/\(path)\">") }.map { $0.components(separatedBy: "</li>")[0] } ?? ""
    }

    @Test func declaredCardsShowTheSameFieldsWherever() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        func page(_ path: String) -> String { String(decoding: files[path] ?? Data(), as: UTF8.self) }
        let kayak = "<p class=\"card-place\"><a href=\"/catalogue/rentals/city/galway/\">Galway</a></p>\n<p class=\"card-figures\">Price per day: €45.00</p>"
        for path in ["rentals/index.html", "rentals/city/galway/index.html", "owners/aisling-ryan/index.html"] {
            let card = card(page(path), linking: "rentals/kayak/")
            #expect(card.contains(kayak), "\(path): \(card)")
            #expect(card.contains("<img class=\"thumbnail\" src=\"/catalogue/media/rentals/kayak-"), "\(path)")
            #expect(card.contains("Category: <a href=\"/catalogue/rentals/category/"), "\(path)")
        }
        let aoife = card(page("cleaners/index.html"), linking: "cleaners/aoife-byrne/")
        #expect(aoife.contains("<a href=\"/catalogue/cleaners/county/cork/\">Cork</a>") && aoife.contains("Hourly rate: €19.50"))
        #expect(aoife.contains("<p class=\"card-rating\"><span class=\"star-row\" aria-hidden=\"true\">★★★★★</span> Rated 4.7 out of 5 · 3 reviews</p>"))
        #expect(aoife.contains("Languages: <a href=\"/catalogue/cleaners/languages/english/\">English</a>"))
        #expect(card(page("cleaners/languages/irish/index.html"), linking: "cleaners/aoife-byrne/") == aoife)
        // The home page's newest listings have their kind's card too.
        let home = page("index.html").components(separatedBy: "<li class=\"card\">").dropFirst()
        #expect(!home.isEmpty && home.allSatisfy { $0.contains("class=\"card-place\"") })
        // Search results: the same figures, rating, place and tags.
        let search = String(decoding: files["api/search/cards/0.json"] ?? Data(), as: UTF8.self)
        #expect(search.contains("\"cleaners/aoife-byrne/\",\"media/cleaners/aoife-byrne-320w."))
        #expect(search.contains("[\"Hourly rate €19.50\",\"Rating 4.7 out of 5\"],\"Cork · English, Irish\""))
    }

    func schema(_ text: String, kind: String = "cleaners") throws -> (KindSchema?, [Diagnostic]) {
        let file = "content/schemas/\(kind).yaml"
        return decodeKindSchema(try parseYAML(Array(text.utf8), file: file), kind: kind, file: file, knownKinds: ["cleaners", "reviews", "owners"], reservedFacetNames: [:])
    }

    /// Without `card:`: the first image, the first currency-formatted number, the first facet, the first
    /// rating-formatted derived field with the count over the same reviews.
    @Test func aKindWithoutACardGetsOneFromItsFields() throws {
        let text = TestSupport.read(TestSupport.repository + "/content/schemas/cleaners.yaml")
            .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("card:") }.joined(separator: "\n")
        let (schema, problems) = try self.schema(text)
        #expect(problems.isEmpty, "\(problems)")
        #expect(schema?.card == nil)
        #expect(schema?.cardFields == CardFields(photo: "photo", figures: ["hourly_rate"], place: "county", rating: "rating", ratingCount: "review_count"))
        let (bare, _) = try self.schema("title_field: name\nfields:\n  name: string\n  note: markdown\n")
        #expect(bare?.cardFields == CardFields())
    }
}
