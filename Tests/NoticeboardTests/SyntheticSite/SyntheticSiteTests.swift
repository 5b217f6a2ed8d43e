import Foundation
import Noticeboard
import SiteModel
import SyntheticSite
import Testing

/// The benchmark's generated catalogue: the same bytes for the same seed, and a site that builds cleanly.
@Suite struct SyntheticSiteTests {
    let size = SyntheticCatalogue.Size(cleaners: 40, rentals: 30, quotes: 50)

    @Test func sameSeedGivesSameBytes() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        try SiteWriter.write(SyntheticCatalogue(size: size, seed: 7), to: folder + "/a", example: TestSupport.repository)
        try SiteWriter.write(SyntheticCatalogue(size: size, seed: 7), to: folder + "/b", example: TestSupport.repository)
        try SiteWriter.write(SyntheticCatalogue(size: size, seed: 8), to: folder + "/c", example: TestSupport.repository)
        let first = TestSupport.tree(folder + "/a")
        #expect(first == TestSupport.tree(folder + "/b"))
        #expect(first != TestSupport.tree(folder + "/c"))
        #expect(first.keys.filter { $0.hasPrefix("content/quotes/") }.count == 3)
    }

    @Test func generatedSiteBuildsWithoutProblems() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let catalogue = SyntheticCatalogue(size: size, seed: 1)
        try SiteWriter.write(catalogue, to: folder, example: TestSupport.repository)
        let report = try Noticeboard.build(BuildOptions(root: folder, now: CalendarDate(year: 2026, month: 11, day: 23)))
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(report.listings == catalogue.listingCount)
        let names = (catalogue.listings["cleaners"] ?? []).compactMap { $0["name"]?.text }
        #expect(names.contains { !$0.allSatisfy(\.isASCII) }, "some names should need transliteration")
        let bios = TestSupport.tree(folder + "/public").filter { $0.key.hasPrefix("cleaners/") }.values
        #expect(bios.contains { String(decoding: $0, as: UTF8.self).contains("&amp;") })
    }

    @Test func hugoContentHasAPagePerListingAndQuote() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let catalogue = SyntheticCatalogue(size: size, seed: 1)
        try HugoWriter.write(catalogue, to: folder)
        let files = TestSupport.tree(folder + "/content")
        for kind in ["cleaners", "rentals", "owners", "quotes"] {
            #expect(files.keys.filter { $0.hasPrefix(kind + "/") && !$0.hasSuffix("_index.md") }.count == catalogue.listings[kind]?.count)
        }
        #expect(files.keys.filter { $0.hasPrefix("quote-entries/") && !$0.hasSuffix("_index.md") }.count == size.quotes)
    }

    /// `generate` writes only into new or empty folders: it removed whatever `--output` named (a site's sources,
    /// named by mistake) and the `content/` of the Hugo site `--hugo` named. Each refusal leaves everything as it was.
    @Test(arguments: [["--output", "mine"], ["--output", "new", "--hugo", "hugo-site"], ["--output", "a-file"]])
    func generateRefusesAFolderThatHoldsFiles(arguments: [String]) throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        TestSupport.write("mine\n", to: folder + "/mine/content/notes.yaml")
        TestSupport.write("my page\n", to: folder + "/hugo-site/content/about.md")
        TestSupport.write("mine\n", to: folder + "/a-file")
        let before = TestSupport.tree(folder)
        let generate = try TestSupport.runCLI(["generate", "--example", TestSupport.repository, "--cleaners", "2", "--rentals", "2", "--quotes", "2"] + arguments, in: folder)
        #expect(generate.status != 0)
        #expect(generate.stderr.contains("already there and not an empty folder; generate writes a new catalogue only into a new or empty folder"), "\(generate.stderr)")
        #expect(TestSupport.tree(folder) == before)
    }
}
