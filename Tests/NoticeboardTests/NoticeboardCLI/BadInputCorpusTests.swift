import Foundation
import Testing

/// The bad-input corpus: each folder below `Tests/Fixtures/bad/` is one case. Its `content/` and `templates/`
/// files are laid over a copy of the base site (`Tests/Fixtures/corpus-base/content` and the repository's
/// templates but those made for the example's kinds: `TestSupport.copyThemeTemplates`), inputs that cannot
/// be committed are made by `GeneratedInputs`, and `noticeboard build` runs
/// there with the arguments in the case's `arguments` file, one a line. What it prints on standard error and
/// its exit status must match the case's `expected.txt` exactly: a first line `exit N`, then standard error.
///
/// `UPDATE_GOLDEN=1 make test` writes each `expected.txt` from what the build printed; read them before
/// committing, as a person who edits listing files would.
///
/// Cases run one at a time: started all at once, a hundred builds share two cores and the time limit, which
/// is there to catch a case that hangs, would measure the queue instead.
@Suite(.serialized) struct BadInputCorpusTests {
    static let corpus = TestSupport.fixtures + "/bad"
    static let caseNames = ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? []).filter { !$0.hasPrefix(".") }.sorted()

    @Test func corpusIsComplete() {
        #expect(Self.caseNames.count >= 50)
        for name in GeneratedInputs.setups.keys {
            #expect(Self.caseNames.contains(name), "GeneratedInputs makes files for '\(name)', which has no folder in \(Self.corpus)")
        }
    }

    @Test func baseSiteBuildsCleanly() throws {
        let site = try Self.makeSite(forCase: nil)
        defer { TestSupport.removeTree(site) }
        let result = try TestSupport.runCLI(["build"], in: site)
        #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test(.timeLimit(.minutes(1)), arguments: caseNames)
    func caseMatchesItsGolden(_ name: String) throws {
        let site = try Self.makeSite(forCase: name)
        defer { TestSupport.removeTree(site) }
        let folder = Self.corpus + "/" + name
        let arguments = TestSupport.read(folder + "/arguments").split(separator: "\n").map(String.init)
        let before = try Self.entries(site)

        let result = try TestSupport.runCLI(["build"] + arguments, in: site)
        let actual = "exit \(result.status)\n" + result.stderr
        let golden = folder + "/expected.txt"
        if ProcessInfo.processInfo.environment["UPDATE_GOLDEN"] == "1" {
            try Data(actual.utf8).write(to: URL(fileURLWithPath: golden))
            return
        }
        #expect(actual == TestSupport.read(golden))

        if result.status == 0 {
            #expect(FileManager.default.fileExists(atPath: site + "/public/index.html"))
            #expect(try Self.entries(site) == (before + [".noticeboard-cache", "public"]).sorted())
        } else {
            // Nothing written: no public/, no staging folder, no build state, nothing else beside them. Only the
            // image cache may keep what the build processed before it stopped, as it does for any build.
            #expect(try Self.entries(site).filter { $0 != ".noticeboard-cache" } == before)
            #expect(((try? Self.entries(site + "/.noticeboard-cache")) ?? []).allSatisfy { $0 == "images" })
            #expect(result.stdout.isEmpty)
        }
    }

    /// The base site with the case's files laid over it, in a temporary folder.
    static func makeSite(forCase name: String?) throws -> String {
        let site = TestSupport.temporaryFolder()
        let files = FileManager.default
        try files.copyItem(atPath: TestSupport.fixtures + "/corpus-base/content", toPath: site + "/content")
        try TestSupport.copyThemeTemplates(to: site + "/templates")
        guard let name else { return site }
        for part in ["content", "templates"] {
            let source = corpus + "/" + name + "/" + part
            for relative in files.subpaths(atPath: source) ?? [] {
                var isFolder: ObjCBool = false
                _ = files.fileExists(atPath: source + "/" + relative, isDirectory: &isFolder)
                let target = site + "/" + part + "/" + relative
                if isFolder.boolValue {
                    try files.createDirectory(atPath: target, withIntermediateDirectories: true)
                } else {
                    try? files.removeItem(atPath: target)
                    try files.copyItem(atPath: source + "/" + relative, toPath: target)
                }
            }
        }
        try GeneratedInputs.setups[name]?(site)
        return site
    }

    static func entries(_ folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
    }
}
