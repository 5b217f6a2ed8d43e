import SiteModel
import Support

/// Some of a kind's listings (or of its entries), in the kind's order, held as their positions in its list:
/// a listing with a value in each of several facets is held once by the kind, not copied into every value's list.
public struct ListingSelection: RandomAccessCollection, Sendable {
    /// The list the positions point into.
    @usableFromInline let base: [Listing]
    @usableFromInline let positions: [UInt32]

    /// The listings of `base` at `positions`, which are in `base`'s order.
    init(_ base: [Listing], at positions: [UInt32]) {
        precondition(positions.last.map { Int($0) < base.count } ?? true, "a position past the list's end")
        self.base = base
        self.positions = positions
    }

    /// The same positions in `base`, which holds the same listings in the same order, changed in place
    /// (compacted, or one listing edited).
    func over(_ base: [Listing]) -> ListingSelection {
        precondition(base.count == self.base.count, "another list: \(base.count) listings for \(self.base.count)")
        return ListingSelection(base, at: positions)
    }

    /// Where its listings stand in the base list, ascending.
    public var basePositions: LazyMapSequence<[UInt32], Int> { positions.lazy.map { Int($0) } }

    /// Where in this selection the listings at `basePositions` of its base list stand, for those it holds;
    /// both in ascending order. Found by halving: the listings themselves are not read.
    public func places(ofBasePositions basePositions: [Int]) -> [Int] {
        basePositions.compactMap { position in
            let place = positions.insertionIndex(of: UInt32(position))
            return place < positions.count && positions[place] == UInt32(position) ? place : nil
        }
    }

    // Inlinable, so that reading one field of a listing through a selection does not copy the whole listing.
    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { positions.count }
    @inlinable public subscript(position: Int) -> Listing { base[Int(positions[position])] }
}

/// A list of a kind's listings (or of its entries) that knows where each one stands in the kind's own list:
/// what is made once per listing of a kind is kept by that position (`CardDigests`).
public protocol PlacedListings: RandomAccessCollection<Listing> where Index == Int {
    /// Where the listing at `index` stands in its kind's list.
    func basePosition(at index: Int) -> Int
}

extension Array: PlacedListings where Element == Listing {
    /// An array is taken as a kind's own list (its listings, or its entries): each listing at its index. What
    /// is kept by position checks the listing it finds there (`CardDigests`).
    public func basePosition(at index: Int) -> Int { index }
}

extension ListingSelection: PlacedListings {
    public func basePosition(at index: Int) -> Int { Int(positions[index]) }
}
