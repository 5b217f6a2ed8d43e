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

    /// An earlier output that cannot be opened to be checked (too many files open, say) may hold anything: it is kept
    /// aside whole, and the warning says it could not be checked and why. Taken for one holding only a build's files,
    /// as it was, it was removed.
    @Test func anEarlierOutputThatCannotBeOpenedToBeCheckedIsKeptWhole() throws {
        let site = try Self.siteWithAnEarlierOutputToRemove()
        defer { TestSupport.removeTree(site) }
        let earlier = TestSupport.tree(site + "/.public.staging")
        #expect(earlier["api/manifest.json"] != nil)
        let build = try TestSupport.runCLI(["build"], in: site, launcher: TestSupport.failingFirstOpen(of: ".public.staging"))
        #expect(build.status == 0, "\(build.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.count == 1 && kept.allSatisfy { TestSupport.tree(site + "/" + $0) == earlier }, "\(kept)")
        #expect(build.stderr.hasPrefix(
            "warning: an earlier output could not be checked for files that no build wrote (.public.staging: Too many open files)"), "\(build.stderr)")
        #expect(build.stderr.contains("That folder was kept whole in \(kept.first ?? "?") instead of removed"), "\(build.stderr)")
    }

    /// An earlier output that can be opened neither to be checked nor to be listed, and then can (too many files were
    /// open for a moment), may hold anything: it is kept aside whole, and the build goes on. Listed as empty, as it was,
    /// it was removed, with no warning.
    @Test func anEarlierOutputThatCannotBeListedForAMomentIsKeptWhole() throws {
        let site = try Self.siteWithAnEarlierOutputToRemove()
        defer { TestSupport.removeTree(site) }
        let earlier = TestSupport.tree(site + "/.public.staging")
        let build = try TestSupport.runCLI(["build"], in: site, launcher: TestSupport.failingFirstOpens(2, of: ".public.staging"))
        #expect(build.status == 0, "\(build.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.count == 1 && kept.allSatisfy { TestSupport.tree(site + "/" + $0) == earlier }, "\(kept)")
        #expect(build.stderr.hasPrefix(
            "warning: an earlier output could not be checked for files that no build wrote (.public.staging: Too many open files)"), "\(build.stderr)")
    }

    /// An earlier output that can be opened neither to be checked nor to be listed (every open of it fails) may hold
    /// anything: it is kept aside whole, never removed, and the build, which cannot open its new staging folder
    /// either, fails saying both. Listed as empty, as it was, it was neither kept nor said: the build failed
    /// with its staging folder "left by an earlier build" and blamed on permissions.
    @Test func anEarlierOutputThatCannotBeOpenedToBeListedIsKeptWhole() throws {
        let site = try Self.siteWithAnEarlierOutputToRemove()
        defer { TestSupport.removeTree(site) }
        let earlier = TestSupport.tree(site + "/.public.staging")
        let build = try TestSupport.runCLI(["build"], in: site, launcher: TestSupport.failingEveryOpen(of: ".public.staging"))
        #expect(build.status == 1, "\(build.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.count == 1 && kept.allSatisfy { TestSupport.tree(site + "/" + $0) == earlier }, "\(kept)")
        #expect(build.stderr.hasPrefix(
            "warning: an earlier output could not be checked for files that no build wrote (.public.staging: Too many open files)"), "\(build.stderr)")
        #expect(build.stderr.contains("\nerror: cannot write the site to public/: .public.staging: Too many open files\n"), "\(build.stderr)")
        #expect(build.stderr.contains("That folder was kept whole in \(kept.first ?? "?") instead of removed"), "\(build.stderr)")
    }
}
