@testable import Rendering
import SiteModel
import Support
import Testing

/// A whole build's synced files are read where the writer keeps every file's digest; they must be the
/// table they were made as before: the synced files only, counted, the API root added after.
@Suite struct SyncedFilesTests {
    private static func digest(_ seed: Int) -> FileDigest {
        FileDigest(size: seed, sha256: SHA256.digest(Array("\(seed)".utf8)))
    }

    @Test func aViewOfTheWrittenFilesIsTheTableOfTheSyncedOnes() {
        let paths = (0..<300).map { "api/cleaners/\($0).json" } + (0..<40).map { "cleaners/\($0)/" } + ["api/cleaners.json", "api/manifest.json", "api/index.json"]
        let written = Dictionary(uniqueKeysWithValues: paths.enumerated().map { ($1, Self.digest($0)) })
        @Sendable func isSynced(_ path: String) -> Bool { SyncDocuments.syncs(path) && !SyncDocuments.isDerived(path) }
        let table = written.filter { isSynced($0.key) }
        let view = SyncedFiles(WrittenDigests(written), count: table.count, isSynced: isSynced)
        #expect(table.count == 300)
        #expect(view.table == table)
        #expect(paths.allSatisfy { view[$0] == table[$0] })

        let root = Self.digest(9_999)
        let withRoot = view.adding(SiteRenderer.apiRootPath, root)
        #expect(withRoot.count == 301 && withRoot[SiteRenderer.apiRootPath] == root)
        #expect(withRoot.table == table.merging([SiteRenderer.apiRootPath: root]) { _, new in new })
        // A path it holds takes the new digest and keeps the count.
        let again = withRoot.adding("api/cleaners/7.json", root)
        #expect(again.count == 301 && again["api/cleaners/7.json"] == root)
        #expect(SyncedFiles(again.table).table == again.table)
    }
}
