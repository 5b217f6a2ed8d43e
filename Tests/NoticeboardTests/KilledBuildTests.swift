import Foundation
import Testing

/// Builds killed with SIGKILL, again and again: `public/` must be exactly the previous site or the new one
/// after every kill, and the next build must succeed and clear whatever the killed ones left.
@Suite struct KilledBuildTests {
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
        // Two versions of the site, which differ in one listing.
        let changing = cleaners + "aoife-byrne.yaml"
        let versions = [TestSupport.read(changing), TestSupport.read(changing).replacing("Aoife Byrne", with: "Aoife Byrne-Kelly")]
        var trees: [[String: Data]] = []
        var buildSeconds = 0.0
        for version in versions {
            TestSupport.write(version, to: changing)
            let reference = TestSupport.temporaryFolder()
            defer { TestSupport.removeTree(reference) }
            let started = Date()
            #expect(try TestSupport.runCLI(["build", "--output", reference + "/public"], in: site).status == 0)
            buildSeconds = max(buildSeconds, Date().timeIntervalSince(started))
            trees.append(TestSupport.tree(reference + "/public"))
        }
        #expect(trees[0] != trees[1] && trees[0].count > 700)
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)  // version 1, now in public/
        var current = 1

        var random = SystemRandomNumberGenerator()
        var killedWhileWriting = 0
        let log = site + "/../" + UUID().uuidString + ".stderr"
        defer { TestSupport.removeTree(log) }
        for round in 0..<16 {
            let next = 1 - current
            TestSupport.write(versions[next], to: changing)
            let build = try TestSupport.startCLI(["build", "--quiet"], in: site, stderr: log)
            if round.isMultiple(of: 2) {
                // Anywhere in the build: reading, rendering, writing or swapping.
                usleep(UInt32.random(in: 0...UInt32(buildSeconds * 1_000_000), using: &random))
            } else {
                // While pages are being written to the staging folder.
                _ = TestSupport.eventually(within: 30) { FileManager.default.fileExists(atPath: site + "/.public.staging") }
                usleep(UInt32.random(in: 0...30_000, using: &random))
            }
            if build.isRunning {
                if FileManager.default.fileExists(atPath: site + "/.public.staging") { killedWhileWriting += 1 }
                kill(build.processIdentifier, SIGKILL)
            }
            build.waitUntilExit()
            let now = TestSupport.tree(site + "/public")
            #expect(now == trees[current] || now == trees[next], "round \(round): public/ is neither the previous site nor the new one")
            if now == trees[next] { current = next }
        }
        #expect(killedWhileWriting >= 4, "too few kills landed while pages were written to test much")

        let last = try TestSupport.runCLI(["build"], in: site)
        #expect(last.status == 0, "\(last.stderr)")
        #expect(TestSupport.tree(site + "/public") == trees[versions.firstIndex(of: TestSupport.read(changing))!])
        #expect(try FileManager.default.contentsOfDirectory(atPath: site).sorted() == [".noticeboard-cache", "content", "public", "templates"])
    }
}
