import Foundation
import PathJournal
@testable import NoticeboardClient
import Testing

/// A sync removes files only in a folder it made: it refuses any other before it fetches or writes anything,
/// so a mistyped folder, or a link someone left where the mirror's own would be, loses nothing.
@Suite struct MirrorFolderTests {
    /// No server answers there: each sync below must stop before it asks one.
    static let unreachable = "http://127.0.0.1:9/catalogue/"

    /// What a sync might find in its folder, each made in `folder`, with the files outside it that must survive.
    static let foreignLayouts: [(name: String, make: @Sendable (_ folder: String, _ outside: String) -> Void)] = [
        ("current links out of the folder", { folder, outside in link("../outside", at: folder + "/current") }),
        ("current links to an absolute path", { folder, outside in link(outside, at: folder + "/current") }),
        ("current links into snapshots' parent", { folder, outside in
            try? FileManager.default.createDirectory(atPath: folder + "/snapshots", withIntermediateDirectories: true)
            link("snapshots/../../outside", at: folder + "/current")
        }),
        ("current is a folder", { folder, _ in TestSupport.write("mine\n", to: folder + "/current/notes.txt") }),
        ("incoming links to a folder", { folder, outside in link(outside, at: folder + "/incoming") }),
        (".current.new links out of the folder", { folder, outside in link(outside, at: folder + "/.current.new") }),
        ("the folder holds other files", { folder, _ in TestSupport.write("mine\n", to: folder + "/notes.txt") }),
    ]

    @Test(arguments: foreignLayouts.indices)
    func aSyncRefusesAFolderItDidNotMake(layout: Int) throws {
        let place = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(place) }
        let folder = place + "/mirror", outside = place + "/outside"
        TestSupport.write("keep me\n", to: outside + "/data.txt")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        Self.foreignLayouts[layout].make(folder, outside)
        let before = Self.entries(place)

