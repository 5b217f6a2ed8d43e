import Foundation
@testable import NoticeboardServer
import Testing

/// inotify's events, as the watcher reads them: the entries that changed, relative to the site.
@Suite struct FolderEventsTests {
    /// A site with one file, `content/things/a.yaml`, and its folders watched.
    private func watchedSite() throws -> (site: String, events: FolderEvents) {
        let site = TestSupport.temporaryFolder()
        TestSupport.write("a", to: site + "/content/things/a.yaml")
        let events = try #require(FolderEvents(root: site))
        events.watch(below: ["content"])
        return (site, events)
    }

    @Test func namesTheEntriesThatChangedAndWatchesTheFoldersThatCome() throws {
        let (site, events) = try watchedSite()
        defer { TestSupport.removeTree(site) }
        #expect(events.drain() == .none)

        TestSupport.write("changed", to: site + "/content/things/a.yaml")
        #expect(events.drain() == .entries(["content/things/a.yaml"]))

        // A folder that comes is named, and watched from then on.
        TestSupport.write("b", to: site + "/content/fresh/b.yaml")
        guard case .entries(let came) = events.drain() else { Issue.record("no entries"); return }
        #expect(came.contains("content/fresh"))
        TestSupport.write("c", to: site + "/content/fresh/c.yaml")
        #expect(events.drain() == .entries(["content/fresh/c.yaml"]))

        // A folder that goes is named where it was.
        TestSupport.removeTree(site + "/content/things")
        guard case .entries(let went) = events.drain() else { Issue.record("no entries"); return }
        #expect(went.contains("content/things"))
        #expect(went.allSatisfy { $0.hasPrefix("content/things") })
        #expect(events.drain() == .none)
    }

    /// Past `mostEntries` in one go, the watcher is told to scan everything instead.
    @Test func tooManyEntriesAtOnceAreLeftToAWholeScan() throws {
        let (site, events) = try watchedSite()
        defer { TestSupport.removeTree(site) }
        for index in 0...FolderEvents.mostEntries { TestSupport.write("\(index)", to: site + "/content/things/\(index).yaml") }
        #expect(events.drain() == .unknown)
        #expect(events.drain() == .none)
    }
}
