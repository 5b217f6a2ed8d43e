import Foundation
import Noticeboard
@testable import NoticeboardServer
import Synchronization
import Testing

/// serve's watcher compares each scan with the inputs its last build started from.
@Suite struct SiteWatcherTests {
    /// An edit made once the first build has read the site, before the watch loop's first poll, is built:
    /// the loop starts from the first build's inputs, not from a scan of its own taken after that build
    /// (which, on a site whose first build takes minutes, took every edit made meanwhile for built).
    /// Async throughout: waiting on a semaphore here would hold one of the few threads the loop runs on.
    @Test func anEditMadeAfterTheFirstBuildReadTheSiteIsBuilt() async throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let options = BuildOptions(root: site, output: site + "/preview", now: TestSupport.now)
        let watcher = SiteWatcher(options: options, events: ReloadEvents(), site: LiveSite(options: options)) {}
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        let first = await watcher.firstBuild { _ in
            TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "name: Aoife Byrne", with: "name: Aoife Byrne-Nolan"), to: aoife)
        }
        let builds = Mutex(0)
        let loop = Task {
            await watcher.run(after: first) { result in
                if case .success = result { builds.withLock { $0 += 1 } }
            }
        }
        for _ in 0..<200 where builds.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(100)) }
        loop.cancel()
        await loop.value
        #expect(builds.withLock { $0 } == 1)
        #expect(TestSupport.read(site + "/preview/cleaners/aoife-byrne/index.html").contains("<h1>Aoife Byrne-Nolan</h1>"))
    }
}
