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
        // Two versions of the site, which differ in one listing and not in the size of any file: a build killed
        // after its swap but before it saved its state must not make the next one take the files for the others.
        let changing = cleaners + "aoife-byrne.yaml"
        let versions = [TestSupport.read(changing), TestSupport.read(changing).replacing("Aoife Byrne", with: "Aoife Beirn")]
        var trees: [[String: Data]] = []
        for version in versions {
            TestSupport.write(version, to: changing)
            let reference = TestSupport.temporaryFolder()
            defer { TestSupport.removeTree(reference) }
            #expect(try TestSupport.runCLI(["build", "--output", reference + "/public"], in: site).status == 0)
            trees.append(TestSupport.tree(reference + "/public"))
        }
        #expect(trees[0] != trees[1] && trees[0].count > 700)
        #expect(trees[0].mapValues(\.count) == trees[1].mapValues(\.count), "the two versions should differ in bytes only")
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)  // version 1, now in public/
        // The rounds below are incremental builds after one edit: time one, so that kills fall all through it.
        TestSupport.write(versions[0], to: changing)
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
        let rounds = 18
        for round in 0..<rounds {
            let next = 1 - current
            TestSupport.write(versions[next], to: changing)
            let before = publicFolder()
            let build = try TestSupport.startCLI(["build", "--quiet"], in: site, stderr: log)
            switch round % 3 {
            case 0:
                // Anywhere in the build: reading, rendering, writing, swapping, clearing the previous site away
                // and saving the build's state; a little past its usual end, as a build may be slower.
                usleep(UInt32.random(in: 0...UInt32(buildSeconds * 1_200_000), using: &random))
            case 1:
                // While pages are being written to the staging folder.
                _ = TestSupport.eventually(within: 30) { FileManager.default.fileExists(atPath: site + "/.public.staging") }
                usleep(UInt32.random(in: 0...30_000, using: &random))
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
            #expect(now == trees[current] || now == trees[next], "round \(round): public/ is neither the previous site nor the new one")
            if build.terminationReason == .uncaughtSignal && build.terminationStatus == SIGKILL {
                killed += 1
                if swapped { killedAfterSwap += 1 } else if FileManager.default.fileExists(atPath: site + "/.public.staging") { killedWhileWriting += 1 }
                if now == trees[next] { leftNew += 1 } else { leftPrevious += 1 }
            }
            if now == trees[next] { current = next }
        }
        print(
            "KilledBuildTests: \(killed) of \(rounds) builds killed (\(killedWhileWriting) while writing pages, \(killedAfterSwap) after the swap): "
                + "\(leftPrevious) left the previous site, \(leftNew) the new one")
        #expect(killedWhileWriting >= 4, "too few kills landed while pages were written to test much")
        #expect(killedAfterSwap >= 2, "too few kills landed after the swap to test much")

        let last = try TestSupport.runCLI(["build"], in: site)
        #expect(last.status == 0, "\(last.stderr)")
        #expect(TestSupport.tree(site + "/public") == trees[versions.firstIndex(of: TestSupport.read(changing))!])
        #expect(try FileManager.default.contentsOfDirectory(atPath: site).sorted() == [".noticeboard-cache", "content", "public", "templates"])
    }
}
