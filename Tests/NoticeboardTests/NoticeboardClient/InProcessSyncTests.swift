import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Noticeboard
@testable import NoticeboardClient
import SiteModel
import Synchronization
import Testing

/// Syncs against builds served from folders in this process, where the test decides what each request gets
/// and when: a site rebuilt while a sync fetches, and two syncs into one mirror at once.
@Suite(.serialized) struct InProcessSyncTests {
    /// Serves two builds of a site from their folders, as a host would while a build replaces one with the
    /// other: the first build's files for the first `switchAfter` requests, the second's after.
    final class ServedBuilds: URLProtocol {
        struct Plan: Sendable {
            var before = "", after = "", switchAfter = Int.max, served = 0
            /// The User-Agent of every request served.
            var userAgents: Set<String> = []
        }
        static let plan = Mutex(Plan())

        static func serve(_ before: String, thenAfter switchAfter: Int = .max, _ after: String? = nil) {
            plan.withLock { $0 = Plan(before: before, after: after ?? before, switchAfter: switchAfter) }
        }

        override class func canInit(with request: URLRequest) -> Bool { true }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

        override func startLoading() {
            let folder = Self.plan.withLock { plan in
                plan.served += 1
                plan.userAgents.insert(request.value(forHTTPHeaderField: "User-Agent") ?? "none")
                return plan.served <= plan.switchAfter ? plan.before : plan.after
            }
            let path = String((request.url?.path ?? "").dropFirst("/catalogue/".count))
            let data = FileManager.default.contents(atPath: folder + "/" + path)
            let response = HTTPURLResponse(url: request.url!, statusCode: data == nil ? 404 : 200, httpVersion: "HTTP/1.1", headerFields: [:])!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            client?.urlProtocol(self, didLoad: data ?? Data())
            client?.urlProtocolDidFinishLoading(self)
        }

        override func stopLoading() {}
    }

    static let now = CalendarDate(year: 2026, month: 11, day: 23)!

    static func fetcher(userAgent: String? = nil) -> Fetcher {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [ServedBuilds.self]
        let base = URL(string: "https://example.org/catalogue/")!
        return userAgent.map { Fetcher(baseURL: base, configuration: configuration, userAgent: $0) } ?? Fetcher(baseURL: base, configuration: configuration)
    }

    /// The mirror's files, less its own record, against the build's `api/` at `output`.
    static func expectMirror(_ mirror: MirrorFolder, is output: String) {
        let mirrored = TestSupport.tree(mirror.current.resolvingSymlinksInPath().path).filter { $0.key != ".noticeboard-mirror.json" }
        #expect(mirrored.count > 500 && mirrored.allSatisfy { $0.value == FileManager.default.contents(atPath: output + "/api/" + $0.key) })
    }

