import Support
import Testing

/// Paths held as bytes in one buffer give back the strings they were given, in order.
@Suite struct PathListTests {
    let paths = ["content/cleaners/ana-kowalska.yaml", "", "a", "content/ｆｕｌｌ/ĉu-ŝi.yaml", "content/e\u{301}te.yaml"]

    func made(_ paths: [String]) -> PathList {
        var list = PathList()
        for path in paths { list.append(path) }
        return list
    }

    @Test func givesBackEachPathInOrder() {
        let list = made(paths)
        #expect(list.count == paths.count)
        #expect(list.indices.map { list[$0] } == paths)
        // Bytes as given: a decomposed name is not composed on the way.
        #expect(Array(list[4].utf8) == Array(paths[4].utf8))
    }

    @Test func appendingAnotherListKeepsBothInOrder() {
        var first = made(Array(paths.prefix(2)))
        first.append(contentsOf: made(Array(paths.dropFirst(2))))
        #expect(first == made(paths))
        #expect(first.indices.map { first[$0] } == paths)
    }

    @Test func removingLeavesTheOthersInOrder() {
        let kept = made(paths).removing([0, 3])
        #expect(kept.indices.map { kept[$0] } == [paths[1], paths[2], paths[4]])
        #expect(made(paths).removing([]) == made(paths))
    }

    /// By bytes, not as `String` compares: a composed and a decomposed "é" are two paths on disk.
    @Test func comparesPathsByTheirBytes() {
        let list = made(paths), other = made(["x", "content/cleaners/ana-kowalska.yaml", "content/\u{e9}te.yaml"])
        #expect(list.hasSameBytes(at: 0, as: other, at: 1))
        #expect(!list.hasSameBytes(at: 0, as: other, at: 0))
        #expect(!list.hasSameBytes(at: 4, as: other, at: 2))
        #expect(list[4] == other[2])
    }

    /// In the order `String` sorts them: by bytes when all are ASCII, as strings otherwise, where a decomposed
    /// "é" ("e" and a combining accent) sorts after "f" as the composed one does.
    @Test func sortsIndicesAsStringsSort() {
        let ascii = ["b/a", "a", "a/b", "", "ab", "a-b", "B", "a/b/c", "a"]
        #expect(made(ascii).sortedIndices().map { ascii[$0] } == ascii.sorted())
        let mixed = ascii + ["e\u{301}", "f", "\u{e9}a", "ｆ"]
        #expect(mixed.sorted().firstIndex(of: "f")! < mixed.sorted().firstIndex(of: "e\u{301}")!)
        #expect(made(mixed).sortedIndices().map { mixed[$0] } == mixed.sorted())
    }

    /// Copied in that order, as bytes: a decomposed name stays decomposed.
    @Test func aSortedCopyHoldsThePathsAsStringsSortThem() {
        let mixed = paths + ["b/a", "a/b", "f", "e\u{301}"]
        let sorted = made(mixed).sortedAsStrings()
        #expect(Array(sorted) == mixed.sorted())
        #expect(sorted.map { Array($0.utf8) } == mixed.sorted().map { Array($0.utf8) })
        #expect(PathList(mixed) == made(mixed) && PathList().sortedAsStrings().isEmpty)
    }

    @Test func shrinkingKeepsThePaths() {
        var list = made(paths)
        list.shrinkToFit()
        #expect(list == made(paths))
    }
}
