import CatalogueIndex
import SiteModel

/// Where the listings of one kind edited in place stand in its lists, so that only the list pages that show
/// them are made again: their positions in the kind's order, and those of their entries in its entries'.
/// A facet value's list is a selection of those positions, so its pages are found without reading it.
struct EditedListings: Sendable {
    /// Ascending positions in the kind's listings.
    let positions: [Int]
    /// Ascending positions in the kind's entries of the edited listings' entries.
    let entryPositions: [Int]
    let pageSize: Int

    /// `positions`: ascending, in the kind's listings.
    init(_ positions: [Int], in collection: KindCollection, pageSize: Int) {
        let slugs = Set(positions.map { collection.listings[$0].slug }), entries = collection.entries
        self.positions = positions
        entryPositions = slugs.isEmpty ? [] : entries.indices.filter { slugs.contains(SiteRenderer.collectionSlug(of: entries[$0])) }
        self.pageSize = pageSize
    }

    /// The pages (counting from 0) of the kind's own list that show an edited listing.
    var kindListPages: [Int] { pages(holding: positions) }

    /// The pages of a facet value's list that show an edited listing, or an entry of one when the facet is
    /// over entries.
    func pages(of value: FacetValue, overEntries: Bool) -> [Int] {
        pages(holding: value.listings.places(ofBasePositions: overEntries ? entryPositions : positions))
    }

    private func pages(holding places: [Int]) -> [Int] {
        Array(Set(places.map { $0 / pageSize })).sorted()
    }
}
