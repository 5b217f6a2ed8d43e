import Foundation

/// Paths in the order they were added, their bytes in one buffer. A large site has a path for each of its
/// hundreds of thousands of files, and a `String` each is an allocation of 80 to 96 bytes for about 44 bytes of
/// text: held this way they take half that.
public struct PathList: Sendable, Equatable, RandomAccessCollection {
    private var bytes: [UInt8] = []
    /// Where each path ends in `bytes`; it starts where the one before ends.
    private var ends: [Int] = []

    public init() {}

    public init(_ paths: some Sequence<String>) {
        for path in paths { append(path) }
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.count }
    public var count: Int { ends.count }
    public var indices: Range<Int> { ends.indices }

    public mutating func append(_ path: String) {
        var path = path
        path.withUTF8 { bytes.append(contentsOf: $0) }
        ends.append(bytes.count)
    }

    public mutating func append(bytes path: UnsafeRawBufferPointer) {
        bytes.append(contentsOf: path)
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

    /// The bytes of the path at `index`.
    public func bytes(at index: Int) -> ArraySlice<UInt8> {
        bytes[range(of: index)]
    }

    /// `body` given the bytes of the path at `index`, in place.
    public func withBytes<Result>(at index: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let range = range(of: index)
        return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[range])) }
    }

    /// Whether the path at `index` is `path`, byte for byte.
    public func hasBytes(at index: Int, equalTo path: UnsafeRawBufferPointer) -> Bool {
        let range = range(of: index)
        guard range.count == path.count else { return false }
        return range.isEmpty || bytes.withUnsafeBytes { memcmp($0.baseAddress! + range.lowerBound, path.baseAddress!, range.count) == 0 }
    }

    /// The indices in the order `String` sorts their paths. Paths all in ASCII, as nearly all are, sort so by
    /// their bytes, and are compared without making a string of each.
    public func sortedIndices() -> [Int] {
        var order = Array(indices)
        guard bytes.allSatisfy({ $0 < 0x80 }) else {
            let paths = indices.map { self[$0] }
            order.sort { paths[$0] < paths[$1] }
            return order
        }
        bytes.withUnsafeBufferPointer { buffer in
            order.sort { left, right in
                let (left, right) = (range(of: left), range(of: right))
                let common = Swift.min(left.count, right.count)
                let compared = common == 0 ? 0 : memcmp(buffer.baseAddress! + left.lowerBound, buffer.baseAddress! + right.lowerBound, common)
                return compared != 0 ? compared < 0 : left.count < right.count
            }
        }
        return order
    }

    /// The same paths in the order `String` sorts them, copied as bytes.
    public func sortedAsStrings() -> PathList {
        copying(sortedIndices())
    }

    /// Whether the path at `index` has the same bytes as the one at `otherIndex` of `other`, without making either.
    public func hasSameBytes(at index: Int, as other: PathList, at otherIndex: Int) -> Bool {
        other.withBytes(at: otherIndex) { hasBytes(at: index, equalTo: $0) }
    }

    /// The paths but those at `indices`, in order.
    public func removing(_ indices: Set<Int>) -> PathList {
        copying(self.indices.filter { !indices.contains($0) })
    }

    /// Room for `count` paths (their bytes grow as they come).
    public mutating func reserveCapacity(_ count: Int) {
        ends.reserveCapacity(count)
    }

    /// Room for little more than what it holds: a list grown path by path keeps up to twice its size.
    public mutating func shrinkToFit() {
        if bytes.capacity > bytes.count + bytes.count / 8 { bytes = bytes.withUnsafeBufferPointer { Array($0) } }
        if ends.capacity > ends.count + ends.count / 8 { ends = ends.withUnsafeBufferPointer { Array($0) } }
    }

    /// The paths at `indices`, in that order, copied as bytes.
    private func copying(_ indices: [Int]) -> PathList {
        var copy = PathList()
        copy.ends.reserveCapacity(indices.count)
        for index in indices {
            copy.bytes += bytes[range(of: index)]
            copy.ends.append(copy.bytes.count)
        }
        return copy
    }

    private func range(of index: Int) -> Range<Int> {
        (index == 0 ? 0 : ends[index - 1])..<ends[index]
    }
}
