import Support

/// Input entries and their stamps in the order a scan listed them, the paths held as bytes (`PathList`): at
/// 430,000 inputs, a string and a stamp each took 75 MB for the whole build.
struct StampList: Sendable, Equatable {
    private(set) var paths = PathList()
    private(set) var stamps: [InputStamp] = []

    init() {}

    /// The entries of a table, in its order.
    init(_ table: [String: InputStamp]) {
        for (path, stamp) in table { append(path, stamp) }
    }

    var count: Int { stamps.count }
    var indices: Range<Int> { stamps.indices }

    subscript(index: Int) -> (path: String, stamp: InputStamp) {
        (paths[index], stamps[index])
    }

    mutating func append(_ path: String, _ stamp: InputStamp) {
        paths.append(path)
        stamps.append(stamp)
    }

    /// Those of `other`, after these.
    mutating func append(contentsOf other: StampList) {
        paths.append(contentsOf: other.paths)
        stamps += other.stamps
    }

    mutating func setStamp(_ stamp: InputStamp, at index: Int) {
        stamps[index] = stamp
    }

    /// The entries but those at `indices`, in order.
    func removing(_ indices: Set<Int>) -> StampList {
        var kept = StampList()
        kept.paths = paths.removing(indices)
        kept.stamps = self.indices.filter { !indices.contains($0) }.map { stamps[$0] }
        return kept
    }

    /// The entries as a table. Paths from one walk of the folders are unique.
    var table: [String: InputStamp] {
        Dictionary(indices.lazy.map { (self.paths[$0], self.stamps[$0]) }, uniquingKeysWith: { $1 })
    }

    /// Room for little more than it holds: grown run by run, it kept up to twice its size.
    mutating func shrinkToFit() {
        paths.shrinkToFit()
        if stamps.capacity > count + count / 8 { stamps = stamps.withUnsafeBufferPointer { Array($0) } }
    }
}
