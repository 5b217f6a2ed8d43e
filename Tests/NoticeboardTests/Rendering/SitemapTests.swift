import Foundation
@testable import Rendering
import SiteModel
import Testing

/// A sitemap lists at most 50,000 pages (sitemaps.org); a site with more gets an index of sitemaps.
@Suite struct SitemapTests {
    private static func text(_ file: OutputFile?) -> String { file?.contents.inMemory.map { String(decoding: $0, as: UTF8.self) } ?? "" }

    private static func locations(_ xml: String) -> [String] {
        xml.components(separatedBy: "<loc>").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test func pastTheLimitTheSitemapIsAnIndexOfSitemapsInPathOrder() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let renderer = try RenderShareTests.renderer(in: folder)
        let day = { (day: Int) in CalendarDate(year: 2026, month: 11, day: day)! }
        let pages = [
            ("rentals/drill/index.html", day(3)), ("cleaners/ana/index.html", day(1)), ("index.html", nil), ("cleaners/index.html", day(9)),
            ("rentals/index.html", day(2)), ("owners/bo/index.html", day(5)), ("search/index.html", nil),
        ].map { SiteRenderer.SitemapEntry(path: $0.0, lastModified: $0.1) }
        let whole = Dictionary(uniqueKeysWithValues: renderer.sitemapAndRobots(pages).map { ($0.path, $0) })
        #expect(whole.keys.sorted() == ["robots.txt", "sitemap.xml"])
        let listed = Self.locations(Self.text(whole["sitemap.xml"]))
        #expect(listed.count == 7)

        let split = Dictionary(uniqueKeysWithValues: renderer.sitemapAndRobots(pages, pagesPerFile: 3).map { ($0.path, $0) })
        #expect(split.keys.sorted() == ["robots.txt", "sitemap-1.xml", "sitemap-2.xml", "sitemap-3.xml", "sitemap.xml"])
        let index = Self.text(split["sitemap.xml"])
        #expect(index.contains("<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">") && !index.contains("<urlset"))
        #expect(Self.locations(index) == (1...3).map { renderer.site.url("sitemap-\($0).xml") })
        let parts = (1...3).map { Self.text(split["sitemap-\($0).xml"]) }
        #expect(parts.map { Self.locations($0).count } == [3, 3, 1])
        #expect(parts.flatMap(Self.locations) == listed)
        // Each part is dated by its newest page. A page without a date has no <lastmod> (the build's date would
        // change with every build), nor has a part of such pages.
        let dates = { (xml: String) in xml.components(separatedBy: "<lastmod>").dropFirst().map { String($0.prefix(10)) } }
        #expect(dates(index) == ["2026-11-09", "2026-11-05"])
        #expect(parts.map(dates) == [["2026-11-01", "2026-11-09"], ["2026-11-05", "2026-11-03", "2026-11-02"], []])
        #expect(Self.text(whole["sitemap.xml"]).contains("<url><loc>\(renderer.site.url(""))</loc></url>\n"))
        #expect(Self.text(split["robots.txt"]) == Self.text(whole["robots.txt"]))

        // Each part is a sitemap as sitemaps.org defines one.
        guard FileManager.default.fileExists(atPath: TestSupport.sitemapSchema) else { return }
        for (number, part) in parts.enumerated() {
            let path = folder + "/part-\(number).xml"
            TestSupport.write(part, to: path)
            let result = try TestSupport.run("xmllint", ["--noout", "--schema", TestSupport.sitemapSchema, path])
            #expect(result.status == 0, "\(result.stderr)")
        }
    }
}

/// A page's `lastmod` is when the newest-changed of its listings last changed (their `updated`), not the
/// kind's date field, which says nothing of that and may lie ahead (an event's day); feeds date an entry
/// published by that field only when it is not ahead, and updated when the listing changed.
@Suite struct LastModifiedTests {
    private static func lastmod(_ sitemap: String, _ path: String) -> String? {
        guard let entry = sitemap.components(separatedBy: "<url>").first(where: { $0.contains("<loc>https://example.org/catalogue/\(path)</loc>") }),
            let start = entry.range(of: "<lastmod>")
        else { return nil }
        return String(entry[start.upperBound...].prefix(10))
    }

    @Test func aPageIsDatedByWhenItsListingsLastChanged() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let first = CalendarDate(year: 2026, month: 11, day: 23)!, later = CalendarDate(year: 2026, month: 12, day: 2)!
        _ = try TestSupport.buildTree(site, now: first)
        let kayak = site + "/content/rentals/kayak.yaml"
        // Listed in the future, as an event is dated, and edited.
        TestSupport.write(TestSupport.read(kayak).replacingOccurrences(of: "listed: 2026-04-25", with: "listed: 2027-06-01") + "\n", to: kayak)
        let files = try TestSupport.buildTree(site, now: later)
        let sitemap = String(decoding: try #require(files["sitemap.xml"]), as: UTF8.self)
        #expect(Self.lastmod(sitemap, "rentals/kayak/") == "2026-12-02")
        #expect(Self.lastmod(sitemap, "rentals/cordless-drill/") == "2026-11-23")
        #expect(Self.lastmod(sitemap, "rentals/") == "2026-12-02" && Self.lastmod(sitemap, "") == "2026-12-02")
        #expect(Self.lastmod(sitemap, "cleaners/aoife-byrne/") == "2026-11-23")
        #expect(!sitemap.contains("<lastmod>2027"))
        let feed = try TestSupport.json(files, "feeds/rentals.json")
        let items = try #require(feed["items"] as? [[String: Any]])
        let kayakItem = try #require(items.first { ($0["url"] as? String)?.hasSuffix("/rentals/kayak/") == true })
        #expect(kayakItem["date_published"] == nil && kayakItem["date_modified"] as? String == "2026-12-02T00:00:00Z")
        let atom = String(decoding: try #require(files["feeds/rentals.atom"]), as: UTF8.self)
        #expect(!atom.contains("2027") && atom.contains("<updated>2026-12-02T00:00:00Z</updated>"))
    }
}
