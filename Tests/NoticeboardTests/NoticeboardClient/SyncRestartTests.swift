import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Noticeboard
import NoticeboardClient
import SiteModel
import Testing

/// A site rebuilt while a sync fetches its files: the sync starts again from the new head rather than
/// failing on the first file that changed, and ends with the new build's files.
@Suite(.serialized) struct SyncRestartTests {
    /// Serves two builds of a site from their folders, as a host would while a build replaces one with the
    /// other: the first build's files for the first `switchAfter` requests, the second's after.
    final class TwoBuilds: URLProtocol, @unchecked Sendable {
        struct Plan {
            var before = "", after = "", switchAfter = 0, served = 0
        }
        nonisolated(unsafe) static var plan = Plan()
        static let lock = NSLock()

        override class func canInit(with request: URLRequest) -> Bool { true }
        override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

        override func startLoading() {
            let folder = Self.lock.withLock {
                Self.plan.served += 1
                return Self.plan.served <= Self.plan.switchAfter ? Self.plan.before : Self.plan.after
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

    @Test func aSyncDuringABuildStartsAgainFromTheNewHead() async throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let now = CalendarDate(year: 2026, month: 11, day: 23)!
        _ = try Noticeboard.build(BuildOptions(root: site, output: site + "/first", now: now))
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 19.50", with: "hourly_rate: 20.00"), to: aoife)
        _ = try Noticeboard.build(BuildOptions(root: site, output: site + "/second", now: now))
        // The head, the tree and its 16 buckets come from the first build; every file after, from the second.
        TwoBuilds.lock.withLock { TwoBuilds.plan = .init(before: site + "/first", after: site + "/second", switchAfter: 18) }

        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [TwoBuilds.self]
        let fetcher = Fetcher(baseURL: URL(string: "https://example.org/catalogue/")!, session: URLSession(configuration: configuration))
        let mirror = MirrorFolder(folder: URL(fileURLWithPath: site + "/mirror"))
        let report = try await Sync(fetcher: fetcher, mirror: mirror).run()

        let head = try JSONDecoder().decode(SyncFormat.Head.self, from: Data(contentsOf: URL(fileURLWithPath: site + "/second/api/sync/head.json")))
        #expect(report.build == head.build && mirror.record()?.root == head.root)
        let mirrored = TestSupport.tree(mirror.current.resolvingSymlinksInPath().path).filter { $0.key != ".noticeboard-mirror.json" }
        #expect(mirrored["cleaners/aoife-byrne.json"] == FileManager.default.contents(atPath: site + "/second/api/cleaners/aoife-byrne.json"))
        #expect(mirrored.count > 500 && mirrored.allSatisfy { $0.value == FileManager.default.contents(atPath: site + "/second/api/" + $0.key) })
        // Files fetched once for the first head and kept for the second: about one fetch a file, not two.
        #expect(report.fetched.files < mirrored.count + 60, "\(report.fetched.files) fetched for \(mirrored.count) files")
    }
}
