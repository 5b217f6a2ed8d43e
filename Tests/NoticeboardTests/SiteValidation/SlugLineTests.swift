import Foundation
import Testing

/// A listing's `slug:` line (as Hugo and exports from it write) is its web address in place of its file name's.
@Suite struct SlugLineTests {
    /// 2,000 exported files named by date and number, each with a `slug:`, and reviews referring to them by it.
    @Test func exportedFilesWithSlugLinesBuildAtTheirSlugs() throws {
        let site = TestSupport.makeSite(fixture: "paged")
        defer { TestSupport.removeTree(site) }
        for number in 1...2000 {
            TestSupport.write(
                "slug: Cleaner Ó \(number)\nname: Cleaner \(number)\ncounty: Cork\n", to: site + "/content/cleaners/2024-01-01-export-\(number).yaml")
        }
        TestSupport.write("cleaner: cleaner-o-7\nstars: 5\nby: Ana\n", to: site + "/content/reviews/one.yaml")
        let files = try TestSupport.buildTree(site)
        let pages = files.keys.filter { $0.hasPrefix("cleaners/cleaner-o-") && $0.hasSuffix("/index.html") }
        #expect(pages.count == 2000)
        #expect(!files.keys.contains { $0.contains("export") })
        let seventh = try TestSupport.json(files, "api/cleaners/cleaner-o-7.json")
        #expect(seventh["slug"] as? String == "cleaner-o-7" && (seventh["review_count"] as? Int) == 1)
        #expect(seventh["name"] as? String == "Cleaner 7" && seventh["url"] as? String == "https://example.org/sub/path/cleaners/cleaner-o-7/")
    }
}
