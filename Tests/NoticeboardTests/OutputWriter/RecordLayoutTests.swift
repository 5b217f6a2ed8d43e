import Foundation
@testable import OutputWriter
import Rendering
import SiteLoader
import SiteModel
import Support
import Testing

/// serve's record after an edit in place is spliced from the last one: it must have the bytes a whole
/// write of the same state has, whatever came, went or changed.
@Suite struct RecordLayoutTests {
    private static let day = CalendarDate(parsing: "2026-11-27")!

    private static func digest(_ text: String) -> FileDigest { FileDigest(size: text.utf8.count, sha256: SHA256.digest(Array(text.utf8))) }

    private static func state(listings: Int) -> BuildState {
        var inputs: [String: String] = [:], outputs = OutputTable(), versions = VersionTable()
        for index in 0..<listings {
            inputs["content/things/\(index).yaml"] = "32768 \(index) 1700000000 420"
            outputs["things/\(index)/index.html"] = BuildState.Output(digest: digest("page \(index)"), renderKey: SHA256.digest(Array("key \(index)".utf8)))
            outputs["api/things/\(index).json"] = BuildState.Output(digest: digest("json \(index)"), renderKey: nil)
            versions.set(ListingVersions.Version(updated: day, sha256: SHA256.digest(Array("version \(index)".utf8))), forKey: "things/\(index)")
        }
        // Names whose bytes sort otherwise than their strings: "e" and a combining accent sorts after "f".
        inputs["content/things/e\u{301}te\u{301}.yaml"] = "32768 1 1700000000 420"
        inputs["content/things/f.yaml"] = "32768 2 1700000000 420"
        return BuildState(
            settings: "settings", inputs: InputStamps(stamps: inputs), outputs: outputs, listings: listings,
            warnings: [.warning(at: SourceLocation(file: "content/things/1.yaml", line: 2, column: 3), "a warning")], staged: nil,
            versions: versions, sync: SyncHistory(build: 1, date: day, root: "root", changes: []))
    }

    /// An edit in place's kind of change, and more: stamps, outputs and versions changed, outputs and
    /// inputs that come, outputs and versions that go, a new head and tail.
    private static func changed(_ last: BuildState, round: Int, using generator: inout some RandomNumberGenerator) -> BuildState {
        var state = last, stamps = last.inputs.stamps
        for path in stamps.keys where Int.random(in: 0..<8, using: &generator) == 0 { stamps[path] = "32768 \(round) 1800000000 420" }
        if round % 3 == 0 { stamps["content/things/new-\(round).yaml"] = "32768 1 1800000000 420" }
        state.inputs = InputStamps(stamps: stamps)
        for path in last.outputs.keys {
            switch Int.random(in: 0..<12, using: &generator) {
            case 0: state.outputs[path] = BuildState.Output(digest: digest("\(path) \(round)"), renderKey: nil)
            case 1: state.outputs[path] = nil
            default: break
            }
        }
        state.outputs["api/sync/changes/\(round).json"] = BuildState.Output(digest: digest("changes \(round)"), renderKey: nil)
        for key in last.versions.keys where Int.random(in: 0..<10, using: &generator) == 0 {
            state.versions.set(
                Int.random(in: 0..<2, using: &generator) == 0 ? nil : ListingVersions.Version(updated: day, sha256: SHA256.digest(Array("\(key) \(round)".utf8))),
                forKey: key)
        }
        state.listings += 1
        state.sync.changes.append(ChangeList(build: round, date: day, from: "a", to: "b", files: ["things/1/index.html": digest("x"), "gone.html": nil]))
        state.staged = BuildState.Staged(id: "staged \(round)", differing: ["things/2/index.html": digest("y")], missing: ["api/sync/changes/\(round).json"])
        return state
    }

    private static func whole(_ state: BuildState) -> [UInt8] {
        var bytes: [UInt8] = []
        #expect(state.write(into: &bytes))
        return bytes
    }

    /// Inputs are listed in the order `String` sorts their paths, as a splice finds them: by bytes while all
    /// are ASCII, and as strings once one is not.
    @Test func inputsAreListedAsTheirPathsSort() {
        let state = Self.state(listings: 12)
        let listed = String(decoding: Self.whole(state), as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("input\t") }
        #expect(listed.map { String($0.split(separator: "\t", maxSplits: 2)[2]) } == state.inputs.stamps.keys.sorted())
        #expect(listed.count == 14)
    }

    @Test func aSplicedRecordHasTheBytesOfAWholeOne() throws {
        var generator = SystemRandomNumberGenerator()
        var last = Self.state(listings: 40)
        var lastBytes: [UInt8] = []
        var layout: RecordLayout?
        #expect(last.write(into: &lastBytes, layout: { layout = $0 }))
        #expect(lastBytes == Self.whole(last))
        for round in 1...40 {
            let state = Self.changed(last, round: round, using: &generator)
            let lastLayout = try #require(layout)
            let spliced = try #require(state.spliced(from: (last, lastBytes, lastLayout)))
            #expect(spliced.bytes == Self.whole(state))
            (last, lastBytes, layout) = (state, spliced.bytes, spliced.layout)
        }
    }

    /// An input that went is not found by comparing the inputs in the order scanned: the record is then
    /// written whole.
    @Test func anInputThatWentIsWrittenWhole() throws {
        let last = Self.state(listings: 5)
        var lastBytes: [UInt8] = []
        var layout: RecordLayout?
        #expect(last.write(into: &lastBytes, layout: { layout = $0 }))
        var state = last, stamps = last.inputs.stamps
        stamps["content/things/3.yaml"] = nil
        state.inputs = InputStamps(stamps: stamps)
        let lastLayout = try #require(layout)
        #expect(state.spliced(from: (last, lastBytes, lastLayout)) == nil)
    }

    /// Beside the state file: spliced from the saved record while it has the stamp it was saved with, and
    /// written whole once it was replaced since; either way the file holds what a whole write gives.
    @Test func theSavedRecordIsSplicedOnlyWhileItIsTheOneSaved() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let path = folder + "/build.state"
        var generator = SystemRandomNumberGenerator()
        let first = Self.state(listings: 20)
        let layout = try #require(first.write(besides: path, keepingLayout: true)?.save())
        #expect(layout.stamp != nil)
        let second = Self.changed(first, round: 1, using: &generator)
        let next = try #require(second.write(besides: path, splicing: (first, layout))?.save())
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == Self.whole(second))

        // Another process wrote the record since: its bytes are not the ones the layout describes.
        var other: [UInt8] = []
        #expect(Self.state(listings: 21).write(into: &other))
        try Data(other).write(to: URL(fileURLWithPath: path))
        let third = Self.changed(second, round: 2, using: &generator)
        _ = try #require(third.write(besides: path, splicing: (second, next))?.save())
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) == Self.whole(third))
    }
}
