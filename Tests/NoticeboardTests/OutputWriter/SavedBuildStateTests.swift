import Foundation
import Noticeboard
@testable import OutputWriter
import Rendering
import SiteLoader
import SiteModel
import Testing

/// The no-change check reads the saved record's head, input lines and output lines without parsing the
/// record whole: what it reads must agree with the whole record, and see any change the whole one would.
@Suite struct SavedBuildStateTests {
    private struct Built {
        let site: String
        let saved: SavedBuildState
        var output: String { site + "/public" }
        var inputs: InputStamps { InputStamps.scan(SiteFiles(root: site, maxFileBytes: BuildOptions(root: site).maxFileBytes), folders: Noticeboard.inputFolders) }
    }

    private func built() throws -> Built {
        let site = TestSupport.makeSite()
        _ = try Noticeboard.build(BuildOptions(root: site))
        let saved = try #require(SavedBuildState(path: BuildState.file(root: site, outputPath: site + "/public")))
        return Built(site: site, saved: saved)
    }

    @Test func theHeadAgreesWithTheWholeRecord() throws {
        let built = try built()
        defer { TestSupport.removeTree(built.site) }
        let state = try #require(built.saved.state())
        let summary = try #require(built.saved.summary)
        #expect(summary == state.summary)
        #expect(summary.files > 50 && summary.pages > 20)
        #expect(built.saved.settings == state.settings)
        #expect(state.inputs == built.inputs)
        #expect(built.saved.wasMade(from: built.inputs))
        #expect(built.saved.outputsAreIntact(in: built.output))
    }

    @Test func anyChangeToTheInputsIsSeen() throws {
        let built = try built()
        defer { TestSupport.removeTree(built.site) }
        let scanned = built.inputs
        let path = try #require(scanned.stamps.keys.sorted().first { $0.hasSuffix(".yaml") })
        var touched = scanned.stamps, added = scanned.stamps, removed = scanned.stamps, swapped = scanned.stamps
        touched[path]! += "1"
        added["content/cleaners/new.yaml"] = scanned.stamps[path]
        removed[path] = nil
        // Two files' stamps exchanged: the same stamps, each under the other's name.
        let other = try #require(scanned.stamps.keys.sorted().last { $0.hasSuffix(".yaml") && scanned.stamps[$0] != scanned.stamps[path] })
        (swapped[path], swapped[other]) = (swapped[other], swapped[path])
        #expect(built.saved.wasMade(from: InputStamps(stamps: scanned.stamps)))
        for changed in [touched, added, removed, swapped] { #expect(!built.saved.wasMade(from: InputStamps(stamps: changed))) }
    }

    @Test func aMissingOrResizedFileOrAnotherManifestIsNotIntact() throws {
        let built = try built()
        defer { TestSupport.removeTree(built.site) }
        let page = built.output + "/rentals/kayak/index.html", manifest = built.output + "/" + Manifest.path
        let pageBytes = try Data(contentsOf: URL(fileURLWithPath: page)), manifestBytes = try Data(contentsOf: URL(fileURLWithPath: manifest))
        try FileManager.default.removeItem(atPath: page)
        #expect(!built.saved.outputsAreIntact(in: built.output))
        try (pageBytes + Data(" ".utf8)).write(to: URL(fileURLWithPath: page))
        #expect(!built.saved.outputsAreIntact(in: built.output))
        try pageBytes.write(to: URL(fileURLWithPath: page))
        #expect(built.saved.outputsAreIntact(in: built.output))
        // The same size, other bytes: the manifest is the one file whose digest is checked.
        var other = [UInt8](manifestBytes)
        other[other.count - 2] = other[other.count - 2] == UInt8(ascii: " ") ? UInt8(ascii: "\n") : UInt8(ascii: " ")
        try Data(other).write(to: URL(fileURLWithPath: manifest))
        #expect(!built.saved.outputsAreIntact(in: built.output))
    }

    /// A record cut short is refused: between two output lines by the head, which counts them; inside an
    /// output line by the check of the outputs and by the whole parse.
    @Test func aRecordCutShortIsRefused() throws {
        let built = try built()
        defer { TestSupport.removeTree(built.site) }
        let path = BuildState.file(root: built.site, outputPath: built.output)
        let lines = TestSupport.read(path).split(separator: "\n", omittingEmptySubsequences: false)
        let lastOutput = try #require(lines.lastIndex { $0.hasPrefix("output\t") })
        TestSupport.write(lines[..<lastOutput].joined(separator: "\n") + "\n", to: path)
        let cutBetweenLines = try #require(SavedBuildState(path: path))
        #expect(cutBetweenLines.summary == nil && !cutBetweenLines.wasMade(from: built.inputs))
        #expect(!cutBetweenLines.outputsAreIntact(in: built.output))
        TestSupport.write(lines[..<lastOutput].joined(separator: "\n") + "\noutput\t12", to: path)
        let cutInALine = try #require(SavedBuildState(path: path))
        #expect(!cutInALine.outputsAreIntact(in: built.output) && cutInALine.state() == nil)
        // Cut before its path: size, digest and render key are there, the file is not named.
        let withoutPath = lines[lastOutput].split(separator: "\t").dropLast().joined(separator: "\t")
        TestSupport.write(lines[..<lastOutput].joined(separator: "\n") + "\n" + withoutPath + "\n", to: path)
        let cutBeforeThePath = try #require(SavedBuildState(path: path))
        #expect(!cutBeforeThePath.outputsAreIntact(in: built.output) && cutBeforeThePath.state() == nil)
    }

    /// A build that does not keep the site reads the record without its inputs: the same state but those,
    /// and a damaged input line still makes the record unreadable.
    @Test func aRecordReadWithoutItsInputsIsTheSameButThem() throws {
        let built = try built()
        defer { TestSupport.removeTree(built.site) }
        var whole = try #require(built.saved.state())
        let withoutInputs = try #require(built.saved.state(withInputs: false))
        #expect(whole.inputs.count > 10 && withoutInputs.inputs.count == 0)
        whole.inputs = InputStamps(stamps: [:])
        #expect(withoutInputs == whole)

        let path = BuildState.file(root: built.site, outputPath: built.output)
        let damaged = built.site + "/damaged.state"
        TestSupport.write(TestSupport.read(path).replacingOccurrences(of: "\ninput\t", with: "\ninput\tx\t"), to: damaged)
        #expect(SavedBuildState(path: damaged)?.state(withInputs: false) == nil)
    }

    /// The staging folder's files are read through the record's outputs: theirs, but the ones the folder
    /// lacks, and those it holds with other bytes; none until the marker names the record's staging.
    @Test func theConfirmedStagingFolderIsTheOutputsWithItsDifferences() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        func digest(_ text: String) -> FileDigest { Manifest.digest(Array(text.utf8)) }
        func output(_ text: String) -> BuildState.Output { BuildState.Output(digest: digest(text), renderKey: nil) }
        let state = BuildState(
            settings: "s", inputs: InputStamps(stamps: [:]), outputs: ["a.html": output("a"), "b.html": output("b"), "c.html": output("c")],
            listings: 0, warnings: [],
            staged: BuildState.Staged(id: "staged 1", differing: ["b.html": digest("old b"), "gone.html": digest("gone")], missing: ["c.html"]))
        let statePath = folder + "/build.state"
        #expect(state.confirmedStaged(statePath: statePath) == nil)
        state.confirmStaged(statePath: statePath)
        let staged = try #require(state.confirmedStaged(statePath: statePath))
        #expect(staged.paths.sorted() == ["a.html", "b.html", "gone.html"])
        #expect(staged["a.html"] == digest("a") && staged["b.html"] == digest("old b") && staged["gone.html"] == digest("gone"))
        #expect(staged["c.html"] == nil && staged["d.html"] == nil)
    }

