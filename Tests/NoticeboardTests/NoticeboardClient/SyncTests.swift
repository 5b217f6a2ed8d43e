import Foundation
import Noticeboard
import NoticeboardClient
import SiteModel
import Testing

/// `noticeboard sync` against the example site served by nginx on loopback, with gzip and ETags as a host
/// serves it: the mirror equals the site's default set byte for byte, a sync after an edit fetches only the
/// changed files and the sync documents, and a sync killed half-way leaves the last complete mirror.
@Suite(.serialized) struct SyncTests {
    static let now = CalendarDate(year: 2026, month: 11, day: 23)!

    /// A built site served by nginx, with its access log.
    final class Served {
        let site: String, work: String, address: String
        /// Where nginx serves the site: the path of its base_url, or another (a copy served elsewhere).
        let path: String

        init(now: CalendarDate = SyncTests.now, at path: String = "/catalogue/") throws {
            site = TestSupport.makeSite()
            _ = try Noticeboard.build(BuildOptions(root: site, now: now))
            work = TestSupport.temporaryFolder()
            self.path = path
            let started = try TestSupport.run("scripts/serve-site.sh", [site + "/public", path, work])
            address = started.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        deinit {
            if let pid = Int32(TestSupport.read(work + "/nginx.pid").trimmingCharacters(in: .whitespacesAndNewlines)) { kill(pid, SIGTERM) }
            TestSupport.removeTree(site)
            TestSupport.removeTree(work)
        }

        /// The requests since the last call: path below the site's address, and body bytes sent.
        func requests() -> [(path: String, bytes: Int)] {
            let log = work + "/logs/access.log"
            defer { try? Data().write(to: URL(fileURLWithPath: log)) }
            return TestSupport.read(log).split(separator: "\n").compactMap { line in
                let parts = line.split(separator: " ")
                guard parts.count >= 4, parts[0] == "200", let bytes = Int(parts[1]) else { return nil }
                return (parts[3].hasPrefix(path) ? String(parts[3].dropFirst(path.count)) : String(parts[3]), bytes)
            }
        }

        /// The default set as the site holds it: every file the sync tree lists, by path below `api/`.
        func defaultSet() throws -> [String: Data] {
            let api = site + "/public/api"
            var files: [String: Data] = [:]
            let tree = try JSONDecoder().decode(SyncFormat.Tree.self, from: Data(contentsOf: URL(fileURLWithPath: api + "/sync/tree.json")))
            for bucket in tree.buckets {
                let name = "sync/tree/\(bucket.bucket).json"
                let listed = try JSONDecoder().decode(SyncFormat.BucketFiles.self, from: Data(contentsOf: URL(fileURLWithPath: api + "/" + name)))
                for file in listed.files { files[String(file.path.dropFirst(4))] = FileManager.default.contents(atPath: site + "/public/" + file.path) }
            }
            return files
        }

        func sync(into mirror: String) throws -> TestSupport.RunResult {
            try TestSupport.runCLI(["sync", address, mirror], in: site)
        }
    }

    /// The served site rebuilt with one listing changed: Aoife Byrne's hourly rate, 19.50 to 20.00.
    static func rebuildWithAoifesNewRate(_ served: Served) throws {
        let aoife = served.site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 19.50", with: "hourly_rate: 20.00"), to: aoife)
        _ = try Noticeboard.build(BuildOptions(root: served.site, now: now))
    }

    /// The mirror's files, less its own record.
    static func mirrored(_ mirror: String) -> [String: Data] {
        let current = URL(fileURLWithPath: mirror + "/current").resolvingSymlinksInPath().path
        return TestSupport.tree(current).filter { $0.key != ".noticeboard-mirror.json" }
    }

    @Test func aSyncAfterAnEditFetchesOnlyTheChangedFiles() throws {
        let served = try Served()
        let mirror = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(mirror) }
        _ = served.requests()

        let cold = try served.sync(into: mirror)
        #expect(cold.status == 0, "\(cold.stderr)")
        let first = try served.defaultSet()
        #expect(first.count > 500 && Self.mirrored(mirror) == first)
        let coldRequests = served.requests()
        // Every file once, the head, the tree and its buckets; the whole-kind files stay out.
        #expect(coldRequests.count == first.count + 2 + 16)
        #expect(!coldRequests.contains { $0.path == "api/cleaners.json" || $0.path == "api/manifest.json" })
        Self.expectReport(cold.stdout, matches: coldRequests)

