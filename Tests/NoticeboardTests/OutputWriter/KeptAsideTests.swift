import Foundation
import Testing

/// A build removes an earlier output only once it has checked that the folder holds nothing but a build's files;
/// otherwise the folder is kept aside whole, with a warning (`StagedOutput.keptAside`). Each runs the CLI, as people do.
@Suite struct KeptAsideTests {
    /// A site built twice, so that the staging folder holds the first build's output, and the build's record gone
    /// from the cache: the next build removes that output, checking it against its manifest first.
    private static func siteWithAnEarlierOutputToRemove() throws -> String {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        for name in ["Mary Byrne", "Mary Ryan"] {
            TestSupport.write("name: \(name)", to: site + "/content/owners/mary.yaml")
            #expect(try TestSupport.runCLI(["build", "--quiet"], in: site).status == 0)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: site + "/.noticeboard-cache") where name.hasPrefix("build-") {
            TestSupport.removeTree(site + "/.noticeboard-cache/" + name)
        }
        return site
    }

    /// An earlier output that cannot be opened to be looked in (too many files open, say) may hold anything: it is kept
    /// aside whole, and the warning says it could not be checked and why. `failing`: how many of the build's opens of
    /// it fail (nil: every one).
    /// - 1, the check's: taken for one holding only a build's files, as it was, it was removed.
    /// - 2, the check's and then the listing's: listed as empty, as it was, it was removed, with no warning.
    /// - Every one: the build, which cannot open its new staging folder either, fails saying both. Listed as empty,
    ///   it was neither kept nor said, and the failure was blamed on permissions.
    @Test(arguments: [(1, 0), (2, 0), (nil, 1)] as [(Int?, Int32)])
    func anEarlierOutputThatCannotBeOpenedIsKeptWhole(failing: Int?, status: Int32) throws {
        let site = try Self.siteWithAnEarlierOutputToRemove()
        defer { TestSupport.removeTree(site) }
        let earlier = TestSupport.tree(site + "/.public.staging")
        #expect(earlier["api/manifest.json"] != nil)
        let launcher = try failing.map { try TestSupport.failingFirstOpens($0, of: ".public.staging") } ?? TestSupport.failingEveryOpen(of: ".public.staging")
        let build = try TestSupport.runCLI(["build"], in: site, launcher: launcher)
        #expect(build.status == status, "\(build.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.count == 1 && kept.allSatisfy { TestSupport.tree(site + "/" + $0) == earlier }, "\(kept)")
        #expect(build.stderr.hasPrefix(
            "warning: an earlier output could not be checked for files that no build wrote (.public.staging: Too many open files)"), "\(build.stderr)")
        #expect(build.stderr.contains("That folder was kept whole in \(kept.first ?? "?") instead of removed"), "\(build.stderr)")
        let cannotWrite = "\nerror: cannot write the site to public/: .public.staging: Too many open files\n"
        #expect(build.stderr.contains(cannotWrite) == (failing == nil), "\(build.stderr)")
    }

    /// An earlier output whose manifest is there but cannot be read for a moment (too many files open) may hold
    /// anything: it is kept aside whole, with someone's notes in it. Read as absent, as it was, the folder was taken
    /// for one no build judges, and removed with the notes. The check that the folder is an output reads the manifest
    /// first, and it goes through.
    @Test func anEarlierOutputWhoseManifestCannotBeReadIsKeptWhole() throws {
        let site = try Self.siteWithAnEarlierOutputToRemove()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("my notes", to: site + "/.public.staging/assets/notes.txt")
        let launcher = try TestSupport.failingOpen(ofFile: ".public.staging/api/manifest.json", skipping: 1)
        let build = try TestSupport.runCLI(["build"], in: site, launcher: launcher)
        #expect(build.status == 0, "\(build.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.map { TestSupport.read(site + "/" + $0 + "/assets/notes.txt") } == ["my notes"], "\(build.stderr)")
        #expect(build.stderr.hasPrefix("""
            warning: an earlier output could not be checked for files that no build wrote (.public.staging/api/manifest.json: \
            Too many open files)
            """), "\(build.stderr)")
    }

    /// An earlier output that `readdir` fails in part-way (a failing disk) may hold anything past where it stopped: it
    /// is kept aside whole, the warning saying why. Read as the end of the folder, as it was, the check missed the file
    /// someone put there and the removal began, stopping at that file and leaving the folder marked as one checked:
    /// the next build removed it, with no warning.
    @Test func anEarlierOutputThatCannotBeReadThroughIsKeptWhole() throws {
        let site = try Self.siteWithAnEarlierOutputToRemove()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("my own notes", to: site + "/.public.staging/assets/stranger.txt")
        let earlier = TestSupport.tree(site + "/.public.staging")
        let build = try TestSupport.runCLI(["build"], in: site, launcher: TestSupport.failingReaddir(at: "stranger.txt"))
        #expect(build.stderr.hasPrefix(
            "warning: an earlier output could not be checked for files that no build wrote (.public.staging/assets: Input/output error)"), "\(build.stderr)")
        #expect(try TestSupport.runCLI(["build", "--quiet"], in: site).status == 0)
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.count == 1 && kept.allSatisfy { TestSupport.tree(site + "/" + $0) == earlier }, "\(kept)")
    }
}
