import Foundation
import Noticeboard
import SiteModel
import Testing

@testable import Rendering

/// The example theme as a visitor meets it: navigation chosen in site.yaml, a phone menu, contrast in both colour
/// schemes, stars, plurals, dates, chore urgency, photos and the home page's search box.
@Suite struct ThemeTests {
    func text(_ files: [String: Data], _ path: String) -> String {
        String(decoding: files[path] ?? Data(), as: UTF8.self)
    }

    @Test func theNavigationShowsTheKindsSiteYamlNamesAndIsAMenuOnPhones() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        let home = text(files, "index.html")
        let wide = try #require(home.range(of: "<ul class=\"nav-wide\">\n")), end = try #require(home.range(of: "</ul>", range: wide.upperBound..<home.endIndex))
        let links = home[wide.upperBound..<end.lowerBound].split(separator: "\n").map { String($0) }
        #expect(links.prefix(4) == [
            "<li><a href=\"/catalogue/cleaners/\">Cleaners</a></li>", "<li><a href=\"/catalogue/rentals/\">Rentals</a></li>",
            "<li><a href=\"/catalogue/rentals/map/\">Map</a></li>", "<li><a href=\"/catalogue/quotes/\">Quotes</a></li>",
        ])
        #expect(links.count == 8 && !links.contains { $0.contains("/owners/") || $0.contains("/houses/") })
        #expect(home.contains("<details class=\"nav-narrow\">\n<summary>Menu</summary>"))
        // Without `nav:`, every kind with pages, in `kinds` order.
        let config = TestSupport.read(site + "/content/site.yaml")
        TestSupport.write(config.replacingOccurrences(of: "\nnav: [cleaners, rentals, quotes]\n", with: "\n"), to: site + "/content/site.yaml")
        let all = text(try TestSupport.buildTree(site), "index.html")
        #expect(all.contains("<li><a href=\"/catalogue/owners/\">Owners</a></li>\n<li><a href=\"/catalogue/quotes/\">"))
    }

    /// The alert messages (`browse: false`) keep their page, but the home page's Browse, the navigation by
    /// default, and search (its index and its links for browsing without JavaScript) do not offer them.
    @Test func aKindNotForBrowsingKeepsItsPageButIsNotOffered() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let config = TestSupport.read(site + "/content/site.yaml")
        TestSupport.write(config.replacingOccurrences(of: "\nnav: [cleaners, rentals, quotes]\n", with: "\n"), to: site + "/content/site.yaml")
        let files = try TestSupport.buildTree(site)
        #expect(files["alerts/templates/index.html"] != nil && files["alerts/index.html"] != nil)
        let home = text(files, "index.html"), search = text(files, "search/index.html")
        let browse = try #require(home.range(of: "<ul class=\"kind-list\">")), browseEnd = try #require(home.range(of: "</ul>", range: browse.upperBound..<home.endIndex))
        let kinds = home[browse.upperBound..<browseEnd.lowerBound].matches(of: /<a href="\/catalogue\/([a-z]+)\/">/).map { String($0.1) }
        #expect(kinds == ["cleaners", "rentals", "owners", "quotes", "houses"])
        #expect(!home.contains("/catalogue/alerts/") && !search.contains("/catalogue/alerts/"))
        #expect(search.contains("<li><a href=\"/catalogue/houses/\">Chore boards</a></li>"))
        let meta = try TestSupport.json(files, "api/search/meta.json")
        let searched = try #require(meta["kinds"] as? [[String: Any]]).compactMap { $0["name"] as? String }
        #expect(searched == ["cleaners", "rentals", "owners", "quotes", "houses"])
    }

    /// Text 4.5:1 and the focus ring 3:1 against the page, in the light theme and in the dark one.
    @Test func bothColourSchemesKeepTheirContrast() throws {
        let css = TestSupport.read(TestSupport.repository + "/templates/assets/style.css")
        let dark = try #require(css.range(of: "@media (prefers-color-scheme: dark)"))
        for (scheme, block) in [("light", String(css[..<dark.lowerBound])), ("dark", String(css[dark.upperBound...]))] {
            let colours = try Self.colours(in: block)
            let paper = try #require(colours["paper"])
            for name in ["ink", "muted", "accent"] {
                #expect(try Self.contrast(#require(colours[name]), paper) >= 4.5, "\(scheme): --\(name) on --paper")
            }
            for name in ["focus", "star", "overdue-ink"] {
                #expect(try Self.contrast(#require(colours[name]), paper) >= 3, "\(scheme): --\(name) on --paper")
            }
        }
        #expect(css.contains("outline: 3px solid var(--focus)"))
    }

    /// The first `--name: #rrggbb` (or `#rgb`) of each name in the CSS.
    static func colours(in css: String) throws -> [String: [Double]] {
        var found: [String: [Double]] = [:]
        for match in css.matches(of: /--([a-z-]+): #([0-9a-f]{6}|[0-9a-f]{3});/) where found[String(match.1)] == nil {
            let hex = match.2.count == 6 ? Array(match.2) : match.2.flatMap { [$0, $0] }
            found[String(match.1)] = stride(from: 0, to: 6, by: 2).map { Double(Int(String(hex[$0...$0 + 1]), radix: 16)!) / 255 }
        }
        return found
    }

    /// WCAG 2 contrast ratio of two sRGB colours.
    static func contrast(_ a: [Double], _ b: [Double]) -> Double {
        func luminance(_ rgb: [Double]) -> Double {
            let linear = rgb.map { $0 <= 0.04045 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        }
        let (x, y) = (luminance(a), luminance(b))
        return (max(x, y) + 0.05) / (min(x, y) + 0.05)
    }

    @Test func starsAndPluralsAreTemplateTransforms() {
        #expect(Value.decimal(FixedDecimal(units: 44, scale: 1)).transform("stars") as? String == "★★★★☆")
        #expect(Value.decimal(FixedDecimal(units: 45, scale: 1)).transform("stars") as? String == "★★★★★")
        #expect(Value.int(0).transform("stars") as? String == "☆☆☆☆☆")
        #expect(Value.int(1).transform("plural") as? Bool == false)
        #expect(Value.int(7).transform("plural") as? Bool == true)
        #expect(Value.int(0).transform("plural") as? Bool == true)
    }

    @Test func theExampleShowsStarsDatesPluralsPhotosAndASearchBox() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        let cleaner = text(files, "cleaners/aoife-byrne/index.html")
        #expect(cleaner.contains("<dt>Rating</dt><dd><span class=\"star-row\" aria-hidden=\"true\">★★★★★</span> 4.7 out of 5 from 3 reviews</dd>"))
        let kayak = text(files, "rentals/kayak/index.html")
        #expect(kayak.contains("alt=\"Sit-on-top sea kayak, photo 1 of 2\"") && kayak.contains("alt=\"Sit-on-top sea kayak, photo 2 of 2\""))
        #expect(kayak.contains("<a href=\"/catalogue/media/rentals/kayak-1280w."))
        #expect(kayak.contains("<dt>Listed</dt><dd><time datetime=\"2026-04-25\">25 April 2026</time></dd>"))
        let home = text(files, "index.html")
        #expect(home.contains("<form class=\"home-search\" role=\"search\" action=\"/catalogue/search/\" method=\"get\">"))
        #expect(home.contains("<input id=\"home-search\" name=\"q\" type=\"search\""))
    }

    /// The page says 1.00 is due today and more is overdue; the rows say the same, and "1 day", not "1 days".
    /// It says which day that is: a page read days after its build still counts to its build's day.
    @Test func choreRowsSayDueTodayAtOneAndOverdueAbove() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        let board = text(files, "houses/maple-terrace/index.html")
        #expect(board.contains(#"As of <time datetime="2026-11-23">23 November 2026</time>"#), "the day TestSupport.now builds for")
        let rows = board.components(separatedBy: "<tr").dropFirst().filter { $0.contains("<time") }
        #expect(rows.count > 5)
        for row in rows {
            let urgency = try #require(row.firstMatch(of: /<td>(\d+\.\d\d)<\/td>/).map { Double($0.1)! })
            #expect(row.contains("overdue</strong>") == (urgency > 1), "\(row)")
            #expect(row.contains("<strong>due today</strong>") == (urgency == 1), "\(row)")
            #expect(!row.contains(">1 days") && !row.contains("(1 days ago)"), "\(row)")
        }
        #expect(rows.contains { $0.contains("<strong>due today</strong>") })
    }
}