        // A second sync with nothing new fetches the head alone.
        #expect(try served.sync(into: mirror).stdout.hasPrefix("fetched 1 files"))
        #expect(served.requests().map(\.path) == ["api/sync/head.json"])

        let aoife = served.site + "/content/cleaners/aoife-byrne.yaml"
        #expect(TestSupport.read(aoife).contains("hourly_rate: 19.50"))
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 19.50", with: "hourly_rate: 20.00"), to: aoife)
        _ = try Noticeboard.build(BuildOptions(root: served.site, now: Self.now))
        let second = try served.defaultSet()
        let changed = Set(second.keys.filter { first[$0] != second[$0] }.map { "api/" + $0 })
        #expect(changed.contains("api/cleaners/aoife-byrne.json") && changed.contains("api/cleaners/county/cork.json"))
        #expect(changed.count < 12, "\(changed.sorted())")

        let delta = try served.sync(into: mirror)
        #expect(delta.status == 0, "\(delta.stderr)")
        #expect(Self.mirrored(mirror) == second)
        let deltaRequests = served.requests()
        let head = try JSONDecoder().decode(SyncFormat.Head.self, from: Data(contentsOf: URL(fileURLWithPath: served.site + "/public/api/sync/head.json")))
        let changeList = "api/sync/changes/\(head.build).json"
        #expect(Set(deltaRequests.map(\.path)) == changed.union(["api/sync/head.json", changeList]))
        #expect(deltaRequests.count == changed.count + 2)
        Self.expectReport(delta.stdout, matches: deltaRequests)
        // The change list gave the touched buckets' digests: the mirror knows every bucket's, as after walking the
        // tree, so a walk after a broken chain fetches only the buckets that differ (a tester's report).
        let tree = try JSONDecoder().decode(SyncFormat.Tree.self, from: Data(contentsOf: URL(fileURLWithPath: served.site + "/public/api/sync/tree.json")))
        #expect(try Self.record(mirror).buckets == Dictionary(uniqueKeysWithValues: tree.buckets.map { ($0.bucket, $0.sha256) }))
    }

    /// The mirror's own record of its snapshot.
    static func record(_ mirror: String) throws -> MirrorFolder.Record {
        let current = URL(fileURLWithPath: mirror + "/current").resolvingSymlinksInPath()
        return try JSONDecoder().decode(MirrorFolder.Record.self, from: Data(contentsOf: current.appendingPathComponent(".noticeboard-mirror.json")))
    }

