@testable import CatalogueIndex
import Enrichment
import SiteModel
import Testing

/// A facet value's listings are positions in its kind's list: they must still be the listings with that value,
/// in the kind's order, once the catalogue is compacted or a listing is edited in place.
@Suite struct FacetMembersTests {
    /// Each value's listings, by slug, as the kind's listings (or entries) that have it.
    func expectMembersMatch(_ catalogue: Catalogue) {
        for collection in catalogue.kinds {
            for facet in collection.facets {
                let base = collection.schema.facetIsOverEntries(facet.field.name) ? collection.entries : collection.listings
                for value in facet.values {
                    let expected = base.filter { facetTexts($0.fields[facet.field.name]).contains(value.text) }.map(\.slug)
                    #expect(value.listings.map(\.slug) == expected, "\(collection.schema.name) \(facet.field.name)=\(value.text)")
                }
            }
        }
    }

    @Test func valuesHoldTheListingsWithThemInTheKindsOrder() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let catalogue = try RenderShareTests.renderer(in: folder).catalogue
        #expect(catalogue.kinds.contains { $0.facets.contains { $0.values.contains { $0.listings.count > 1 } } })
        expectMembersMatch(catalogue)
        expectMembersMatch(catalogue.withoutSourceDetails())
    }

    @Test func anEditInPlaceIsSeenThroughItsValues() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let catalogue = try RenderShareTests.renderer(in: folder).catalogue
        let cleaners = try #require(catalogue.collection("cleaners"))
        var edited = cleaners.listings[3]
        edited.fields["bio"] = .html("<p>Edited in place.</p>")
        var positions = EditedPositions()
        let updated = try #require(try catalogue.replacing(
            edited, formatter: DisplayFormatter(language: catalogue.site.language, currency: catalogue.site.currency), edited: &positions))
        #expect(positions.positions(ofKind: "cleaners") == [3] && positions.positions(ofKind: "rentals") == nil)
        let facet = try #require(updated.collection("cleaners")?.facets.first)
        let shown = facet.values.flatMap(\.listings).filter { $0.slug == edited.slug }
        #expect(!shown.isEmpty && shown.allSatisfy { $0.fields["bio"] == .html("<p>Edited in place.</p>") })
        expectMembersMatch(updated)
    }
}
