import Foundation
import Noticeboard
import OutputWriter
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
        #expect(built.saved.summary == state.summary)
        #expect(built.saved.summary.files > 50 && built.saved.summary.pages > 20)
        #expect(built.saved.settings == state.settings)
        #expect(state.inputs == built.inputs)
        #expect(built.saved.records(built.inputs))
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
        #expect(built.saved.records(InputStamps(stamps: scanned.stamps)))
        for changed in [touched, added, removed, swapped] { #expect(!built.saved.records(InputStamps(stamps: changed))) }
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

    @Test func aRecordOfAnotherVersionIsNotRead() throws {
        let built = try built()
        defer { TestSupport.removeTree(built.site) }
        let path = BuildState.file(root: built.site, outputPath: built.output)
        let text = TestSupport.read(path)
        TestSupport.write(text.replacingOccurrences(of: "noticeboard-build-state 4", with: "noticeboard-build-state 3"), to: path)
        #expect(SavedBuildState(path: path) == nil)
        TestSupport.write(String(text.prefix(text.count / 2)), to: path)
        #expect(SavedBuildState(path: path)?.state() == nil)
    }
}