    static func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<200 where !condition() { try? await Task.sleep(nanoseconds: 50_000_000) }
        return condition()
    }

    /// A body is stopped once it passes the size the site gives it (a listed file) or the most any document
    /// may have, rather than held whole and then found too large: a server sending without end filled memory.
    @Test func aBodyLargerThanTheSiteSaysIsStoppedAtItsSize() async throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try Noticeboard.build(BuildOptions(root: site, output: site + "/public", now: Self.now))
        ServedBuilds.serve(site + "/public")
        let fetcher = Self.fetcher()
        let about = try Data(contentsOf: URL(fileURLWithPath: site + "/public/api/index.json"))
        // The file as served is larger than the size it is fetched with.
        do {
            _ = try await fetcher.fetch("api/index.json", expected: (size: about.count - 1, sha256: String(repeating: "0", count: 64)))
            Issue.record("fetched a body larger than its size")
        } catch let failure as Fetcher.Failure {
            guard case .tooLarge(_, let limit) = failure else { throw failure }
            #expect(limit == about.count - 1)
        }
        #expect(Fetcher.mostUnlistedBytes == 64 << 20)
    }

    /// Sends its body a byte every 50 ms for 10 s: never silent long enough for URLSession's own time-out.
    final class DrippingServer: URLProtocol {
        private let stopped = Mutex(false)

        override class func canInit(with request: URLRequest) -> Bool { true }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

        override func startLoading() {
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!
            client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            // URLProtocol is not Sendable; its client takes parts from any thread.
            nonisolated(unsafe) let server = self
            Thread.detachNewThread {
                for _ in 0..<200 where !server.stopped.withLock({ $0 }) {
                    server.client?.urlProtocol(server, didLoad: Data("x".utf8))
                    usleep(50_000)
                }
                if !server.stopped.withLock({ $0 }) { server.client?.urlProtocolDidFinishLoading(server) }
            }
        }

        override func stopLoading() {
            stopped.withLock { $0 = true }
        }
    }

    /// A server that drips its body is let go once the download falls below the slowest pace, rather than
    /// holding the sync as long as it goes on.
    @Test func aServerThatDripsItsBodyIsLetGo() async throws {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [DrippingServer.self]
        let slowest = DownloadPace(bytes: 1000, within: .milliseconds(500))
        let fetcher = Fetcher(baseURL: URL(string: "https://example.org/catalogue/")!, configuration: configuration, slowest: slowest)
        do {
            let body = try await fetcher.fetch("api/sync/head.json")
            Issue.record("took a dripped body of \(body.count) bytes whole")
        } catch let failure as Fetcher.Failure {
            guard case .tooSlow(_, let pace) = failure else { throw failure }
            #expect(pace == slowest)
            #expect(failure.description == "https://example.org/catalogue/api/sync/head.json: fewer than 1000 bytes came in 0.5 s; stopped")
        }
    }

    /// Without one, URLSession on Linux says `<program> (unknown version)`.
    @Test func everyRequestSaysWhichAppFetchedIt() async throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try Noticeboard.build(BuildOptions(root: site, output: site + "/public", now: Self.now))
        for (userAgent, expected) in [("MyApp/2.1", "MyApp/2.1"), (nil, "NoticeboardClient")] {
            ServedBuilds.serve(site + "/public")
            _ = try await Sync(fetcher: Self.fetcher(userAgent: userAgent), mirror: MirrorFolder(folder: URL(fileURLWithPath: site + "/mirror"))).run()
            #expect(ServedBuilds.plan.withLock { $0.userAgents } == [expected])
        }
    }

    @Test func aSyncDuringABuildStartsAgainFromTheNewHead() async throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try Noticeboard.build(BuildOptions(root: site, output: site + "/first", now: Self.now))
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 19.50", with: "hourly_rate: 20.00"), to: aoife)
        _ = try Noticeboard.build(BuildOptions(root: site, output: site + "/second", now: Self.now))
        // The head, the tree and its 16 buckets come from the first build; every file after, from the second.
        ServedBuilds.serve(site + "/first", thenAfter: 18, site + "/second")

        let mirror = MirrorFolder(folder: URL(fileURLWithPath: site + "/mirror"))
        // Eight fetches at a time, as `noticeboard sync` makes them: the first file that fails its digest leaves
        // others in flight, which are waited for before the sync starts again.
        let report = try await Sync(fetcher: Self.fetcher(), mirror: mirror).run()

        let head = try JSONDecoder().decode(SyncFormat.Head.self, from: Data(contentsOf: URL(fileURLWithPath: site + "/second/api/sync/head.json")))
        #expect(report.build == head.build && mirror.record()?.root == head.root)
        Self.expectMirror(mirror, is: site + "/second")
        // Files fetched once for the first head and kept for the second: about one fetch a file, not two.
        let files = mirror.record()?.files.count ?? 0
        #expect(report.fetched.files < files + 60, "\(report.fetched.files) fetched for \(files) files")
    }

    /// While another sync holds the mirror (here, the test holds its lock), a sync waits, says so, and writes
    /// nothing; then it runs. Two syncs once made their snapshots in one `incoming/`, and the second to finish
    /// put a part of the mirror in place of the whole, which every later sync took as up to date.
    @Test func aSyncWaitsWhileAnotherHoldsTheMirror() async throws {
        let (site, folder, other) = try Self.servedSiteWithHeldMirror()
        defer { TestSupport.removeTree(site) }
        let (run, mirror, didWait) = await Self.waitingSync(into: folder)
        try await Task.sleep(nanoseconds: 200_000_000)
        let wroteWhileWaiting = try FileManager.default.contentsOfDirectory(atPath: folder)
        close(other)
        let report = try await run.value

        #expect(didWait && wroteWhileWaiting.isEmpty, "\(wroteWhileWaiting)")
        #expect(!report.wasUpToDate)
        Self.expectMirror(mirror, is: site + "/built")
    }

    /// The example site built and served, and its folder `mirror` made and locked, as another sync holds it.
    static func servedSiteWithHeldMirror() throws -> (site: String, folder: String, held: Int32) {
        let site = TestSupport.makeSite()
        _ = try Noticeboard.build(BuildOptions(root: site, output: site + "/built", now: Self.now))
        ServedBuilds.serve(site + "/built")
        let folder = site + "/mirror"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let held = open(folder, O_RDONLY | O_DIRECTORY)
        #expect(flock(held, LOCK_EX) == 0)
        return (site, folder, held)
    }

    /// A sync into `folder` started, once it says it waits (or after 10 s, when `didWait` is false).
    static func waitingSync(into folder: String) async -> (run: Task<Sync.Report, Error>, mirror: MirrorFolder, didWait: Bool) {
        let waited = Mutex(false)
        let mirror = MirrorFolder(folder: URL(fileURLWithPath: folder))
        var sync = Sync(fetcher: Self.fetcher(), mirror: mirror)
        sync.waiting = { waited.withLock { $0 = true } }
        let run = Task { [sync] in try await sync.run() }
        return (run, mirror, await Self.eventually { waited.withLock { $0 } })
    }

    /// A document that is not what the client reads is an error naming its URL and what is wrong, in words
    /// (it was Foundation's `DecodingError.dataCorrupted: …`, with no file named).
    @Test func aHeadThatIsNotTheDocumentExpectedIsNamed() async throws {
        let site = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(site) }
        let treeElsewhere = #"{"api_version": 1, "build": 1, "date": "2026-11-23", "root": "ab", "tree": {"url": "https://example.org/catalogue/other.json", "size": 1, "sha256": "ab"}, "changes": []}"#
        for (head, reason) in [
            ("<html>", "not valid JSON"), (#"{"api_version": 1}"#, "no 'build'"),
            (treeElsewhere, "its tree is at https://example.org/catalogue/other.json, not at api/sync/tree.json below the site"),
        ] {
            TestSupport.write(head, to: site + "/served/api/sync/head.json")
            ServedBuilds.serve(site + "/served")
            let mirror = MirrorFolder(folder: URL(fileURLWithPath: site + "/mirror"))
            do {
                _ = try await Sync(fetcher: Self.fetcher(), mirror: mirror).run()
                Issue.record("\(head) was synced")
            } catch {
                #expect("\(error)" == "https://example.org/catalogue/api/sync/head.json: not the document this client reads there (\(reason))")
            }
        }
    }

    /// What the site's documents name below the base URL it was built for is fetched below the one the client
    /// was given, and never from another host, whatever follows that base (the review).
    @Test func documentsAreFetchedBelowTheBaseURLGiven() {
        let fetcher = Fetcher(baseURL: URL(string: "http://127.0.0.1:8000/copy/")!)
        #expect(fetcher.siteBuiltFor("https://example.org/catalogue/api/sync/tree.json", isAt: "api/sync/tree.json"))
        #expect(fetcher.url("https://example.org/catalogue/api/cleaners/page/1.json").absoluteString == "http://127.0.0.1:8000/copy/api/cleaners/page/1.json")
        for hostile in ["https://example.org/catalogue//evil.example/x.json", "https://example.org/catalogue/../../x.json", "https://evil.example/x.json"] {
            let url = fetcher.url(hostile)
            #expect(url.host == "127.0.0.1" && url.port == 8000, "\(hostile) → \(url)")
        }
    }

    /// A sync that waited on a folder that was then removed (as a sync that fails in a folder it made removes
    /// it) locks the folder made at its path after, and waits while another holds that one.
    @Test func aSyncThatWaitedOnARemovedFolderLocksTheNewOne() async throws {
        let (site, folder, first) = try Self.servedSiteWithHeldMirror()
        defer { TestSupport.removeTree(site) }
        let (run, mirror, didWait) = await Self.waitingSync(into: folder)
        rmdir(folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let second = open(folder, O_RDONLY | O_DIRECTORY)
        #expect(flock(second, LOCK_EX) == 0)
        close(first)
        try await Task.sleep(nanoseconds: 300_000_000)
        let wroteWhileWaiting = try FileManager.default.contentsOfDirectory(atPath: folder)
        close(second)
        let report = try await run.value

        #expect(didWait && wroteWhileWaiting.isEmpty, "\(wroteWhileWaiting)")
        #expect(!report.wasUpToDate)
        Self.expectMirror(mirror, is: site + "/built")
    }
}
