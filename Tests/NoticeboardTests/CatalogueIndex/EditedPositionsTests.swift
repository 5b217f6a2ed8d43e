@testable import CatalogueIndex
import Enrichment
import Testing

/// Where the listings an edit in place replaced stand (`EditedPositions`, `Catalogue.replacing`).
@Suite struct EditedPositionsTests {
    @Test func replacingListingsRecordsEachPositionOnceInOrder() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        var catalogue = try RenderShareTests.renderer(in: folder).catalogue
        let formatter = DisplayFormatter(language: catalogue.site.language, currency: catalogue.site.currency)
        let cleaners = try #require(catalogue.collection("cleaners")?.listings)
        var positions = EditedPositions()
        for place in [7, 2, 7] {
            var listing = cleaners[place]
            listing.fields["bio"] = .html("<p>Edited at \(place).</p>")
            catalogue = try #require(try catalogue.replacing(listing, formatter: formatter, edited: &positions))
        }
        #expect(positions.positions(ofKind: "cleaners") == [2, 7])
        #expect(positions.positions(ofKind: "rentals") == nil)
        // Found from slugs, the same positions; a kind given without slugs counts as edited with none.
        let found = EditedPositions(slugs: ["cleaners": [cleaners[7].slug, cleaners[2].slug], "rentals": []], in: catalogue)
        #expect(found.positions(ofKind: "cleaners") == [2, 7] && found.positions(ofKind: "rentals") == [])
        #expect(found.positions(ofKind: "quotes") == nil)
    }
}
