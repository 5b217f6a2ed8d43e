/// Paths in the order they were added, their bytes in one buffer. A large site has a path for each of its
/// hundreds of thousands of files, and a `String` each is an allocation of 80 to 96 bytes for about 44 bytes of
/// text: held this way they take half that.
public struct PathList: Sendable, Equatable {
    private var bytes: [UInt8] = []
    /// Where each path ends in `bytes`; it starts where the one before ends.
    private var ends: [Int] = []

    public init() {}

    public var count: Int { ends.count }
    public var indices: Range<Int> { ends.indices }

    public mutating func append(_ path: String) {
        var path = path
        path.withUTF8 { bytes.append(contentsOf: $0) }
        ends.append(bytes.count)
    }

    /// Those of `other`, after these.
    public mutating func append(contentsOf other: PathList) {
        let offset = bytes.count
        bytes += other.bytes
        ends += other.ends.lazy.map { $0 + offset }
    }

    /// The path at `index`, made as a `String`.
    public subscript(index: Int) -> String {
        String(decoding: bytes[range(of: index)], as: UTF8.self)
    }

    /// Whether the path at `index` has the same bytes as the one at `otherIndex` of `other`, without making either.
    public func hasSameBytes(at index: Int, as other: PathList, at otherIndex: Int) -> Bool {
        bytes[range(of: index)].elementsEqual(other.bytes[other.range(of: otherIndex)])
    }

    /// The paths but those at `indices`, in order.
    public func removing(_ indices: Set<Int>) -> PathList {
        var kept = PathList()
        for index in self.indices where !indices.contains(index) {
            kept.bytes += bytes[range(of: index)]
            kept.ends.append(kept.bytes.count)
        }
        return kept
    }

    /// Room for nothing more than what it holds: a list grown path by path keeps up to twice its size.
    public mutating func shrinkToFit() {
        bytes = bytes.withUnsafeBufferPointer { Array($0) }
        ends = ends.withUnsafeBufferPointer { Array($0) }
    }

    private func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }
}
