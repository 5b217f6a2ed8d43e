import SiteModel
import Support

/// A build's outputs by path: each file's digest, and a page's render key (`BuildState.Output`). At 430,000
/// listings there are 776,000, held twice at a rebuild's peak (the last record's and the new ones); as a
/// `[String: Output]` they were a string each, an 80-byte entry with room for a render key that only a
/// third of them have, and a quarter to five eighths of the table empty. Here the paths are in a
/// `PathTable` and the rest in columns beside them, the render keys apart. Paths are told apart by their bytes,
/// as the file system tells them apart: a composed and a decomposed "é" are two paths.
public struct OutputTable: Sendable {
    private var paths: PathTable
    private var fileDigests: [FileDigest] = []
    /// Each entry's place in `renderKeys`, or `noRenderKey`.
    private var renderKeyPlaces: [Int32] = []
    private var renderKeys: [SHA256.Digest] = []
    /// Entries whose output was taken away; an edit in place drops the derived files, and may make them again.
    private var removed: Set<Int> = []
    private static let noRenderKey: Int32 = -1

    public init(minimumCapacity: Int = 0) {
        paths = PathTable(minimumCapacity: minimumCapacity)
        reserveCapacity(minimumCapacity)
    }

    public var count: Int { paths.count - removed.count }
    public var isEmpty: Bool { count == 0 }
    /// How many entries it has room for.
    var capacity: Int { fileDigests.capacity }

    public subscript(path: String) -> BuildState.Output? {
        get { PathTable.withBytes(of: path) { self[bytes: $0] } }
        set { PathTable.withBytes(of: path) { self[bytes: $0] = newValue } }
    }

    /// By the path's bytes, which must not lie in this table (adding a path may move its bytes).
    subscript(bytes path: UnsafeRawBufferPointer) -> BuildState.Output? {
        get { paths.index(of: path).flatMap(output) }
        set {
            if let newValue {
                set(newValue, at: paths.insert(path).index)
            } else if let index = paths.index(of: path) {
                removed.insert(index)
            }
        }
    }

    public mutating func reserveCapacity(_ count: Int) {
        paths.reserveCapacity(count)
        fileDigests.reserveCapacity(count)
        renderKeyPlaces.reserveCapacity(count)
    }

    /// Calls `body` with each path's bytes and its output, in the order they came.
    func forEachEntry(_ body: (UnsafeRawBufferPointer, BuildState.Output) -> Void) {
        for index in paths.paths.indices {
            if let output = output(at: index) { paths.paths.withBytes(at: index) { body($0, output) } }
        }
    }

    /// Calls `body` with each path's bytes and its output, in the order `String` sorts the paths.
    func forEachSorted(_ body: (UnsafeRawBufferPointer, BuildState.Output) -> Void) {
        for index in paths.paths.sortedIndices() {
            if let output = output(at: index) { paths.paths.withBytes(at: index) { body($0, output) } }
        }
    }

    /// How many paths end with `suffix`, counted without making a string of each.
    public func count(ofPathsEndingWith suffix: String) -> Int {
        let suffix = Array(suffix.utf8)
        var count = 0
        forEachEntry { path, _ in
            if path.count >= suffix.count, path[(path.count - suffix.count)...].elementsEqual(suffix) { count += 1 }
        }
        return count
    }

    /// The paths whose bytes `isIncluded` accepts, with a string made only for each of those.
    public func paths(where isIncluded: (UnsafeRawBufferPointer) -> Bool) -> [String] {
        var found: [String] = []
        forEachEntry { path, _ in
            if isIncluded(path) { found.append(String(decoding: path, as: UTF8.self)) }
        }
        return found
    }

    /// The files' digests by path, read where this table holds them.
    public var digests: WrittenDigests {
        WrittenDigests(lookup: { self[$0]?.digest }, each: { body in forEach { body($0.key, $0.value.digest) } })
    }

    private mutating func set(_ output: BuildState.Output, at index: Int) {
        if index == fileDigests.count {
            fileDigests.append(output.digest)
            renderKeyPlaces.append(Self.noRenderKey)
        } else {
            fileDigests[index] = output.digest
            removed.remove(index)
        }
        guard let renderKey = output.renderKey else {
            renderKeyPlaces[index] = Self.noRenderKey
            return
        }
        if renderKeyPlaces[index] == Self.noRenderKey {
            renderKeyPlaces[index] = Int32(renderKeys.count)
            renderKeys.append(renderKey)
        } else {
            renderKeys[Int(renderKeyPlaces[index])] = renderKey
        }
    }

    private func output(at index: Int) -> BuildState.Output? {
        guard removed.isEmpty || !removed.contains(index) else { return nil }
        let place = renderKeyPlaces[index]
        return BuildState.Output(digest: fileDigests[index], renderKey: place == Self.noRenderKey ? nil : renderKeys[Int(place)])
    }
}

extension OutputTable: Sequence {
    public struct Iterator: IteratorProtocol {
        fileprivate let table: OutputTable
        fileprivate var index = 0

        public mutating func next() -> (key: String, value: BuildState.Output)? {
            while index < table.paths.count {
                defer { index += 1 }
                if let output = table.output(at: index) { return (table.paths.paths[index], output) }
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator {
        Iterator(table: self)
    }

    public var underestimatedCount: Int { count }

    public var keys: LazyMapSequence<OutputTable, String> { lazy.map(\.key) }
    /// The outputs without their paths, which are not made into strings.
    public var values: some Sequence<BuildState.Output> { paths.paths.indices.lazy.compactMap(output) }
}

extension OutputTable: Equatable {
    /// The same outputs at the same paths, in whatever order they came.
    public static func == (left: OutputTable, right: OutputTable) -> Bool {
        guard left.count == right.count else { return false }
        var same = true
        left.forEachEntry { path, output in
            if same, right[bytes: path] != output { same = false }
        }
        return same
    }
}

extension OutputTable: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral entries: (String, BuildState.Output)...) {
        self.init(minimumCapacity: entries.count)
        for (path, output) in entries { self[path] = output }
    }
}