        let sync = try TestSupport.runCLI(["sync", Self.unreachable, folder], in: place)
        #expect(sync.status == 1, "\(Self.foreignLayouts[layout].name)")
        #expect(sync.stderr.contains(folder) && !sync.stderr.contains("URL error"), "\(sync.stderr)")
        #expect(Self.entries(place) == before, "\(Self.foreignLayouts[layout].name): the sync changed its folder")
        #expect(TestSupport.read(outside + "/data.txt") == "keep me\n")
    }

    /// A new folder, an empty one and a mirror an earlier sync made (before the marker) are taken and marked;
    /// the marked folder is taken again.
    @Test func aNewEmptyOrEarlierMirrorIsTakenAndMarked() throws {
        let place = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(place) }
        let earlier = place + "/earlier"
        let record = #"{"build": 3, "root": "abc", "files": {}, "buckets": {}}"#
        TestSupport.write(record, to: earlier + "/snapshots/3-abc/.noticeboard-mirror.json")
        Self.link("snapshots/3-abc", at: earlier + "/current")
        try FileManager.default.createDirectory(atPath: place + "/empty", withIntermediateDirectories: true)
        for folder in [place + "/new", place + "/empty", earlier, earlier] {
            try MirrorFolder(folder: URL(fileURLWithPath: folder)).claim()
            #expect(FileManager.default.fileExists(atPath: folder + "/.noticeboard-mirror"), "\(folder)")
        }
        #expect(TestSupport.read(earlier + "/snapshots/3-abc/.noticeboard-mirror.json") == record)
        // The same layout without a mirror's record (a backup's, say) is not taken for one.
        let backup = place + "/backup"
        TestSupport.write("mine", to: backup + "/snapshots/monday/notes.txt")
        Self.link("snapshots/monday", at: backup + "/current")
        #expect(throws: MirrorFolder.Refusal.self) { try MirrorFolder(folder: URL(fileURLWithPath: backup)).claim() }
    }

    /// What the site names goes into the mirror's folder only when it stays inside it: a path a hostile or
    /// broken site sends with `..`, an absolute one, or a name of the mirror's own (its record, the incoming
    /// snapshot's journal, which would decide what a sync removes), and a tree digest that is not hex.
    @Test func namesThatWouldLeaveTheMirrorAreRefused() throws {
        let files = { (paths: [String]) in Dictionary(uniqueKeysWithValues: paths.map { ($0, MirrorFolder.Record.Entry(size: 1, sha256: "00")) }) }
        let good = MirrorFolder.Record(build: 1, root: String(repeating: "ab", count: 32), files: files(["api/index.json", "api/cleaners/x.json"]), buckets: [:])
        try Sync.checkNames(good)
        for path in [
            "api/../../x", "api/x/../../y", "/etc/passwd", "api//x", "api/./x", "cleaners/x.json", "api/x\u{0}y", "api/.noticeboard-mirror.json", "api/.noticeboard-incoming", "api",
            "api/x\u{1B}[2Jy.json", "api/x\ny.json", "api/x\u{7F}.json",
        ] {
            var bad = good
            bad.files = files([path])
            #expect(throws: Sync.Failure.self, "\(path)") { try Sync.checkNames(bad) }
        }
        // The refusal shows a control character as its code, not as itself.
        var escaping = good
        escaping.files = files(["api/x\u{1B}[2Jy.json"])
        #expect { try Sync.checkNames(escaping) } throws: { "\($0)".contains("api/x\\u{1B}[2Jy.json") && !"\($0)".contains("\u{1B}") }
        var badRoot = good
        badRoot.root = "../../x"
        #expect(throws: Sync.Failure.self) { try Sync.checkNames(badRoot) }
    }

    /// A sync that cannot reach its server says so in a sentence, not as Foundation's domain and code.
    @Test func anUnreachableServerIsReportedPlainly() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let sync = try TestSupport.runCLI(["sync", Self.unreachable, folder + "/mirror"], in: folder)
        #expect(sync.status == 1)
        #expect(sync.stderr.hasPrefix("error: cannot fetch \(Self.unreachable)api/sync/head.json: the server refused the connection"), "\(sync.stderr)")
        #expect(!sync.stderr.contains("Domain"))
    }

    /// A sync that fails in a folder it made leaves no folder, nor the folders it made above it; one that fails
    /// in a folder that was there leaves the folder.
    @Test func aFailedSyncRemovesTheFoldersItMade() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let intoNew = try TestSupport.runCLI(["sync", Self.unreachable, "new/deeper/mirror"], in: folder)
        try FileManager.default.createDirectory(atPath: folder + "/mine", withIntermediateDirectories: false)
        let intoMine = try TestSupport.runCLI(["sync", Self.unreachable, "mine"], in: folder)
        #expect(intoNew.status == 1 && intoMine.status == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["mine"])
    }

    /// A sync killed after renaming its `incoming/` into `snapshots/` and before linking it leaves a snapshot at the
    /// name the next sync of that build gives its own. That one is removed as a replaced snapshot is, so it is kept,
    /// moved aside with a note, when it holds a file its record does not list (the sync removed it whole before).
    @Test(arguments: [false, true])
    func aSnapshotLeftAtTheNewOnesNameIsKeptWhenItHoldsAStranger(holdsStranger: Bool) throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let mirror = MirrorFolder(folder: URL(fileURLWithPath: folder))
        try mirror.claim()
        let index = Data("{}\n".utf8), root = String(repeating: "ab", count: 16)
        let record = MirrorFolder.Record(build: 7, root: root, files: ["api/index.json": .init(size: index.count, sha256: Fetcher.sha256(index))], buckets: [:])
        let leftover = folder + "/snapshots/7-" + root.prefix(16)
        TestSupport.write("{}\n", to: leftover + "/index.json")
        try JSONEncoder().encode(record).write(to: URL(fileURLWithPath: leftover + "/" + MirrorFolder.recordName))
        if holdsStranger { TestSupport.write("mine\n", to: leftover + "/notes.txt") }

        let journal = try mirror.prepareIncoming()
        try journal.note(["index.json"])
        try mirror.write(index, at: "api/index.json")
        let kept = try mirror.commit(record, replacing: nil, journal: journal)
        #expect(mirror.record()?.build == 7 && TestSupport.read(folder + "/current/index.json") == "{}\n")
        let aside = try FileManager.default.contentsOfDirectory(atPath: folder + "/snapshots").filter { $0.contains(".kept-") }
        if holdsStranger {
            #expect(kept.map(\.strangers) == [["notes.txt"]] && aside.count == 1)
            #expect(kept.first?.folder == folder + "/snapshots/" + (aside.first ?? "?"))
            #expect(TestSupport.read(folder + "/snapshots/" + (aside.first ?? "?") + "/notes.txt") == "mine\n")
        } else {
            #expect(kept.isEmpty && aside.isEmpty)
        }
    }

    /// The snapshot a sync replaces, found itself replaced by a link to a folder (or by a file) as the sync removes it:
    /// it cannot be opened to be checked, so it may hold anything, and is kept with a note that says so; what the link
    /// leads to is not touched. Listed as empty, as it was, it was taken for a snapshot holding only a sync's files and
    /// "removed" (the link stayed only as `rmdir` refuses one), with no note.
    @Test(arguments: [true, false])
    func aReplacedSnapshotThatCannotBeOpenedIsKeptWithANote(isLink: Bool) throws {
        let folder = TestSupport.temporaryFolder(), outside = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder); TestSupport.removeTree(outside) }
        let (mirror, record, journal) = try Self.filledIncoming(folder)
        #expect(try mirror.commit(record, replacing: nil, journal: journal).isEmpty)
        let replaced = folder + "/snapshots/3-" + record.root.prefix(16)
        TestSupport.write("mine\n", to: outside + "/notes.txt")
        TestSupport.removeTree(replaced)
        if isLink { Self.link(outside, at: replaced) } else { TestSupport.write("mine\n", to: replaced) }

        var next = record
        next.build = 4
        let nextJournal = try mirror.prepareIncoming()
        try mirror.note(["index.json"], in: nextJournal)
        try mirror.write(Data("{}\n".utf8), at: "api/index.json")
        let kept = try mirror.commit(next, replacing: record, journal: nextJournal)
        #expect(mirror.record()?.build == 4)
        #expect(kept.map(\.folder) == [replaced] && kept.allSatisfy { $0.strangers.isEmpty && $0.unchecked != nil }, "\(kept)")
        #expect(kept.first?.note.hasPrefix("\(replaced) could not be checked for files that no sync wrote (") == true, "\(kept)")
        #expect(kept.first?.note.contains("), so it was kept rather than removed") == true, "\(kept)")
        #expect(TestSupport.read(outside + "/notes.txt") == "mine\n")
        #expect(isLink ? MirrorFolder.entry(URL(fileURLWithPath: replaced)) == .link : TestSupport.read(replaced) == "mine\n")
    }

    /// A file someone put in `incoming/` while a sync filled it stops the sync as it finishes: `incoming/` is moved
    /// aside whole with a note, and nothing is published (the file was taken into the snapshot, and found one sync
    /// later; then moved out alone, which left a linked folder's files out of the snapshot).
    @Test func aFilePutInIncomingDuringASyncStopsItAndIsKept() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let (mirror, record, journal) = try Self.filledIncoming(folder)
        TestSupport.write("mine\n", to: folder + "/incoming/notes/mine.txt")

        #expect {
            _ = try mirror.commit(record, replacing: nil, journal: journal)
        } throws: { error in
            guard case .filledMeanwhile(let kept) = error as? MirrorFolder.Refusal else { return false }
            return kept.strangers == ["notes/mine.txt"] && TestSupport.read(kept.folder + "/notes/mine.txt") == "mine\n"
                && kept.folder.hasPrefix(folder + "/incoming.kept-")
        }
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder)).isDisjoint(with: ["current", "incoming"]))
    }

    /// What an interrupted sync's `incoming/` might hold that no sync put there, each with what it must not touch.
    static let plantedInIncoming: [(name: String, plant: @Sendable (_ incoming: String, _ outside: String) -> Void)] = [
        ("a link to a folder outside", { incoming, outside in link(outside, at: incoming + "/cleaners") }),
        ("a link at a noted path", { incoming, outside in
            try? FileManager.default.createDirectory(atPath: incoming + "/cleaners", withIntermediateDirectories: true)
            link(outside + "/a.json", at: incoming + "/cleaners/a.json")
        }),
        ("a file at a wanted path it did not note", { incoming, _ in TestSupport.write("my draft\n", to: incoming + "/index.json") }),
    ]

    /// An `incoming/` that an interrupted sync journaled but that holds something no sync put there is moved aside
    /// whole before the next sync writes anything: the sync wrote through such a link, outside the mirror, or over
    /// such a file.
    @Test(arguments: plantedInIncoming.indices)
    func anIncomingHoldingWhatNoSyncPutThereIsKeptBeforeWriting(planted: Int) throws {
        let folder = TestSupport.temporaryFolder(), outside = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder); TestSupport.removeTree(outside) }
        TestSupport.write("outside\n", to: outside + "/a.json")
        let (mirror, _, _) = try Self.claimedMirror(folder)
        let journal = try mirror.prepareIncoming()
        try mirror.note(["cleaners/a.json"], in: journal)
        Self.plantedInIncoming[planted].plant(folder + "/incoming", outside)

        let kept = try mirror.claim()
        #expect(kept?.folder.hasPrefix(folder + "/incoming.kept-") == true && kept?.strangers.count == 1)
        #expect(MirrorFolder.entry(URL(fileURLWithPath: folder + "/incoming")) == nil)
        #expect(TestSupport.read(outside + "/a.json") == "outside\n")
    }

    /// A link put at the name a sync writes a file under before renaming it is not written through.
    @Test func aLinkAtTheTemporaryNameIsNotWrittenThrough() throws {
        let folder = TestSupport.temporaryFolder(), outside = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder); TestSupport.removeTree(outside) }
        TestSupport.write("outside\n", to: outside + "/a.json")
        let (mirror, _, index) = try Self.claimedMirror(folder)
        let journal = try mirror.prepareIncoming()
        try mirror.note(["index.json"], in: journal)
        Self.link(outside + "/a.json", at: folder + "/incoming/.index.json.part")
        try mirror.write(index, at: "api/index.json")
        #expect(TestSupport.read(outside + "/a.json") == "outside\n")
        #expect(TestSupport.read(folder + "/incoming/index.json") == "{}\n")
    }

    /// A folder of `incoming/` swapped for a link during a sync (or a file put in its place) is refused, not written
    /// through: a tester's sync overwrote files outside the mirror so, exit 0.
    @Test(arguments: [true, false])
    func aFolderOfIncomingSwappedForALinkIsNotWrittenThrough(isLink: Bool) throws {
        let folder = TestSupport.temporaryFolder(), outside = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder); TestSupport.removeTree(outside) }
        TestSupport.write("mine\n", to: outside + "/a.json")
        let (mirror, _, index) = try Self.claimedMirror(folder)
        let journal = try mirror.prepareIncoming()
        try mirror.note(["cleaners/a.json"], in: journal)
        if isLink { Self.link(outside, at: folder + "/incoming/cleaners") } else { TestSupport.write("mine\n", to: folder + "/incoming/cleaners") }

        #expect(throws: MirrorFolder.Refusal.self) { try mirror.write(index, at: "api/cleaners/a.json") }
        #expect(TestSupport.tree(outside) == ["a.json": Data("mine\n".utf8)])
        #expect(isLink || TestSupport.read(folder + "/incoming/cleaners") == "mine\n")
    }

    /// A folder of `incoming/` (or `incoming/` itself) that a sync holds open for the files that share it, moved out of
    /// the mirror after one was written there, with a link to it or another folder left at its name: the next file is
    /// not written into it where it went, as a descriptor follows its folder (`FolderBeneath` checks a held folder is
    /// still at its name). The link is refused; the other folder is written into, as it would be reached anew.
    @Test(arguments: zip(["incoming/cleaners", "incoming/cleaners", "incoming"], [true, false, true]))
    func aHeldFolderMovedOutOfTheMirrorIsNotWrittenInto(moved: String, leavesLink: Bool) throws {
        let folder = TestSupport.temporaryFolder(), outside = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder); TestSupport.removeTree(outside) }
        let (mirror, _, index) = try Self.claimedMirror(folder)
        let journal = try mirror.prepareIncoming()
        try mirror.note(["cleaners/a.json", "cleaners/b.json"], in: journal)
        try mirror.write(index, at: "api/cleaners/a.json")
        try FileManager.default.moveItem(atPath: folder + "/" + moved, toPath: outside + "/moved")
        if leavesLink {
            Self.link(outside + "/moved", at: folder + "/" + moved)
            #expect(throws: MirrorFolder.Refusal.self) { try mirror.write(index, at: "api/cleaners/b.json") }
        } else {
            try FileManager.default.createDirectory(atPath: folder + "/" + moved, withIntermediateDirectories: false)
            try mirror.write(index, at: "api/cleaners/b.json")
            #expect(TestSupport.read(folder + "/incoming/cleaners/b.json") == "{}\n")
        }
        #expect(TestSupport.tree(outside).keys.filter { $0.hasSuffix(".json") } == [moved == "incoming" ? "moved/cleaners/a.json" : "moved/a.json"])
    }

    /// A folder of the current snapshot that a sync holds open while it links the snapshot's files into `incoming/`,
    /// moved away after one was linked, with a link to a folder outside left at its name: the next file is not linked,
    /// from there or from where the folder went, but fetched.
    @Test func aHeldFolderOfTheCurrentSnapshotMovedAwayIsNotLinkedFrom() throws {
        let folder = TestSupport.temporaryFolder(), outside = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder); TestSupport.removeTree(outside) }
        let (mirror, name) = try Self.linkingFromCurrent(folder)
        let snapshot = folder + "/snapshots/" + name
        TestSupport.write("mine\n", to: outside + "/b.json")
        let held = try #require(mirror.currentSnapshot)
        #expect(mirror.linkFromCurrent("api/cleaners/a.json", in: held))
        try FileManager.default.moveItem(atPath: snapshot + "/cleaners", toPath: folder + "/moved")
        Self.link(outside, at: snapshot + "/cleaners")

        #expect(!mirror.linkFromCurrent("api/cleaners/b.json", in: held))
        #expect(!FileManager.default.fileExists(atPath: folder + "/incoming/cleaners/b.json"))
        #expect(TestSupport.read(folder + "/incoming/cleaners/a.json") == "{}\n")
    }

    /// `snapshots/` itself swapped for a link to a folder outside holding a snapshot of the same name, after a file of
    /// the current one was linked: the next file is not linked from there, but fetched. The snapshot's files are
    /// reached from the mirror's folder, `snapshots/` among the folders on the way.
    @Test func theSnapshotsFolderSwappedForALinkIsNotLinkedFrom() throws {
        let folder = TestSupport.temporaryFolder(), outside = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder); TestSupport.removeTree(outside) }
        let (mirror, name) = try Self.linkingFromCurrent(folder)
        TestSupport.write("theirs\n", to: outside + "/\(name)/cleaners/b.json")
        let held = try #require(mirror.currentSnapshot)
        #expect(mirror.linkFromCurrent("api/cleaners/a.json", in: held))
        try FileManager.default.moveItem(atPath: folder + "/snapshots", toPath: folder + "/moved")
        Self.link(outside, at: folder + "/snapshots")

        #expect(!mirror.linkFromCurrent("api/cleaners/b.json", in: held))
        #expect(!FileManager.default.fileExists(atPath: folder + "/incoming/cleaners/b.json"))
        #expect(mirror.currentSnapshot.map { mirror.linkFromCurrent("api/cleaners/b.json", in: $0) } == false)
        #expect(!FileManager.default.fileExists(atPath: folder + "/incoming/cleaners/b.json"))
    }

    /// `current` leading anywhere but to a snapshot (`snapshots/<name>`) links nothing: every file is fetched.
    @Test func aCurrentLinkElsewhereLinksNothing() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let (mirror, _, _) = try Self.claimedMirror(folder)
        TestSupport.write("{}\n", to: folder + "/mine/cleaners/a.json")
        for target in [folder + "/mine", "mine", "snapshots/../mine", "snapshots/", "snapshots/a/b"] {
            unlink(folder + "/current")
            Self.link(target, at: folder + "/current")
            #expect(mirror.currentSnapshot == nil, "\(target)")
        }
    }

    /// A mirror claimed in `folder` whose current snapshot, `snapshots/<name>`, holds `cleaners/a.json` and
    /// `cleaners/b.json`, both noted in a new `incoming/`'s journal, as a sync about to link them; and the name.
    static func linkingFromCurrent(_ folder: String) throws -> (MirrorFolder, name: String) {
        let (mirror, _, _) = try claimedMirror(folder)
        let name = "1-" + String(repeating: "ef", count: 8)
        TestSupport.write("{}\n", to: folder + "/snapshots/\(name)/cleaners/a.json")
        TestSupport.write("{}\n", to: folder + "/snapshots/\(name)/cleaners/b.json")
        link("snapshots/\(name)", at: folder + "/current")
        try mirror.note(["cleaners/a.json", "cleaners/b.json"], in: try mirror.prepareIncoming())
        return (mirror, name)
    }

    /// A mirror claimed in `folder` whose `incoming/` a sync has filled with the record's one file, and the journal.
    static func filledIncoming(_ folder: String) throws -> (MirrorFolder, MirrorFolder.Record, PathJournal) {
        let (mirror, record, index) = try claimedMirror(folder)
        let journal = try mirror.prepareIncoming()
        try mirror.note(["index.json"], in: journal)
        try mirror.write(index, at: "api/index.json")
        return (mirror, record, journal)
    }

    /// A mirror claimed in `folder`, and a record of one file, `api/index.json`, with its bytes.
    static func claimedMirror(_ folder: String) throws -> (MirrorFolder, MirrorFolder.Record, Data) {
        let mirror = MirrorFolder(folder: URL(fileURLWithPath: folder))
        try mirror.claim()
        let index = Data("{}\n".utf8)
        let record = MirrorFolder.Record(
            build: 3, root: String(repeating: "cd", count: 16), files: ["api/index.json": .init(size: index.count, sha256: Fetcher.sha256(index))], buckets: [:])
        return (mirror, record, index)
    }

    /// Something other than a folder at the new snapshot's name is refused, not removed.
    @Test func aFileAtTheNewSnapshotsNameIsRefused() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let (mirror, record, journal) = try Self.filledIncoming(folder)
        TestSupport.write("mine\n", to: folder + "/snapshots/3-" + record.root.prefix(16))
        #expect(throws: MirrorFolder.Refusal.self) { _ = try mirror.commit(record, replacing: nil, journal: journal) }
        #expect(TestSupport.read(folder + "/snapshots/3-" + record.root.prefix(16)) == "mine\n")
    }

    /// A first sync that fails removes what it made, but not a file someone put in its `incoming/` or a snapshot
    /// meanwhile, nor the marker that lets the next sync take the folder up (it removed them all before).
    @Test func aFailedFirstSyncLeavesFilesItDidNotWrite() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let mirror = MirrorFolder(folder: URL(fileURLWithPath: folder))
        try mirror.claim()
        let journal = try mirror.prepareIncoming()
        try journal.note(["index.json"])
        try mirror.write(Data("{}\n".utf8), at: "api/index.json")
        TestSupport.write("to do\n", to: folder + "/incoming/todo.txt")
        TestSupport.write("mine\n", to: folder + "/snapshots/old/notes.txt")
        TestSupport.write("{}\n", to: folder + "/snapshots/empty-of-strangers/" + MirrorFolder.recordName)

        mirror.removeUnfinished()
        #expect(TestSupport.read(folder + "/incoming/todo.txt") == "to do\n")
        #expect(TestSupport.read(folder + "/snapshots/old/notes.txt") == "mine\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/snapshots") == ["old"])
        #expect(FileManager.default.fileExists(atPath: folder + "/" + MirrorFolder.markerName))

        TestSupport.removeTree(folder + "/incoming/todo.txt")
        TestSupport.removeTree(folder + "/snapshots/old")
        mirror.removeUnfinished()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [], "what a sync wrote, noted, is all removed")
    }

    /// A file where the mirror's folder should be is said in words too, and left as it was.
    @Test func aFileInTheWayOfTheMirrorIsReportedPlainly() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        TestSupport.write("mine", to: folder + "/a-file")
        let sync = try TestSupport.runCLI(["sync", Self.unreachable, folder + "/a-file"], in: folder)
        #expect(sync.status == 1)
        #expect(sync.stderr == "error: cannot write \(folder)/a-file: a file is in the way where a folder should be (file error 516)\n", "\(sync.stderr)")
        #expect(TestSupport.read(folder + "/a-file") == "mine")
    }

    static func link(_ target: String, at path: String) {
        try? FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
    }

    /// Every entry below `root`, links not followed, with what a link points to.
    static func entries(_ root: String) -> [String: String] {
        var found: [String: String] = [:]
        let names = (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []
        for name in names {
            let path = root + "/" + name
            found[name] = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)).map { "-> " + $0 } ?? ""
        }
        return found
    }
}
