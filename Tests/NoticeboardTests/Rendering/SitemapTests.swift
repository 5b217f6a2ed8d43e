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