    /// A site built for https://example.org/catalogue/ and served at /copy/ syncs from /copy/: the head's absolute
    /// URLs took the client to /catalogue/ on the same host (a tester's report).
    @Test func aCopyServedAtAnotherPathSyncsFromThere() throws {
        let served = try Served(at: "/copy/")
        let mirror = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(mirror) }
        #expect(TestSupport.read(served.site + "/public/api/sync/head.json").contains("https://example.org/catalogue/api/sync/tree.json"))
        _ = served.requests()
        let synced = try served.sync(into: mirror)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(Self.mirrored(mirror) == (try served.defaultSet()))
        let paths = served.requests().map(\.path)
        #expect(paths.contains("api/sync/tree.json") && paths.allSatisfy { $0.hasPrefix("api/") }, "\(paths.filter { !$0.hasPrefix("api/") }.prefix(3))")
    }

    /// `fetched N files, B bytes (G gzip)`: N is the requests nginx answered, G within a tenth of the body
    /// bytes nginx sent (the client estimates it: the server sends no length for a body it compresses).
    static func expectReport(_ output: String, matches requests: [(path: String, bytes: Int)]) {
        let numbers = output.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        #expect(output.hasPrefix("fetched ") && numbers.count == 3, "\(output)")
        guard numbers.count == 3 else { return }
        let sent = requests.reduce(0) { $0 + $1.bytes }
        #expect(numbers[0] == requests.count, "\(output)")
        #expect(abs(numbers[2] - sent) * 10 <= sent, "\(output) against \(sent) bytes sent")
    }

    @Test func aKilledSyncLeavesTheLastCompleteMirrorAndTheNextOneFinishesIt() throws {
        let served = try Served()
        let mirror = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(mirror) }
        #expect(try served.sync(into: mirror).status == 0)
        let first = try served.defaultSet()

        // Another host in the base URL changes every document: the next sync fetches them all.
        let config = served.site + "/content/site.yaml"
        TestSupport.write(TestSupport.read(config).replacingOccurrences(of: "https://example.org/", with: "https://example.net/"), to: config)
        _ = try Noticeboard.build(BuildOptions(root: served.site, now: Self.now))
        let second = try served.defaultSet()
        _ = served.requests()

        let sync = Process()
        sync.executableURL = URL(fileURLWithPath: TestSupport.executable)
        sync.arguments = ["sync", served.address, mirror]
        sync.standardOutput = FileHandle.nullDevice
        try sync.run()
        let incoming = mirror + "/incoming"
        let started = TestSupport.eventually(within: 20) { TestSupport.tree(incoming).count >= 20 }
        kill(sync.processIdentifier, SIGKILL)
        sync.waitUntilExit()
        #expect(started, "the sync wrote nothing to kill it in")
        #expect(TestSupport.tree(incoming).count < second.count, "the sync finished before it was killed")
        #expect(Self.mirrored(mirror) == first, "the mirror is not the last complete one")
        _ = served.requests()

        let resumed = try served.sync(into: mirror)
        #expect(resumed.status == 0, "\(resumed.stderr)")
        #expect(Self.mirrored(mirror) == second)
        // What the killed sync had fetched and checked is kept.
        let fetched = served.requests().filter { !$0.path.hasPrefix("api/sync/") }
        #expect(fetched.count < second.count, "fetched \(fetched.count) of \(second.count) again")
        #expect(!FileManager.default.fileExists(atPath: incoming))
    }

    /// A folder whose `current` links outside it, as a sync's own link never does: with a server to sync
    /// from, the sync still refuses it, and what the link points to is left alone (a sync once removed it as
    /// the snapshot it replaced).
    @Test func aSyncIntoAFolderItDidNotMakeRemovesNothing() throws {
        let served = try Served()
        let place = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(place) }
        TestSupport.write("keep me\n", to: place + "/important/data.txt")
        try FileManager.default.createDirectory(atPath: place + "/mirror", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: place + "/mirror/current", withDestinationPath: "../important")

        let sync = try served.sync(into: place + "/mirror")
        #expect(sync.status == 1 && sync.stderr.contains("mirror holds files that noticeboard sync did not make"), "\(sync.stderr)")
        #expect(TestSupport.read(place + "/important/data.txt") == "keep me\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: place + "/mirror") == ["current"])
    }

    /// A file of the current snapshot edited in place, which the next build changes: that sync's snapshot has the
    /// site's new bytes, and the replaced one, which alone held the edit, is kept with a note (it was removed, exit 0).
    @Test func aFileEditedInTheMirrorIsNotRemoved() throws {
        let served = try Served()
        let mirror = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(mirror) }
        #expect(try served.sync(into: mirror).status == 0)
        let snapshot = URL(fileURLWithPath: mirror + "/current").resolvingSymlinksInPath().path
        let edited = mirror + "/current/cleaners/aoife-byrne.json"
        let handle = try #require(FileHandle(forWritingAtPath: edited))
        handle.seekToEndOfFile()
        handle.write(Data("my note\n".utf8))
        handle.closeFile()
        try Self.rebuildWithAoifesNewRate(served)

        let synced = try served.sync(into: mirror)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stderr.contains("note: \(snapshot) holds files that no sync wrote (cleaners/aoife-byrne.json)"), "\(synced.stderr)")
        #expect(TestSupport.read(snapshot + "/cleaners/aoife-byrne.json").hasSuffix("my note\n"))
        #expect(Self.mirrored(mirror) == (try served.defaultSet()))
    }

    /// A link someone put in the current snapshot, in place of a file or of a folder, is not linked into the next
    /// one: those files are fetched, and the snapshot holding the link kept with a note. The link was hard-linked in
    /// as a link (a file's), so every later sync refused its own `incoming/`, or followed out of the mirror (a
    /// folder's), whose files it published.
    @Test(arguments: ["cleaners/declan-murphy.json", "cleaners"])
    func aLinkInTheCurrentSnapshotIsNotCarriedOn(replaced: String) throws {
        let served = try Served()
        let mirror = TestSupport.temporaryFolder(), outside = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(mirror); TestSupport.removeTree(outside) }
        #expect(try served.sync(into: mirror).status == 0)
        let current = mirror + "/current/", moved = outside + "/moved"
        try FileManager.default.moveItem(atPath: current + replaced, toPath: moved)
        // What the link leads to: the same names and sizes, other bytes.
        for (name, bytes) in TestSupport.tree(moved).isEmpty ? ["": TestSupport.read(moved)] : TestSupport.tree(moved).mapValues({ String(decoding: $0, as: UTF8.self) }) {
            TestSupport.write(String(repeating: "x", count: bytes.utf8.count), to: name.isEmpty ? moved : moved + "/" + name)
        }
        try FileManager.default.createSymbolicLink(atPath: current + replaced, withDestinationPath: moved)
        try Self.rebuildWithAoifesNewRate(served)

        let synced = try served.sync(into: mirror)
        #expect(synced.status == 0, "\(synced.stderr)")
        #expect(synced.stderr.contains("holds files that no sync wrote (\(replaced))"), "\(synced.stderr)")
        #expect(Self.mirrored(mirror) == (try served.defaultSet()), "files from outside the mirror were published")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: current + replaced)) == nil, "the link was carried on")
        let again = try served.sync(into: mirror)
        #expect(again.status == 0, "\(again.stderr)")
    }

    /// Files someone put in a mirror that a sync made are not removed: one in the current snapshot keeps that
    /// snapshot when the next sync replaces it, and an `incoming/` of their own (the name a sync works in, which a
    /// sync makes with its journal) is moved aside whole, each with a note. A tester's files in both were removed,
    /// exit 0.
    @Test func filesPutInAMirrorAreNotRemoved() throws {
        let served = try Served()
        let mirror = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(mirror) }
        #expect(try served.sync(into: mirror).status == 0)
        let snapshot = URL(fileURLWithPath: mirror + "/current").resolvingSymlinksInPath().path
        TestSupport.write("my notes\n", to: mirror + "/current/notes.txt")
        TestSupport.write("to do\n", to: mirror + "/incoming/todo.txt")
        try Self.rebuildWithAoifesNewRate(served)

        let synced = try served.sync(into: mirror)
        #expect(synced.status == 0, "\(synced.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: mirror).filter { $0.hasPrefix("incoming.kept-") }
        #expect(kept.count == 1 && kept.allSatisfy { TestSupport.read(mirror + "/" + $0 + "/todo.txt") == "to do\n" })
        let keptNote = "holds files that no sync wrote (%@), so it was kept rather than removed; move out what you want and delete it"
        #expect(synced.stderr == "note: \(mirror)/\(kept.first ?? "?") " + String(format: keptNote, "todo.txt") + "\nnote: \(snapshot) " + String(format: keptNote, "notes.txt") + "\n")
        #expect(TestSupport.read(snapshot + "/notes.txt") == "my notes\n")
        #expect(Self.mirrored(mirror) == (try served.defaultSet()))
        #expect(!FileManager.default.fileExists(atPath: mirror + "/current/.noticeboard-incoming"), "the journal stays out of a snapshot")
    }

    /// A tree bucket that fails its digest is an error naming it, with the other buckets' fetches in flight,
    /// and the mirror keeps no snapshot of it. Such a sync once hung, two times in three: the fetches in flight
    /// were cancelled, and FoundationNetworking on Linux never ended them. So five syncs, each given 30 s.
    @Test func aBucketThatFailsItsDigestIsAnErrorAndNoHang() throws {
        let served = try Served()
        let place = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(place) }
        // The first bucket asked for, so that the others are still on their way.
        let bucket = served.site + "/public/api/sync/tree/0.json"
        TestSupport.write(TestSupport.read(bucket) + "   ", to: bucket)

        for attempt in 1...5 {
            let sync = try TestSupport.runCLI(["sync", served.address, place + "/mirror"], in: served.site, launcher: ["timeout", "30"])
            #expect(sync.status == 1, "sync \(attempt): exit \(sync.status) (124: it hung), \(sync.stderr)")
            #expect(sync.stderr.contains("api/sync/tree/0.json:") && sync.stderr.contains("bytes (the size the site gives it, or the most a document may have); stopped"), "\(sync.stderr)")
            #expect(!FileManager.default.fileExists(atPath: place + "/mirror/current"))
        }
    }

    /// The README's example of the client library compiles against the library as built.
    @Test func theReadmeExampleCompiles() throws {
        let readme = TestSupport.read(TestSupport.repository + "/README.md")
        let section = try #require(readme.components(separatedBy: "## For app developers").dropFirst().first?.components(separatedBy: "\n## ").first)
        let example = try #require(section.components(separatedBy: "```swift\n").dropFirst().first?.components(separatedBy: "```").first)
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        TestSupport.write(example, to: folder + "/Example.swift")
        let modules = URL(fileURLWithPath: TestSupport.executable).deletingLastPathComponent().path + "/Modules"
        let compiled = try TestSupport.run("swiftc", ["-typecheck", "-I", modules, folder + "/Example.swift"])
        #expect(compiled.status == 0, "\(compiled.stderr)")
    }
}
