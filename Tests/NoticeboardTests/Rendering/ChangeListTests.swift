import Foundation
import Noticeboard
import SiteModel
import Testing

/// Which builds leave apps a change list (`api/sync/changes/<build>.json`): one whose files are few against
/// the synced ones; a build that changes most of them restarts the chain, and apps walk the tree instead.
@Suite struct ChangeListTests {
    static func head(_ files: [String: Data]) throws -> (build: Int, changes: [String]) {
        let head = try TestSupport.json(files, "api/sync/head.json")
        let build = try #require(head["build"] as? Int)
        let changes = try #require(head["changes"] as? [[String: Any]]).compactMap { $0["url"] as? String }
        return (build, changes)
    }

    @Test func aSmallEditIsListedAndAChangeOfEveryFileRestartsTheChain() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let first = try TestSupport.buildTree(site)
        #expect(try Self.head(first).changes.isEmpty, "a first build has no last tree to list changes from")

        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 19.50", with: "hourly_rate: 20.00"), to: aoife)
        let edited = try TestSupport.buildTree(site)
        let afterEdit = try Self.head(edited)
        #expect(afterEdit.changes.count == 1 && afterEdit.changes[0].hasSuffix("api/sync/changes/\(afterEdit.build).json"))
        let list = try TestSupport.json(edited, "api/sync/changes/\(afterEdit.build).json")
        let listed = try #require(list["changed"] as? [[String: Any]]).compactMap { $0["path"] as? String }
        #expect(listed.contains("api/cleaners/aoife-byrne.json") && listed.count < 16, "\(listed)")

        let config = site + "/content/site.yaml"
        TestSupport.write(TestSupport.read(config).replacingOccurrences(of: "https://example.org/", with: "https://example.net/"), to: config)
        let moved = try Self.head(TestSupport.buildTree(site))
        #expect(moved.build == afterEdit.build + 1 && moved.changes.isEmpty)
    }

    /// A listing taken away (one no other file names) leaves its API document among the change list's `removed`.
    @Test func aListingTakenAwayIsListedAsRemoved() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let first = try TestSupport.buildTree(site)
        #expect(first["api/cleaners/padraig-walsh.json"] != nil)
        try FileManager.default.removeItem(atPath: site + "/content/cleaners/padraig-walsh.yaml")
        let after = try TestSupport.buildTree(site)
        let head = try Self.head(after)
        #expect(head.changes.count == 1)
        let list = try TestSupport.json(after, "api/sync/changes/\(head.build).json")
        let removed = try #require(list["removed"] as? [String])
        #expect(removed.contains("api/cleaners/padraig-walsh.json"), "\(removed)")
    }
}