    /// A record of the version before has no head to answer from, so the next build renders everything;
    /// but its listings' `updated` dates and sync history carry over, as they do across any other upgrade.
    @Test func aRecordOfTheVersionBeforeKeepsItsListingsDates() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try Noticeboard.build(BuildOptions(root: site, now: TestSupport.now))
        let path = BuildState.file(root: site, outputPath: site + "/public")
        let versionFour = TestSupport.read(path)
        let versionThree = versionFour.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("outputs\t") && !$0.hasPrefix("inputs\t") }
            .joined(separator: "\n").replacingOccurrences(of: "noticeboard-build-state 4", with: "noticeboard-build-state 3")
        TestSupport.write(versionThree, to: path)
        let saved = try #require(SavedBuildState(path: path))
        #expect(saved.summary == nil && !saved.outputsAreIntact(in: site + "/public"))
        let lastState = try #require(saved.state())
        #expect(!lastState.versions.isEmpty && lastState.sync.build > 0)

        _ = try Noticeboard.build(BuildOptions(root: site, now: CalendarDate(year: 2026, month: 11, day: 24)!))
        #expect(TestSupport.read(site + "/public/api/rentals/kayak.json").contains("\"updated\":\"2026-11-23\""))
    }

    /// `serve` keeps the site, so it needs the whole record even when nothing changed: a record whose head
    /// is sound but whose tail is damaged makes a whole build, not a crash.
    @Test func aKeptSiteWithADamagedTailBuildsAgain() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let options = BuildOptions(root: site, now: TestSupport.now)
        _ = try Noticeboard.build(options)
        let path = BuildState.file(root: site, outputPath: site + "/public")
        TestSupport.write(TestSupport.read(path) + "listing\tnot-a-date\tx\ty\n", to: path)
        let saved = try #require(SavedBuildState(path: path))
        #expect(saved.summary != nil && saved.state() == nil)
        let report = try LiveSite(options: options).build()
        #expect(report.files == saved.summary?.files)
        #expect(SavedBuildState(path: path)?.state() != nil)
    }

    /// The whole record makes its tables at the sizes its head gives: a head that claims more lines than the
    /// record holds (damaged, or written by hand) still reads to the same state, without reserving room for them.
    @Test func countsInTheHeadOnlySizeTheTables() throws {
        let built = try built()
        defer { TestSupport.removeTree(built.site) }
        let path = BuildState.file(root: built.site, outputPath: built.output)
        let lines = TestSupport.read(path).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard ["outputs", "inputs"].contains(fields.first), fields.count > 1 else { return String(line) }
            return ([fields[0], "999999999999999"] + fields.dropFirst(2)).joined(separator: "\t")
        }
        let claimed = built.site + "/claimed.state"
        TestSupport.write(lines.joined(separator: "\n"), to: claimed)
        #expect(TestSupport.read(claimed) != TestSupport.read(path))
        let state = try #require(SavedBuildState(path: claimed)?.state())
        #expect(state == built.saved.state())
        // Room for no more entries than the record has lines (a table makes up to 8/3 the room asked for).
        let lineCount = lines.count
        #expect(state.outputs.capacity <= 3 * lineCount, "\(state.outputs.capacity) for \(lineCount) lines")
    }
}
