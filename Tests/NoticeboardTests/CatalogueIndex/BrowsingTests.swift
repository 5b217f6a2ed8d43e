import CatalogueIndex
import Foundation
import Noticeboard
import SiteModel
import Testing

/// Facets, pagination, derived fields, daily picks, feeds and the files apps and crawlers read.
@Suite struct BrowsingTests {
    static let buildDate = CalendarDate(year: 2026, month: 11, day: 23)!

    func build(_ site: String, now: CalendarDate = buildDate, output: String? = nil) throws -> [String: Data] {
        _ = try Noticeboard.build(BuildOptions(root: site, output: output, now: now))
        return TestSupport.tree(output ?? site + "/public")
    }

    func text(_ files: [String: Data], _ path: String) -> String {
        String(decoding: files[path] ?? Data(), as: UTF8.self)
    }

    func json(_ files: [String: Data], _ path: String) throws -> [String: Any] {
        let data = try #require(files[path], "\(path) missing")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// 50 cleaners (30 in Cork, 20 in Kerry) and reviews for the first five.
    func pagedSite() -> String {
        let site = TestSupport.makeSite(fixture: "paged")
        for number in 1...50 {
            let name = String(format: "cleaner-%02d", number)
            TestSupport.write("name: Cleaner \(number)\ncounty: \(number <= 30 ? "Cork" : "Kerry")\nlanguages: [English\(number % 2 == 0 ? ", Irish" : "")]\n", to: site + "/content/cleaners/\(name).yaml")
        }
        let reviews = [("cleaner-01", [5, 4, 4]), ("cleaner-02", [3]), ("cleaner-03", [5, 5]), ("cleaner-04", [1, 2]), ("cleaner-05", [4])]
        for (cleaner, stars) in reviews {
            for (index, count) in stars.enumerated() {
                TestSupport.write("cleaner: \(cleaner)\nstars: \(count)\nby: R\(index)\n", to: site + "/content/reviews/\(cleaner)-\(index).yaml")
            }
        }
        return site
    }

    @Test func listsArePaginatedWithPreviousAndNextLinks() throws {
        let site = pagedSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        #expect(files["cleaners/index.html"] != nil && files["cleaners/page/2/index.html"] != nil && files["cleaners/page/3/index.html"] != nil)
        #expect(files["cleaners/page/1/index.html"] == nil && files["cleaners/page/4/index.html"] == nil)
        let first = text(files, "cleaners/index.html"), second = text(files, "cleaners/page/2/index.html"), third = text(files, "cleaners/page/3/index.html")
        #expect(!first.contains("rel=\"prev\"") && first.contains("<link rel=\"next\" href=\"/sub/path/cleaners/page/2/\">"))
        #expect(second.contains("<link rel=\"prev\" href=\"/sub/path/cleaners/\">") && second.contains("<link rel=\"next\" href=\"/sub/path/cleaners/page/3/\">"))
        #expect(second.contains("<a rel=\"prev\" href=\"/sub/path/cleaners/\">") && second.contains("<a rel=\"next\" href=\"/sub/path/cleaners/page/3/\">"))
        #expect(third.contains("<link rel=\"prev\" href=\"/sub/path/cleaners/page/2/\">") && !third.contains("rel=\"next\""))
        let cards = [first, second, third].map { $0.components(separatedBy: "<li class=\"card\">").count - 1 }
        #expect(cards == [24, 24, 2])
        // Best rated first (4.33 beats 4.00), unreviewed cleaners last by name.
        let order = first.matches(of: /cleaners\/(cleaner-\d\d)\//).map { String($0.1) }
        #expect(Array(order.prefix(6)) == ["cleaner-03", "cleaner-01", "cleaner-05", "cleaner-02", "cleaner-04", "cleaner-06"])
    }

    /// The home page's newest listings are the newest of every kind with pages, a tie on the date going to
    /// the kind's name and then the slug: here nine listings share the newest date and one falls out. A
    /// hundred older cleaners make the pick a partial one (swift-algorithms sorts fewer than 90 whole).
    @Test func theNewestListingsBreakTiesByKindThenSlug() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        func redate(_ file: String, _ field: String, _ date: String) throws {
            let path = site + "/content/" + file + ".yaml"
            let text = try String(contentsOfFile: path, encoding: .utf8)
            TestSupport.write(text.replacing(try Regex("(?m)^\(field): .*$"), with: "\(field): \(date)"), to: path)
        }
        for slug in ["padraig-walsh", "aoife-byrne", "olena-kovalenko"] { try redate("cleaners/" + slug, "joined", "2026-11-22") }
        for slug in ["pa-speaker", "kayak", "camping-stove", "lawn-mower", "gazebo", "hedge-trimmer"] { try redate("rentals/" + slug, "listed", "2026-11-22") }
        try redate("cleaners/declan-murphy", "joined", "2026-11-21")
        let older = try String(contentsOfFile: site + "/content/cleaners/aoife-byrne.yaml", encoding: .utf8)
            .replacing(try Regex("(?m)^joined: .*$"), with: "joined: 2020-01-01")
        for number in 1...100 { TestSupport.write(older, to: site + "/content/cleaners/older-\(number).yaml") }
        let home = text(try build(site), "index.html")
        let section = try #require(home.firstRange(of: "id=\"newest-heading\"").map { home[$0.upperBound...] })
        let newest = section.prefix(upTo: try #require(section.firstRange(of: "</section>")).lowerBound)
            .matches(of: /href="\/[^"]*?\/(cleaners|rentals|owners|quotes)\/([a-z-]+)\/"/).map { "\($0.1)/\($0.2)" }
        #expect(Array(NSOrderedSet(array: newest)) as? [String] == [
            "cleaners/aoife-byrne", "cleaners/olena-kovalenko", "cleaners/padraig-walsh",
            "rentals/camping-stove", "rentals/gazebo", "rentals/hedge-trimmer", "rentals/kayak", "rentals/lawn-mower",
        ])
    }

