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
        var view = SyncedFiles(WrittenDigests(written), isSynced: isSynced)
        #expect(view.count == 300 && table.count == 300)
        #expect(view.table == table)
        #expect(paths.allSatisfy { view[$0] == table[$0] })

        let root = Self.digest(9_999)
        view.add(SiteRenderer.apiRootPath, root)
        var withRoot = table
        withRoot[SiteRenderer.apiRootPath] = root
        #expect(view.count == 301 && view.table == withRoot)
        // A path it holds takes the new digest and keeps the count.
        view.add("api/cleaners/7.json", root)
        withRoot["api/cleaners/7.json"] = root
        #expect(view.count == 301 && view.table == withRoot)
        var visited = 0
        view.forEach { path, digest in
            visited += 1
            #expect(withRoot[path] == digest)
        }
        #expect(visited == 301)
    }

    /// The files made from the others' digests, told apart by the path's bytes as by the string.
    @Test func theDerivedFilesAreTheSyncFolderTheManifestAndTheAPIRoot() {
        let derived = ["api/sync/", "api/sync/4/changes.json", "api/manifest.json", "api/index.json"]
        let others = ["api/syncs.json", "api/manifest.json.gz", "api/index.json/", "api/cleaners/index.json", "sync/api/", ""]
        #expect(derived.allSatisfy { SyncDocuments.isDerived($0) && Array($0.utf8).withUnsafeBytes(SyncDocuments.isDerived) })
        #expect(!others.contains { SyncDocuments.isDerived($0) || Array($0.utf8).withUnsafeBytes(SyncDocuments.isDerived) })
    }

    /// The table an edit in place keeps is changed and handed on as it is, the same files as a view would hold.
    @Test func aTableAddsAsAViewDoes() {
        let table = Dictionary(uniqueKeysWithValues: (0..<50).map { ("api/rentals/\($0).json", Self.digest($0)) })
        var kept = SyncedFiles(table)
        var view = SyncedFiles(WrittenDigests(table)) { _ in true }
        for (path, seed) in [("api/index.json", 1), ("api/rentals/3.json", 2), ("api/rentals/new.json", 3)] {
            kept.add(path, Self.digest(seed))
            view.add(path, Self.digest(seed))
            #expect(kept.count == view.count && kept.table == view.table)
        }
        #expect(kept.count == 52)
    }
}
