import Foundation
import Noticeboard
import SiteModel
import Testing

@testable import Rendering

/// The archive of the quote of the day, its links to the quote itself and to its category, and dates in the
/// site's language.
@Suite struct DailyPagesTests {
    func text(_ files: [String: Data], _ path: String) -> String {
        String(decoding: files[path] ?? Data(), as: UTF8.self)
    }

    @Test func theArchiveHasAPagePerDayThatLinksTheQuoteItself() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        let days = files.keys.filter { $0.hasPrefix("quotes/daily/2") }.sorted()
        #expect(days.count == DailyPick.archiveDays + 1)
        #expect(days.first == "quotes/daily/2026-10-24/index.html" && days.last == "quotes/daily/2026-11-23/index.html")
        let index = text(files, "quotes/daily/index.html")
        for day in days { #expect(index.contains("<a href=\"/catalogue/\(day.dropLast("index.html".count))\">")) }
        // The build date's page shows the day's pick and links to the quote's anchor on its collection's page.
        let pick = try TestSupport.json(files, "api/quotes/daily/2026-11-23.json")
        let entry = try #require(pick["entry"] as? [String: Any]), position = try #require(pick["position"] as? Int)
        let slug = try #require((pick["listing"] as? [String: Any])?["slug"] as? String)
        let page = text(files, "quotes/daily/2026-11-23/index.html")
        #expect(page.contains("<h1>Quote of the day, <time datetime=\"2026-11-23\">23 November 2026</time></h1>"))
        #expect(page.contains("<a href=\"/catalogue/quotes/\(slug)/#entry-\(position - 1)\">"))
        let collection = text(files, "quotes/\(slug)/index.html")
        let anchored = try #require(collection.range(of: "<li id=\"entry-\(position - 1)\">"))
        let quote = try #require(entry["text"] as? String).replacingOccurrences(of: "'", with: "&#39;")
        #expect(collection[anchored.upperBound...].prefix(400).contains(quote))
        #expect(text(files, "index.html").contains("href=\"/catalogue/quotes/\(slug)/#entry-\(position - 1)\""))
    }

    /// The API root names the daily documents only where they are written: a kind with `daily` but nothing
    /// to pick (no collection of quotes) has no daily file, and the root says `null`, not a URL that 404s.
    @Test func theAPIRootNamesNoDailyFilesWhereThereIsNothingToPick() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        func dailyURL(_ files: [String: Data]) throws -> Any? {
            let root = try TestSupport.json(files, "api/index.json")
            let kinds = try #require(root["kinds"] as? [[String: Any]])
            return try #require(kinds.first { $0["name"] as? String == "quotes" })["daily"]
        }
        let before = try TestSupport.buildTree(site)
        #expect(try dailyURL(before) as? String == "https://example.org/catalogue/api/quotes/daily/{date}.json")
        try FileManager.default.removeItem(atPath: site + "/content/quotes")
        let after = try TestSupport.buildTree(site)
        #expect(try dailyURL(after) is NSNull)
        #expect(!after.keys.contains { $0.hasPrefix("api/quotes/daily/") })
    }

    @Test func categoryTagsLinkTheirPageWhichIsHeadedAsWritten() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        #expect(text(files, "quotes/on-work/index.html").contains("<a class=\"tag\" href=\"/catalogue/quotes/category/work/\">Work</a>"))
        #expect(text(files, "quotes/category/work/index.html").contains("<h1>Category: Work</h1>"))
    }

    @Test func datesAreWrittenInTheSitesLanguage() {
        let date = CalendarDate(year: 2026, month: 11, day: 23)!
        #expect(DateText(language: "en-IE").text(date) == "23 November 2026")
        #expect(DateText(language: "en-US").text(date) == "November 23, 2026")
        #expect(DateText(language: "de-DE").text(date) == "23. November 2026")
        #expect(DateText(language: "en-IE").text(CalendarDate(year: 2027, month: 1, day: 1)!) == "1 January 2027")
    }
}
