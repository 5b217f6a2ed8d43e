import Foundation
import Support
import Testing

/// Builds killed with SIGKILL, again and again: `public/` must be exactly the previous site or the new one
/// after every kill, and the next build must succeed and clear whatever the killed ones left. (The new site's
/// API documents depend on the build record, which the kills shape: its pages must be the new version's,
/// and its manifest must hold every other file's digest.)
@Suite struct KilledBuildTests {
    /// What the build record does not shape: every file but the API's.
    static func pages(_ tree: [String: Data]) -> [String: Data] { tree.filter { !$0.key.hasPrefix("api/") } }

    /// The manifest lists every other file with its SHA-256: no file of another build is mixed in.
    static func manifestHolds(_ tree: [String: Data]) -> Bool {
        guard let manifest = tree["api/manifest.json"], let document = try? JSONSerialization.jsonObject(with: manifest) as? [String: Any],
            let files = document["files"] as? [[String: Any]]
        else { return false }
        let listed = Dictionary(uniqueKeysWithValues: files.map { ($0["path"] as? String ?? "", $0["sha256"] as? String ?? "") })
        return Set(listed.keys) == Set(tree.keys).subtracting(["api/manifest.json"])
            && listed.allSatisfy { path, digest in tree[path].map { SHA256.hex([UInt8]($0)) } == digest }
    }

