import Foundation
import Testing

/// JSON-LD on listing pages, from each kind's `schema_org` mapping: it parses, carries its schema.org type,
/// leaves out a nested object whose fields are missing, and no value can break out of its `<script>`.
@Suite struct StructuredDataTests {
    @Test func everyMappedListingPageHasOneJSONLDBlockWithItsType() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        for (kind, type) in [("cleaners", "LocalBusiness"), ("rentals", "Product"), ("quotes", "CreativeWork")] {
            let slugs = try FileManager.default.contentsOfDirectory(atPath: TestSupport.repository + "/content/" + kind).map { String($0.dropLast(5)) }
            for slug in slugs {
                let page = try #require(files["\(kind)/\(slug)/index.html"]).text
                let blocks = Self.jsonLDBlocks(in: page)
                #expect(blocks.count == 1, "\(kind)/\(slug)/")
                let block = try #require(blocks.first)
                let document = try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
                #expect(document["@context"] as? String == "https://schema.org")
                #expect(document["@type"] as? String == type)
                #expect(document["url"] as? String == "https://example.org/catalogue/\(kind)/\(slug)/")
            }
        }
        let kayak = try Self.document(files, "rentals/kayak/index.html")
        let offer = try #require(kayak["offers"] as? [String: Any])
        #expect(offer["@type"] as? String == "Offer" && offer["price"] as? Double == 45 && offer["priceCurrency"] as? String == "EUR")
        #expect((kayak["image"] as? [String])?.first?.hasPrefix("https://example.org/catalogue/media/rentals/kayak-") == true)
        let aoife = try Self.document(files, "cleaners/aoife-byrne/index.html")
        let rating = try #require(aoife["aggregateRating"] as? [String: Any])
        #expect(rating["ratingValue"] as? Double == 4.7 && rating["reviewCount"] as? Int == 3)
        #expect((aoife["description"] as? String)?.hasPrefix("I have been cleaning homes around Cork city, Douglas and Ballincollig for over eight years. Most") == true)
        let quotes = try Self.document(files, "quotes/on-work/index.html")
        #expect((quotes["hasPart"] as? [[String: Any]])?.first?["@type"] as? String == "Quotation")
        // Kinds without a mapping have none.
        #expect(try Self.jsonLDBlocks(in: #require(files["owners/aisling-ryan/index.html"]).text).isEmpty)
    }

    @Test func aCleanerWithoutReviewsHasNoAggregateRating() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        for review in try FileManager.default.contentsOfDirectory(atPath: site + "/content/reviews") where review.hasPrefix("aoife-byrne-") {
            try FileManager.default.removeItem(atPath: site + "/content/reviews/" + review)
        }
        let aoife = try Self.document(try TestSupport.buildTree(site), "cleaners/aoife-byrne/index.html")
        #expect(aoife["name"] as? String == "Aoife Byrne")
        #expect(aoife["aggregateRating"] == nil, "a rating of no reviews would mislead")
    }

    @Test func valuesCannotEndTheScriptElement() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let hostile = "Ana </script><script>alert(1)</script> <!-- & -->"
        let file = site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(TestSupport.read(file).replacingOccurrences(of: "name: Aoife Byrne", with: "name: \"\(hostile)\""), to: file)
        let page = try #require(try TestSupport.buildTree(site)["cleaners/aoife-byrne/index.html"]).text
        let block = try #require(Self.jsonLDBlocks(in: page).first)
        #expect(!block.contains("<") && !block.contains(">") && !block.contains("&"))
        #expect(block.contains(#"Ana \u003c/script\u003e"#))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
        #expect(document["name"] as? String == hostile)
        #expect(page.components(separatedBy: "<script").count == 3, "only the menu's script and the JSON-LD script element")
    }

    static func document(_ files: [String: Data], _ path: String) throws -> [String: Any] {
        let page = try #require(files[path]).text
        let block = try #require(jsonLDBlocks(in: page).first, "no JSON-LD in \(path)")
        return try #require(try JSONSerialization.jsonObject(with: Data(block.utf8)) as? [String: Any])
    }

    /// The text of each `<script type="application/ld+json">` element, up to the first `</script>`, as a browser reads it.
    static func jsonLDBlocks(in page: String) -> [String] {
        page.components(separatedBy: #"<script type="application/ld+json">"#).dropFirst().map { $0.components(separatedBy: "</script>")[0] }
    }
}

extension Data {
    fileprivate var text: String { String(decoding: self, as: UTF8.self) }
}
