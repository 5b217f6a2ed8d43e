import Foundation
import Noticeboard
import SiteModel
import Testing

/// Builds whole sites (the example site and fixtures) and checks the files written.
@Suite struct EndToEndTests {
    func build(_ site: String, output: String? = nil) throws(BuildFailure) -> BuildReport {
        try Noticeboard.build(BuildOptions(root: site, output: output))
    }

    @Test func exampleSiteHasEveryPageAndFeed() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let report = try build(site)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        let files = TestSupport.tree(site + "/public")
        for kind in ["cleaners", "rentals", "owners", "quotes"] {
            let sources = try FileManager.default.contentsOfDirectory(atPath: site + "/content/" + kind).filter { $0.hasSuffix(".yaml") }
            #expect(sources.count >= 3)
            #expect(files["\(kind)/index.html"] != nil)
            #expect(files["api/\(kind).json"] != nil)
            for source in sources {
                let slug = String(source.dropLast(5))
                #expect(files["\(kind)/\(slug)/index.html"] != nil, "no page for \(kind)/\(slug)")
                #expect(files["api/\(kind)/\(slug).json"] != nil, "no JSON for \(kind)/\(slug)")
            }
        }
        #expect(files["index.html"] != nil && files["assets/style.css"] != nil)
        #expect(report.pages == files.keys.filter { $0.hasSuffix(".html") }.count)
        // Every media file a page links to was copied, under the base URL's sub-path.
        for (path, data) in files where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            for match in html.matches(of: /src="\/catalogue\/([^"]+)"/) {
                #expect(files[String(match.1)] != nil, "\(path) links to missing \(match.1)")
            }
        }
    }

    /// The example site lives at /catalogue/: a root-relative link in a listing's Markdown or a page leads off
    /// it. The build warns at the field (with the link's line in its text) or at the link's line and column in
    /// the page (counting characters, not bytes), and writes the link as it is.
    @Test func markdownLinksOutsideTheSitePathAreWarnedAbout() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let cleaner = site + "/content/cleaners/andreea-popescu.yaml"
        TestSupport.write(TestSupport.read(cleaner).replacingOccurrences(
            of: "  house with a dog or two", with: "  house with [a dog](/about/) or two"), to: cleaner)
        let page = site + "/content/pages/about.md"
        TestSupport.write(TestSupport.read(page) + "\nVoilà: [how it works](/how-it-works/).\n", to: page)
        let report = try build(site)
        let pageLine = TestSupport.read(page).split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(report.warnings.map(\.description).sorted() == [
            "content/cleaners/andreea-popescu.yaml:13:6: warning: 'bio' links to '/about/' (line 2 of its text), outside the site, "
                + "which lives at /catalogue/; write '/catalogue/about/' for a page of this site, or the full address for another",
            "content/pages/about.md:\(pageLine):8: warning: the page links to '/how-it-works/', outside the site, which lives at "
                + "/catalogue/; write '/catalogue/how-it-works/' for a page of this site, or the full address for another",
        ])
        let html = TestSupport.read(site + "/public/cleaners/andreea-popescu/index.html")
        #expect(html.contains("<a href=\"/about/\">a dog</a>"))
        // `check` gives the same warnings, and does not then say there were no problems.
        let checked = try TestSupport.runCLI(["check"], in: site)
        #expect(checked.status == 0 && checked.stderr.contains("warning: the page links to '/how-it-works/'"))
        #expect(checked.stdout == "No errors found; 2 warnings above.\n", "\(checked.stdout)")
    }

    /// A cleaner's reviews give their dates as the site's language writes them (`longdate`), as the page's
    /// own dates are, with the machine-readable date beside.
    @Test func reviewDatesAreWrittenOut() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        let html = TestSupport.read(site + "/public/cleaners/andreea-popescu/index.html")
        #expect(html.contains("Dara, <time datetime=\"2026-01-30\">30 January 2026</time>"))
    }

    @Test func detailPageEscapesTheNameAndRendersTheBio() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("""
            name: "Zoë <b>&</b> \\"Co\\""
            hourly_rate: 19.5
            county: Cork
            languages: [English]
            joined: 2026-01-05
            bio: |
              Hello **there** & <script>alert(1)</script>

              | a | b |
              |---|---|
              | 1 | 2 |
            phone: "+353 87 555 0000"
            email: zoe@example.net
            """, to: site + "/content/cleaners/zoe.yaml")
        _ = try build(site)
        let html = TestSupport.read(site + "/public/cleaners/zoe/index.html")
        #expect(html.contains("<h1>Zoë &lt;b&gt;&amp;&lt;/b&gt; &quot;Co&quot;</h1>"))
        #expect(html.contains("<title>Zoë &lt;b&gt;&amp;&lt;/b&gt; &quot;Co&quot; · Noticeboard West</title>"))
        #expect(html.contains("<p>Hello <strong>there</strong> &amp; <!-- raw HTML omitted -->alert(1)<!-- raw HTML omitted --></p>"))
        #expect(html.contains("<td>1</td>"))
        #expect(html.contains("<dd>€19.50</dd>"))
        #expect(!html.contains("<script>"))
    }

    @Test func cleanersJSONHoldsEveryCleanerWithoutContactDetails() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        let data = try #require(FileManager.default.contents(atPath: site + "/public/api/cleaners.json"))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let items = try #require(document["items"] as? [[String: Any]])
        let sources = try FileManager.default.contentsOfDirectory(atPath: site + "/content/cleaners").filter { $0.hasSuffix(".yaml") }
        #expect(items.count == sources.count && document["count"] as? Int == sources.count)
        #expect(Set(items.compactMap { $0["slug"] as? String }) == Set(sources.map { String($0.dropLast(5)) }))
        for item in items {
            #expect(item["phone"] == nil && item["email"] == nil)
            #expect((item["url"] as? String)?.hasPrefix("https://example.org/catalogue/cleaners/") == true)
            #expect((item["bio_html"] as? String)?.hasPrefix("<p>") == true)
            #expect(item["hourly_rate"] is NSNumber)
        }
        // No phone number or email address written in any cleaner's file appears anywhere in the output.
        let output = TestSupport.tree(site + "/public").values.map { String(decoding: $0, as: UTF8.self) }
        for source in sources {
            let text = TestSupport.read(site + "/content/cleaners/" + source)
            for line in text.split(separator: "\n") where line.hasPrefix("phone:") || line.hasPrefix("email:") {
                let value = line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
                #expect(!value.isEmpty)
                #expect(!output.contains { $0.contains(value) }, "\(value) leaked")
            }
        }
    }

    @Test func typeErrorIsLocatedAndLeavesThePreviousSiteUntouched() throws {
        let site = TestSupport.makeSite(fixture: "type-error")
        defer { TestSupport.removeTree(site) }
        let bad = site + "/content/cleaners/bad-rate.yaml"
        try FileManager.default.moveItem(atPath: bad, toPath: site + "/bad-rate.yaml.aside")
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)
        let before = TestSupport.tree(site + "/public")
        #expect(before["cleaners/ana-murphy/index.html"] != nil)

        try FileManager.default.moveItem(atPath: site + "/bad-rate.yaml.aside", toPath: bad)
        let result = try TestSupport.runCLI(["build"], in: site)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("content/cleaners/bad-rate.yaml:4:14: error: 'hourly_rate' must be a decimal number such as 18.50, not 'twenty euro'\n"))
        #expect(result.stderr.contains("1 error; nothing was written."))
        #expect(TestSupport.tree(site + "/public") == before)
        // Nothing is left beside public/ either (the build cache aside).
        #expect(try FileManager.default.contentsOfDirectory(atPath: site).sorted() == [".noticeboard-cache", "content", "public", "templates"])
    }

    /// A build date whose daily picks would reach past 9999-12-31 (`10000-12-29.json`) is refused before
    /// anything is read; the last one allowed writes four-digit dates.
    @Test func aBuildDateWhoseDailyPicksPassTheYear9999IsRefused() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let refused = try TestSupport.runCLI(["build", "--now", "9999-12-31"], in: site)
        #expect(refused.status != 0)
        #expect(refused.stderr.hasPrefix("Error: --now 9999-12-31 is outside 0001-01-31 to 9989-12-24: the daily picks"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site + "/public"))

        #expect(try TestSupport.runCLI(["build", "--now", "9989-12-24"], in: site).status == 0)
        let daily = TestSupport.tree(site + "/public").keys.filter { $0.contains("/daily/") }
        #expect(daily.contains("api/quotes/daily/9989-12-24.json"))
        #expect(daily.allSatisfy { $0.wholeMatch(of: /[a-z]+(\/[a-z]+)?\/daily\/(index\.html|\d{4}-\d\d-\d\d(\.json|\/index\.html))/) != nil }, "\(daily.sorted().suffix(3))")
    }

    @Test func checkReportsEveryProblemSortedAndExitsOne() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("name: X\ncounty: Sligo\n", to: site + "/content/cleaners/x.yaml")
        TestSupport.write("name: Ann\n", to: site + "/content/cleaners/Aoife Byrne.yaml")  // same slug as aoife-byrne.yaml
        var rental = TestSupport.read(site + "/content/rentals/kayak.yaml")
        rental = rental.replacing(#/owner: [a-z-]+/#, with: "owner: nobody-here")
        TestSupport.write(rental, to: site + "/content/rentals/kayak.yaml")
        let ownerLine = rental.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("owner:") }! + 1
        let result = try TestSupport.runCLI(["check"], in: site)
        #expect(result.status == 1)
        let lines = result.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains("content/cleaners/Aoife Byrne.yaml:1:1: error: missing required field 'hourly_rate'"))
        #expect(lines.contains("content/cleaners/x.yaml:2:9: error: 'county' must be one of 'Cork', 'Dublin', 'Galway', 'Kerry', not 'Sligo'"))
        #expect(lines.contains("content/rentals/kayak.yaml:\(ownerLine):8: error: 'owner' refers to 'nobody-here', but there is no content/owners/nobody-here.yaml"))
        let located = lines.filter { $0.contains(": error: ") }
        #expect(located.count >= 6)
        let places = located.map { line in
            let parts = line.split(separator: ":")
            return (String(parts[0]), Int(parts[1])!, Int(parts[2])!)
        }
        #expect(zip(places, places.dropFirst()).allSatisfy { $0 <= $1 }, "not sorted by file and line")
        // `check` never writes, so it does not say it wrote nothing.
        #expect(lines.last == "\(located.count) errors.")
        #expect(!FileManager.default.fileExists(atPath: site + "/public"))
    }

    @Test func duplicateSlugsAreReported() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        try FileManager.default.copyItem(atPath: site + "/content/owners/mary-kelly.yaml", toPath: site + "/content/owners/Mary Kelly.yaml")
        do throws(BuildFailure) {
            _ = try build(site)
            Issue.record("duplicate slug accepted")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "content/owners/mary-kelly.yaml:1:1: error: content/owners/Mary Kelly.yaml already gives the slug 'mary-kelly' (the listing's web address); rename one of the two files",
            ])
        }
    }

    @Test func privateCanariesNeverReachTheOutput() throws {
        let site = TestSupport.makeSite(fixture: "private-canary")
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        let files = TestSupport.tree(site + "/public")
        #expect(files["people/ana/index.html"] != nil)
        let canaries = ["555 9911", "canary-email-7f3a", "CANARY-NOTE-51c2", "canary-photo-e0d1", "CANARY-PIXELS-3b6f", "CANARY-STREET-88b4", "555 7722", "CANARY-VAULT-c9e0"]
        for (path, data) in files {
            for canary in canaries {
                #expect(data.range(of: Data(canary.utf8)) == nil, "\(canary) found in \(path)")
                #expect(!path.contains(canary), "\(canary) names \(path)")
            }
        }
        // The public parts of the same objects are there.
        let json = TestSupport.read(site + "/public/api/people/ana.json")
        #expect(json.contains(#""home":{"town":"Cork"}"#) && json.contains(#""contacts":[{"label":"Work"}]"#))
        // So are the contact form and the JSON-LD, which read the same objects.
        let page = TestSupport.read(site + "/public/people/ana/index.html")
        #expect(page.contains(#"<form class="contact-form" method="post" action="/contact/send">"#))
        #expect(page.contains(#""address":{"@type":"PostalAddress","addressLocality":"Cork"},"contactPoint":[{"@type":"ContactPoint","name":"Work"}]"#))
    }

    @Test func twoBuildsGiveIdenticalTrees() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site, output: site + "/first")
        _ = try build(site, output: site + "/second")
        let first = TestSupport.tree(site + "/first"), second = TestSupport.tree(site + "/second")
        #expect(first.count > 40)
        #expect(first == second)
    }

    @Test func outputFolderMayNotHoldTheSite() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        #expect(throws: BuildFailure.self) { try build(site, output: site) }
        #expect(FileManager.default.fileExists(atPath: site + "/content/site.yaml"))
    }
}
