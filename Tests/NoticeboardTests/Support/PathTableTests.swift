import Support
import Testing

/// Paths found by their bytes keep the position they were added at, through the index's growth.
@Suite struct PathTableTests {
    private func index(of path: String, in table: PathTable) -> Int? {
        PathTable.withBytes(of: path) { table.index(of: $0) }
    }

    private func insert(_ path: String, into table: inout PathTable) -> (index: Int, inserted: Bool) {
        PathTable.withBytes(of: path) { table.insert($0) }
    }

    @Test func findsEachPathAtItsPositionAsTheIndexGrows() {
        var table = PathTable()
        let paths = (0..<5_000).map { "catalogue/cleaners/\($0)/index.html" } + ["", "content/\u{e9}te.yaml", "content/e\u{301}te.yaml"]
        for (position, path) in paths.enumerated() {
            #expect(insert(path, into: &table) == (position, true))
        }
        #expect(table.count == paths.count)
        for (position, path) in paths.enumerated() {
            #expect(index(of: path, in: table) == position)
            #expect(table.paths[position] == path)
        }
        // Found again, not added twice; a composed and a decomposed name are two paths.
        #expect(insert(paths[17], into: &table) == (17, false))
        #expect(index(of: paths[paths.count - 1], in: table) == paths.count - 1)
        #expect(index(of: "catalogue/cleaners/5000/index.html", in: table) == nil)
        #expect(table.count == paths.count)
    }

    @Test func aReservedTableFindsWhatItHolds() {
        var table = PathTable(minimumCapacity: 3)
        table.reserveCapacity(1_000)
        for path in ["b", "a", "c"] { _ = insert(path, into: &table) }
        #expect(["a", "b", "c", "d"].map { index(of: $0, in: table) } == [1, 0, 2, nil])
    }
}
