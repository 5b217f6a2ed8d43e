/// Where the listings edited in place stand in their kinds' lists, by kind. An edit in place moves no listing
/// (`Catalogue.replacing`), so what shows them is found from their positions, not by looking for their slugs
/// among every listing of the kind: at 430,000 listings, four such looks took about 7 % of an edit's CPU.
public struct EditedPositions: Sendable {
    /// Ascending positions in the kind's listings, by kind; a kind is here when it counts as edited, even with
    /// no position.
    private var byKind: [String: [Int]] = [:]

    public init() {}

    /// The positions of the listings with these slugs, by kind, found in `catalogue`; a kind given with no
    /// slug counts as edited with no listing.
    public init(slugs: [String: Set<String>], in catalogue: Catalogue) {
        for (kind, slugs) in slugs {
            let listings = slugs.isEmpty ? [] : catalogue.collection(kind)?.listings ?? []
            byKind[kind] = listings.indices.filter { slugs.contains(listings[$0].slug) }
        }
    }

    mutating func insert(_ position: Int, ofKind kind: String) {
        var positions = byKind[kind] ?? []
        let place = positions.firstIndex { $0 >= position } ?? positions.count
        if place == positions.count || positions[place] != position { positions.insert(position, at: place) }
        byKind[kind] = positions
    }

    /// The edited listings' positions in the kind's list, ascending; nil when the kind does not count as edited.
    public func positions(ofKind kind: String) -> [Int]? {
        byKind[kind]
    }
}