    @Test(.timeLimit(.minutes(3))) func aKilledBuildLeavesThePreviousOrTheNewSite() throws {
        // The example site with each cleaner 25 times over, so that a build takes long enough to be hit.
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let cleaners = site + "/content/cleaners/"
        for name in try FileManager.default.contentsOfDirectory(atPath: cleaners) {
            for copy in 1...25 {
                try FileManager.default.copyItem(atPath: cleaners + name, toPath: cleaners + "\(copy)-" + name)
            }
        }
        // Two versions of the site, which differ in one listing and in the layout (so that every page is written
        // again, and writing takes long enough to be hit), not in the size of any file: a build killed after its
        // swap but before it saved its state must not make the next one take the files for the others.
        let listing = cleaners + "aoife-byrne.yaml", layout = site + "/templates/layout.mustache"
        let versions = [
            [listing: TestSupport.read(listing), layout: TestSupport.read(layout)],
            // A rate, not a name: a new word would change the size of the search index's term files.
            [listing: TestSupport.read(listing).replacing("hourly_rate: 19.50", with: "hourly_rate: 18.50"),
             layout: TestSupport.read(layout).replacing("site-footer", with: "site-fouter")],
        ]
        func write(_ version: [String: String]) {
            for (path, text) in version { TestSupport.write(text, to: path) }
        }
        var trees: [[String: Data]] = []
        for version in versions {
            write(version)
            let reference = TestSupport.temporaryFolder()
            defer { TestSupport.removeTree(reference) }
            #expect(try TestSupport.runCLI(["build", "--output", reference + "/public"], in: site).status == 0)
            trees.append(TestSupport.tree(reference + "/public"))
        }
        #expect(trees[0] != trees[1] && trees[0].count > 700)
        #expect(trees[0].mapValues(\.count) == trees[1].mapValues(\.count), "the two versions should differ in bytes only")
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)  // version 1, now in public/
        // The rounds below are incremental builds after one edit: time one, so that kills fall all through it.
        write(versions[0])
        let started = Date()
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)
        let buildSeconds = Date().timeIntervalSince(started)
        var current = 0

        var random = SystemRandomNumberGenerator()
        var killed = 0, killedWhileWriting = 0, killedAfterSwap = 0, leftPrevious = 0, leftNew = 0
        let log = site + "/../" + UUID().uuidString + ".stderr"
        defer { TestSupport.removeTree(log) }
        func publicFolder() -> ino_t {
            var info = stat()
            return stat(site + "/public", &info) == 0 ? info.st_ino : 0
        }
        /// The staging folder's inode and change time: a new folder may get the inode number of the one removed.
        func stagingStamp() -> String {
            var info = stat()
            guard stat(site + "/.public.staging", &info) == 0 else { return "" }
            return "\(info.st_ino) \(info.st_ctim.tv_sec) \(info.st_ctim.tv_nsec)"
        }
        // Present while the staging folder holds the site before last as the build state says; a build removes
        // it before bringing that folder up to date, or stages a new folder when it is absent.
        func stagingMarker() -> Bool {
            let cache = site + "/.noticeboard-cache/"
            return ((try? FileManager.default.contentsOfDirectory(atPath: cache)) ?? []).contains { $0.hasSuffix(".staged") }
        }
        let rounds = 18
        for round in 0..<rounds {
            let next = 1 - current
            write(versions[next])
            let before = publicFolder(), stagingBefore = stagingStamp(), markerBefore = stagingMarker()
            let previousSite = TestSupport.tree(site + "/public")
            // Writing has begun once the marker is gone (reusing the staging folder) or the staging folder changed
            // (cleared and staged anew).
            func writing() -> Bool { markerBefore ? !stagingMarker() : !stagingStamp().isEmpty && stagingStamp() != stagingBefore }
            let build = try TestSupport.startCLI(["build", "--quiet"], in: site, stderr: log)
            switch round % 3 {
            case 0:
                // Anywhere in the build: reading, rendering, writing, swapping, clearing the previous site away
                // and saving the build's state; a little past its usual end, as a build may be slower.
                usleep(UInt32.random(in: 0...UInt32(buildSeconds * 1_200_000), using: &random))
            case 1:
                // While pages are being written to the staging folder: bringing it up to date takes a few
                // milliseconds, staging every file anew (after a kill) longer.
                let deadline = Date().addingTimeInterval(30)
                while build.isRunning, !writing(), Date() < deadline { usleep(100) }
                usleep(UInt32.random(in: 0...(markerBefore ? 500 : 3_000), using: &random))
            default:
                // Right after the swap, while the previous site is cleared away and before the state is saved.
                let deadline = Date().addingTimeInterval(30)
                while build.isRunning, publicFolder() == before, Date() < deadline { usleep(200) }
            }
            let swapped = publicFolder() != before
            if build.isRunning {
                kill(build.processIdentifier, SIGKILL)
            }
            build.waitUntilExit()
            let now = TestSupport.tree(site + "/public")
            let isNew = now != previousSite && Self.pages(now) == Self.pages(trees[next]) && Self.manifestHolds(now)
            #expect(now == previousSite || isNew, "round \(round): public/ is neither the previous site nor the new one")
            if build.terminationReason == .uncaughtSignal && build.terminationStatus == SIGKILL {
                killed += 1
                if swapped { killedAfterSwap += 1 } else if writing() { killedWhileWriting += 1 }
                if isNew { leftNew += 1 } else { leftPrevious += 1 }
            }
            if isNew { current = next }
        }
        print(
            "KilledBuildTests: \(killed) of \(rounds) builds killed (\(killedWhileWriting) while writing pages, \(killedAfterSwap) after the swap): "
                + "\(leftPrevious) left the previous site, \(leftNew) the new one")
        #expect(killedWhileWriting >= 4, "too few kills landed while pages were written to test much")
        #expect(killedAfterSwap >= 2, "too few kills landed after the swap to test much")

        let last = try TestSupport.runCLI(["build"], in: site)
        #expect(last.status == 0, "\(last.stderr)")
        let final = TestSupport.tree(site + "/public")
        #expect(Self.pages(final) == Self.pages(trees[versions.firstIndex { $0[listing] == TestSupport.read(listing) }!]))
        #expect(Self.manifestHolds(final))
        // Beside them only the staging folder, holding the site before (for the next build to bring up to date).
        let names = try FileManager.default.contentsOfDirectory(atPath: site).sorted()
        #expect(names.filter { $0 != ".public.staging" } == [".noticeboard-cache", "content", "public", "static", "templates"])
        if names.contains(".public.staging") {
            let staged = TestSupport.tree(site + "/.public.staging")
            #expect(trees.map(Self.pages).contains(Self.pages(staged)) && Self.manifestHolds(staged), "the staging folder holds a complete site")
        }
    }
}
