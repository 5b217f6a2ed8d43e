import Foundation

/// Distinct paths, each at the position it was added in (`PathList`), found by their bytes through an
/// open-addressed index of those positions: the keys of a table of hundreds of thousands of paths without a
/// `String` each, for which a `Dictionary` also kept a quarter to five eighths of its slots empty.
public struct PathTable: Sendable {
    public private(set) var paths = PathList()
    /// Positions in `paths` by their bytes' hash, probed one after the other; `empty` where none. A power
    /// of two in size, and at most half full, so that a probe soon meets an empty slot.
    private var slots: [Int32]
    private static let empty: Int32 = -1

    public init(minimumCapacity: Int = 0) {
        slots = Array(repeating: Self.empty, count: Self.slotCount(for: minimumCapacity))
    }

    public var count: Int { paths.count }

    /// The position of `path`, if it was added.
    public func index(of path: UnsafeRawBufferPointer) -> Int? {
        let slot = slot(of: path)
        return slots[slot] == Self.empty ? nil : Int(slots[slot])
    }

    /// The position of `path`, added at the end if it was not there.
    public mutating func insert(_ path: UnsafeRawBufferPointer) -> (index: Int, inserted: Bool) {
        let slot = slot(of: path)
        if slots[slot] != Self.empty { return (Int(slots[slot]), false) }
        precondition(paths.count < Int32.max, "more paths than a table holds")
        paths.append(bytes: path)
        slots[slot] = Int32(paths.count - 1)
        if paths.count * 2 > slots.count { reindex(slotCount: slots.count * 2) }
        return (paths.count - 1, true)
    }

    /// Room for `count` paths without growing the index.
    public mutating func reserveCapacity(_ count: Int) {
        paths.reserveCapacity(count)
        let wanted = Self.slotCount(for: count)
        if wanted > slots.count { reindex(slotCount: wanted) }
    }

    /// Calls `body` with `path`'s bytes, without copying them when the string holds them in one piece.
    public static func withBytes<Result>(of path: String, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        var path = path
        return path.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// The slot holding `path`'s position, or the empty one where it would go.
    private func slot(of path: UnsafeRawBufferPointer) -> Int {
        let mask = slots.count - 1
        var slot = Self.hash(path) & mask
        while slots[slot] != Self.empty, !paths.hasBytes(at: Int(slots[slot]), equalTo: path) {
            slot = (slot + 1) & mask
        }
        return slot
    }

    private mutating func reindex(slotCount: Int) {
        slots = Array(repeating: Self.empty, count: slotCount)
        let mask = slotCount - 1
        for index in paths.indices {
            var slot = paths.withBytes(at: index, Self.hash) & mask
            while slots[slot] != Self.empty { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }

    /// The least power of two (at least 8) that `count` paths fill at most half of.
    private static func slotCount(for count: Int) -> Int {
        var slots = 8
        while slots < count * 2 { slots *= 2 }
        return slots
    }
}