    /// A group of a list's pages is made without the others, and is those pages of the whole list.
    @Test func someOfAListsPagesAreThoseOfTheWholeList() {
        for itemCount in [0, 1, 24, 25, 100] {
            let items = Array(0..<itemCount)
            let whole = Pagination.pages(of: items, size: 24, basePath: "cleaners/")
            for start in 0...whole.count {
                for end in start...whole.count {
                    let some = Pagination.pages(of: items, size: 24, basePath: "cleaners/", in: start..<end)
                    #expect(some.map(\.number) == whole[start..<end].map(\.number))
                    #expect(some.map(\.count) == whole[start..<end].map(\.count))
                    #expect(some.map { Array($0.items) } == whole[start..<end].map { Array($0.items) })
                    #expect(some.map(\.outputPath) == whole[start..<end].map(\.outputPath))
                }
            }
        }
    }

    /// A paginator links the first and last pages and two either side of the current one, with a gap for
    /// skipped pages, so a long list's pages do not each carry a link to every other.
    @Test func paginatorsShowAWindowOfPages() throws {
        func window(_ number: Int, of count: Int) -> String {
            let pages = Pagination.pages(of: Array(0..<(count * 24)), size: 24, basePath: "cleaners/")
            return pages[number - 1].window.map { $0.map(String.init) ?? "…" }.joined(separator: " ")
        }
        #expect(window(1, of: 1) == "1")
        #expect(window(1, of: 3) == "1 2 3")
        #expect(window(1, of: 417) == "1 2 3 … 417")
        #expect(window(5, of: 417) == "1 2 3 4 5 6 7 … 417")
        #expect(window(6, of: 417) == "1 … 4 5 6 7 8 … 417")
        #expect(window(7, of: 417) == "1 … 5 6 7 8 9 … 417")
        #expect(window(412, of: 417) == "1 … 410 411 412 413 414 … 417")
        #expect(window(413, of: 417) == "1 … 411 412 413 414 415 416 417")
        #expect(window(417, of: 417) == "1 … 415 416 417")
        #expect(window(4, of: 7) == "1 2 3 4 5 6 7")
        for count in 1...40 {
            for number in 1...count { #expect(window(number, of: count).split(separator: " ").count <= 9) }
        }

        // In the example theme, on the first of 9 pages: the current page, the window, a gap, the last page,
        // and no link to a page outside the window.
        let site = pagedSite()
        defer { TestSupport.removeTree(site) }
        for number in 51...200 { TestSupport.write("name: Cleaner \(number)\ncounty: Cork\n", to: site + "/content/cleaners/cleaner-\(number).yaml") }
        let files = try build(site)
        #expect(files["cleaners/page/9/index.html"] != nil && files["cleaners/page/10/index.html"] == nil)
        let first = text(files, "cleaners/index.html")
        #expect(first.contains("""
            <li><span aria-current="page">1</span></li>
            <li><a href="/sub/path/cleaners/page/2/">2</a></li>
            <li><a href="/sub/path/cleaners/page/3/">3</a></li>
            <li class="gap">…</li>
            <li><a href="/sub/path/cleaners/page/9/">9</a></li>
            """))
        #expect(!first.contains("cleaners/page/4/") && !first.contains("cleaners/page/8/"))
    }

    @Test func facetValuesGetTheirOwnPaginatedPages() throws {
        let site = pagedSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        let cork = text(files, "cleaners/county/cork/index.html")
        #expect(cork.contains("<h1>County: Cork</h1>") && cork.contains("30 listed, page 1 of 2"))
        // The title, the heading and the breadcrumbs name the kind, the facet and the value in that order.
        #expect(cork.contains("<title>Cleaners · County: Cork · "))
        #expect(cork.contains(">Cleaners</a></li><li><a href=\"/sub/path/cleaners/county/\">County</a></li><li><a href=\"/sub/path/cleaners/county/cork/\" aria-current=\"page\">Cork</a>"))
        #expect(text(files, "cleaners/county/cork/page/2/index.html").contains("<title>Cleaners · County: Cork, page 2 · "))
        #expect(text(files, "cleaners/county/cork/page/2/index.html").components(separatedBy: "<li class=\"card\">").count - 1 == 6)
        #expect(files["cleaners/county/kerry/page/2/index.html"] == nil)
        #expect(text(files, "cleaners/county/kerry/index.html").components(separatedBy: "<li class=\"card\">").count - 1 == 20)
        let facetIndex = text(files, "cleaners/languages/index.html")
        #expect(facetIndex.contains("<a href=\"/sub/path/cleaners/languages/english/\">English</a> <span class=\"count\">50</span>"))
        #expect(facetIndex.contains("<a href=\"/sub/path/cleaners/languages/irish/\">Irish</a> <span class=\"count\">25</span>"))
        // Kinds without pages get none, and no navigation entry.
        #expect(!files.keys.contains { $0.hasPrefix("reviews/") })
        #expect(!text(files, "index.html").contains("/sub/path/reviews/"))
    }

    @Test func derivedFieldsComeFromReferringListings() throws {
        let site = pagedSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        let first = try json(files, "api/cleaners/cleaner-01.json")
        #expect((first["rating"] as? NSNumber)?.doubleValue == 4.33)
        #expect(first["review_count"] as? Int == 3 && first["total_stars"] as? Int == 13)
        #expect(first["best"] as? Int == 5 && first["worst"] as? Int == 4)
        let reviews = try #require(first["reviews"] as? [[String: Any]])
        #expect(reviews.map { $0["stars"] as? Int } == [5, 4, 4])
        let unreviewed = try json(files, "api/cleaners/cleaner-10.json")
        #expect(unreviewed["rating"] == nil && unreviewed["review_count"] as? Int == 0 && (unreviewed["reviews"] as? [Any])?.isEmpty == true)
        // JSON text keeps the declared precision: 4.33, not 4.333….
        #expect(text(files, "api/cleaners/cleaner-01.json").contains("\"rating\":4.33,"))
    }

    @Test func exampleCleanersShowTheirReviewsAndOwnersTheirItems() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        let aoife = try json(files, "api/cleaners/aoife-byrne.json")
        let stars = try FileManager.default.contentsOfDirectory(atPath: site + "/content/reviews").filter { $0.hasPrefix("aoife-byrne-") }
            .map { TestSupport.read(site + "/content/reviews/" + $0) }
            .map { Int($0.firstMatch(of: /stars: (\d)/)!.1)! }
        let average = (Double(stars.reduce(0, +)) / Double(stars.count) * 10).rounded() / 10
        #expect(aoife["review_count"] as? Int == stars.count)
        #expect((aoife["rating"] as? NSNumber)?.doubleValue == average)
        let page = text(files, "cleaners/aoife-byrne/index.html")
        #expect(page.contains("\(String(format: "%.1f", average)) out of 5 from \(stars.count) reviews"))
        #expect(page.components(separatedBy: "<blockquote>").count - 1 == stars.count)
        // The reviewer's private email is in the source files but nowhere in the output.
        #expect(!files.values.contains { $0.range(of: Data("@example.net".utf8)) != nil && String(decoding: $0, as: UTF8.self).contains("reviewer_email") })
        let owner = text(files, "owners/mary-kelly/index.html")
        let owned = try FileManager.default.contentsOfDirectory(atPath: site + "/content/rentals").filter {
            TestSupport.read(site + "/content/rentals/" + $0).contains("owner: mary-kelly")
        }
        #expect(!owned.isEmpty)
        for item in owned { #expect(owner.contains("/catalogue/rentals/\(item.dropLast(5))/"), "\(item) missing from its owner's page") }
    }

    /// A review embedded in its cleaner's document says when it changed, as its own document does.
    @Test func anEmbeddedListingIsDatedAsItsOwnDocument() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        let review = site + "/content/reviews/aoife-byrne-1.yaml"
        let edited = TestSupport.read(review).replacingOccurrences(of: #"stars: [2-5]"#, with: "stars: 1", options: .regularExpression)
        #expect(edited != TestSupport.read(review))
        TestSupport.write(edited, to: review)
        let later = try build(site, now: CalendarDate(year: 2026, month: 11, day: 25)!)
        let embedded = try #require(try json(later, "api/cleaners/aoife-byrne.json")["reviews"] as? [[String: Any]])
        let dates = Dictionary(uniqueKeysWithValues: embedded.map { ($0["slug"] as? String ?? "", $0["updated"] as? String) })
        #expect(dates.count > 1 && dates["aoife-byrne-1"] == "2026-11-25", "\(dates)")
        for (slug, date) in dates {
            #expect(date == (try json(later, "api/reviews/\(slug).json")["updated"] as? String), "\(slug)")
            if slug != "aoife-byrne-1" { #expect(date == "2026-11-23", "\(slug)") }
        }
        // The whole-kind file holds the same items.
        let items = try #require(try json(later, "api/cleaners.json")["items"] as? [[String: Any]])
        let aoife = try #require(items.first { $0["slug"] as? String == "aoife-byrne" }?["reviews"] as? [[String: Any]])
        #expect(aoife.map { $0["updated"] as? String } == embedded.map { $0["updated"] as? String })
    }

    @Test func dailyQuotesCoverTheWindowWithoutRepeats() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        let daily = files.keys.filter { $0.hasPrefix("api/quotes/daily/") }.sorted()
        // 366 days from the build date, and the two days before: one may still be today west of the site's time
        // zone, where a visitor's page asked for a pick a build on the next day had removed (a tester's report);
        // time zones span 26 hours (the review).
        #expect(daily.count == 368)
        #expect(daily.first == "api/quotes/daily/2026-11-21.json" && daily.last == "api/quotes/daily/2027-11-23.json")
        let picks = try daily.map { path -> String in
            let document = try json(files, path)
            let entry = try #require(document["entry"] as? [String: Any])
            return "\(entry["text"] ?? "")|\(entry["source"] ?? "")"
        }
        let pool = Set(picks).count
        #expect(pool == 42, "the example has 42 quotes")
        // Any run of `pool` consecutive days shows `pool` different quotes.
        for start in 0...(picks.count - pool) { #expect(Set(picks[start..<start + pool]).count == pool) }
        // The home page shows the build date's quote.
        let today = try #require(try json(files, "api/quotes/daily/2026-11-23.json")["entry"] as? [String: Any])
        let quote = try #require(today["text"] as? String)
        let escaped = quote.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
        #expect(text(files, "index.html").contains("<blockquote><p data-entry=\"text\">\(escaped)</p></blockquote>"))
        // A later build agrees on every date both cover.
        let later = try build(site, now: CalendarDate(year: 2026, month: 12, day: 1)!, output: site + "/later")
        for path in daily where later[path] != nil { #expect(later[path] == files[path], "\(path) changed between builds") }
    }

    /// An app shows a value as the site's pages do from the API root alone: its label, format and currency.
    @Test func theAPIRootSaysHowEachFieldIsShown() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        let root = try json(files, "api/index.json")
        #expect(root["language"] as? String == "en-IE" && root["currency"] as? String == "EUR")
        let kinds = try #require(root["kinds"] as? [[String: Any]])
        let cleaners = try #require(kinds.first { $0["name"] as? String == "cleaners" }?["fields"] as? [[String: Any]])
        let byName = Dictionary(uniqueKeysWithValues: cleaners.map { ($0["name"] as? String ?? "", $0) })
        #expect(byName["hourly_rate"]?["label"] as? String == "Hourly rate" && byName["hourly_rate"]?["format"] as? String == "currency")
        #expect(byName["rating"]?["format"] as? String == "rating" && byName["rating"]?["out_of"] as? Int == 5)
        #expect(byName["name"]?["format"] is NSNull && byName["name"]?["out_of"] is NSNull)
        // Private fields are not published, so the root names none of them.
        #expect(byName["phone"] == nil && byName["email"] == nil && byName["review_count"] != nil)
        let page = String(decoding: try #require(files["cleaners/aoife-byrne/index.html"]), as: UTF8.self)
        #expect(page.contains("<dt>Hourly rate</dt><dd>€19.50</dd>"))
    }

    @Test func feedsSitemapRobotsAndMapAreWritten() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        let feed = try json(files, "feeds/rentals.json")
        #expect(feed["version"] as? String == "https://jsonfeed.org/version/1.1")
        // JSON Feed 1.1: a key the format does not define starts with "_" (so no "$schema").
        let jsonFeedKeys: Set = ["version", "title", "home_page_url", "feed_url", "description", "language", "items"]
        #expect(feed.keys.filter { !jsonFeedKeys.contains($0) && !$0.hasPrefix("_") }.isEmpty)
        let items = try #require(feed["items"] as? [[String: Any]])
        let dates = items.compactMap { $0["date_published"] as? String }
        #expect(items.count == 14 && dates == dates.sorted(by: >))
        #expect(files["feeds/rentals.atom"] != nil && files["feeds/quotes.json"] != nil && files["feeds/cleaners.json"] == nil)
        // A collection's tags are the values of its entries' facets (`category`, `source`), each once.
        let collections = try #require(try json(files, "feeds/quotes.json")["items"] as? [[String: Any]])
        #expect(collections.count == 3)
        for item in collections {
            let url = try #require(item["url"] as? String)
            let slug = try #require(URL(string: url)).lastPathComponent
            let quotes = try #require(try json(files, "api/quotes/\(slug).json")["quotes"] as? [[String: Any]])
            let values = Set(quotes.compactMap { $0["category"] as? String }).union(quotes.compactMap { $0["source"] as? String })
            let tags = item["tags"] as? [String] ?? []
            #expect(Set(tags) == values && tags.count == values.count && values.count > 2, "\(slug): \(tags)")
        }
        let sitemap = text(files, "sitemap.xml")
        let htmlPages = files.keys.filter { $0.hasSuffix("index.html") }
        #expect(sitemap.components(separatedBy: "<url>").count - 1 == htmlPages.count)
        #expect(sitemap.contains("<url><loc>https://example.org/catalogue/cleaners/aoife-byrne/</loc><lastmod>"))
        #expect(text(files, "robots.txt").contains("Sitemap: https://example.org/catalogue/sitemap.xml"))
        #expect(text(files, "404.html").contains("<h1>Page not found</h1>"))
        // Served at every missing address, the 404 page names no canonical URL of its own; other pages do.
        #expect(!text(files, "404.html").contains("rel=\"canonical\"") && !text(files, "404.html").contains("og:url"))
        #expect(text(files, "about/index.html").contains("<link rel=\"canonical\" href=\"https://example.org/catalogue/about/\">"))
        let map = try json(files, "api/rentals.geojson")
        let withCoordinates = try FileManager.default.contentsOfDirectory(atPath: site + "/content/rentals").filter {
            TestSupport.read(site + "/content/rentals/" + $0).contains("\nlat: ")
        }
        #expect((map["features"] as? [Any])?.count == withCoordinates.count && withCoordinates.count > 5)
        let search = try json(files, "api/search/meta.json")
        let listingsBrowsed = 14 + 14 + 5 + 3 + 2  // cleaners, rentals, owners, quote collections, houses (not the alert sets)
        #expect(search["documents"] as? Int == listingsBrowsed)
    }

    @Test func everyJSONFileMatchesItsSchemaAndTheManifestMatchesTheFiles() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        let valid = try TestSupport.run("python3", ["scripts/validate-output.py", site + "/public", "https://example.org/catalogue/"])
        #expect(valid.status == 0, "\(valid.stdout)\(valid.stderr)")
        #expect(valid.stdout.contains(" 0 problems"))
        // The same check fails on a file changed after the build, and on a listing that breaks its schema.
        TestSupport.write("{}", to: site + "/public/api/cleaners/aoife-byrne.json")
        let tampered = try TestSupport.run("python3", ["scripts/validate-output.py", site + "/public", "https://example.org/catalogue/"])
        #expect(tampered.status == 1)
        #expect(tampered.stdout.contains("manifest: wrong size or hash for api/cleaners/aoife-byrne.json"))
        #expect(tampered.stdout.contains("api/cleaners/aoife-byrne.json: $schema None is not one of the published schemas"))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: TestSupport.sitemapSchema), "needs ../shared/schemas/sitemap.xsd"))
    func sitemapValidatesAgainstTheSitemapsSchema() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        let result = try TestSupport.run("xmllint", ["--noout", "--schema", TestSupport.sitemapSchema, site + "/public/sitemap.xml"])
        #expect(result.status == 0, "\(result.stderr)")
    }

    @Test func nginxUnderTheSubPathServesNoBrokenLinks() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        let clean = try TestSupport.run("scripts/check-links.sh", [site + "/public", "/catalogue/"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains(" 0 errors found"))
        try FileManager.default.removeItem(atPath: site + "/public/rentals/kayak/index.html")
        let broken = try TestSupport.run("scripts/check-links.sh", [site + "/public", "/catalogue/"])
        #expect(broken.status != 0)
        #expect(broken.stdout.contains("/catalogue/rentals/kayak/"))
    }

    /// Ranked by a Bayesian average, 5.0 from one review no longer outranks 4.75 from four; pages still show
    /// the plain average.
    @Test func bayesianAverageRanksManyReviewsAboveOne() throws {
        let site = TestSupport.makeSite(fixture: "paged")
        defer { TestSupport.removeTree(site) }
        let schema = site + "/content/schemas/cleaners.yaml"
        TestSupport.write(
            TestSupport.read(schema).replacingOccurrences(of: "sort: [-rating, name]", with: "sort: [-rating_rank, name]")
                + "  rating_rank: {op: bayesian_average, from: reviews, via: cleaner, field: stars, prior_weight: 3, prior_mean: 4}\n",
            to: schema)
        for slug in ["solo", "steady", "unreviewed"] {
            TestSupport.write("name: \(slug.capitalized)\ncounty: Cork\n", to: site + "/content/cleaners/\(slug).yaml")
        }
        for (cleaner, stars) in [("solo", [5]), ("steady", [5, 5, 5, 4])] {
            for (index, count) in stars.enumerated() {
                TestSupport.write("cleaner: \(cleaner)\nstars: \(count)\nby: R\(index)\n", to: site + "/content/reviews/\(cleaner)-\(index).yaml")
            }
        }
        let files = try build(site)
        let order = text(files, "cleaners/index.html").matches(of: /cleaners\/([a-z]+)\//).map { String($0.1) }
        #expect(order.filter { ["steady", "solo", "unreviewed"].contains($0) } == ["steady", "solo", "unreviewed"])
        // (3 × 4 + 5) / (3 + 1) and (3 × 4 + 19) / (3 + 4), to the default 3 fraction digits; the rating stays the plain mean.
        let solo = try json(files, "api/cleaners/solo.json"), steady = try json(files, "api/cleaners/steady.json")
        #expect((solo["rating_rank"] as? NSNumber)?.doubleValue == 4.25 && (solo["rating"] as? NSNumber)?.doubleValue == 5)
        #expect((steady["rating_rank"] as? NSNumber)?.doubleValue == 4.429 && (steady["rating"] as? NSNumber)?.doubleValue == 4.75)
        #expect(try json(files, "api/cleaners/unreviewed.json")["rating_rank"] == nil)
    }
}
