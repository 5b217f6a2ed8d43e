import Foundation
import Noticeboard
import SiteModel
import Testing

/// The example site's chore boards, safe-arrival kinds and free pages, built for a fixed date.
@Suite struct ChoresAndSafeArrivalTests {
    static let now = CalendarDate(year: 2026, month: 11, day: 23)!

    func build(_ site: String) throws -> [String: Data] {
        _ = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
        return TestSupport.tree(site + "/public")
    }

    func json(_ files: [String: Data], _ path: String) throws -> [String: Any] {
        let data = try #require(files[path], "\(path) missing")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// `field: value` lines of every YAML file in a content folder, by file name.
    func values(_ site: String, _ kind: String) throws -> [String: [String: String]] {
        var result: [String: [String: String]] = [:]
        for file in try FileManager.default.contentsOfDirectory(atPath: site + "/content/" + kind) where file.hasSuffix(".yaml") {
            var fields: [String: String] = [:]
            for line in TestSupport.read(site + "/content/\(kind)/" + file).split(separator: "\n") {
                let parts = line.split(separator: ":", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: " \"")) }
            }
            result[String(file.dropLast(5))] = fields
        }
        return result
    }

    @Test func roomsAreRankedByTheirMostUrgentTask() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        // Recompute from the listing files: urgency = days since last done / frequency; a room's priority is its max.
        let tasks = try values(site, "tasks"), rooms = try values(site, "rooms")
        var priority: [String: Double] = [:]
        for (_, task) in tasks {
            let lastDone = try #require(CalendarDate(parsing: task["last_done"]![...]))
            let urgency = Double(Self.now.dayNumber - lastDone.dayNumber) / Double(task["frequency_days"]!)!
            priority[task["room"]!] = max(priority[task["room"]!] ?? 0, urgency)
        }
        let expected = rooms.filter { $0.value["house"] == "maple-terrace" }.keys.sorted { priority[$0]! > priority[$1]! }.map { rooms[$0]!["name"]! }
        let house = try json(files, "api/houses/maple-terrace.json")
        let ranked = try #require(house["rooms"] as? [[String: Any]])
        #expect(ranked.map { $0["name"] as? String } == expected)
        #expect(ranked.map { ($0["priority"] as? NSNumber)?.doubleValue } == expected.map { name in
            let slug = rooms.first { $0.value["name"] == name && $0.value["house"] == "maple-terrace" }!.key
            return (priority[slug]! * 100).rounded() / 100
        })
        let page = TestSupport.read(site + "/public/houses/maple-terrace/index.html")
        let headings = page.matches(of: /<h3>([^<]+) <span/).map { String($0.1) }
        #expect(headings == expected)
        // Overdue tasks (urgency of 1 or more) are marked; others are not.
        for (_, task) in tasks where rooms[task["room"]!]!["house"] == "maple-terrace" {
            let lastDone = CalendarDate(parsing: task["last_done"]![...])!
            let overdue = Double(Self.now.dayNumber - lastDone.dayNumber) >= Double(task["frequency_days"]!)!
            #expect(page.contains("<td>\(task["name"]!) <strong class=\"tag-overdue\">overdue</strong></td>") == overdue, "\(task["name"]!)")
        }
    }

    @Test func scoresSumEachPersonsPoints() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        let tasks = try values(site, "tasks")
        var totals: [String: Int] = [:]
        for (_, entry) in try values(site, "history") where entry["house"] == "maple-terrace" {
            totals[entry["who"]!, default: 0] += Int(tasks[entry["task"]!]!["points"]!)!
        }
        let scores = try #require(try json(files, "api/houses/maple-terrace.json")["scores"] as? [[String: Any]])
        #expect(Dictionary(uniqueKeysWithValues: scores.map { ($0["group"] as! String, $0["total"] as! Int) }) == totals)
        #expect(scores.map { $0["total"] as! Int } == totals.values.sorted(by: >))
        #expect(TestSupport.read(site + "/public/houses/maple-terrace/index.html").contains("<tr><td>Dara</td><td>\(totals["Dara"]!)</td></tr>"))
    }

    @Test func alertTemplatesKeepTheirPlaceholders() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        let alerts = try json(files, "api/alerts/templates.json")
        let messages = try #require(alerts["messages"] as? [[String: Any]])
        #expect(messages.map { $0["name"] as? String } == ["arrived", "running-late", "check-in-missed"])
        #expect(messages[0]["text_html"] as? String == "<p>Hi {{contact}}, I got to <strong>{{place}}</strong> safely.</p>\n")
        // A placeholder the app does not fill is a located error.
        let file = site + "/content/alerts/templates.yaml"
        TestSupport.write(TestSupport.read(file).replacingOccurrences(of: "Hi {{contact}}, I got", with: "Hi {{contact_name}}, I got"), to: file)
        do throws(BuildFailure) {
            _ = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
            Issue.record("an unknown placeholder was accepted")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "content/alerts/templates.yaml:4:11: error: 'messages[1].text' uses the placeholder {{contact_name}}; the app fills in only {{contact}}, {{place}}",
            ])
        }
    }

    @Test func noPrivateValueOfAnyKindIsPublished() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        // Every private field of every schema, and the values the example's listings give them.
        var secrets: [String] = []
        for schemaFile in try FileManager.default.contentsOfDirectory(atPath: site + "/content/schemas") where schemaFile.hasSuffix(".yaml") {
            let kind = String(schemaFile.dropLast(5))
            let privateFields = TestSupport.read(site + "/content/schemas/" + schemaFile).split(separator: "\n")
                .filter { $0.contains("private: true") }.compactMap { $0.split(separator: ":").first?.trimmingCharacters(in: .whitespaces) }
            for (_, listing) in try values(site, kind) {
                secrets += privateFields.compactMap { listing[$0] }.filter { $0.count > 5 }
            }
        }
        #expect(secrets.count > 40, "found \(secrets.count) private values")
        for secret in secrets {
            for (path, data) in files { #expect(data.range(of: Data(secret.utf8)) == nil, "\(secret) found in \(path)") }
        }
    }

    @Test func freePagesAreRenderedAndInTheNavigation() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try build(site)
        let about = String(decoding: try #require(files["about/index.html"]), as: UTF8.self)
        #expect(about.contains("<h1>About</h1>") && about.contains("<strong>Cork, Kerry, Galway and Dublin</strong>"))
        #expect(about.contains("<li><a href=\"/catalogue/about/\" aria-current=\"page\">About</a></li>"))
        #expect(String(decoding: files["index.html"]!, as: UTF8.self).contains("<li><a href=\"/catalogue/how-it-works/\">How it works</a></li>"))
        TestSupport.write("---\ntitle: Bad\nnav: first\n---\nText\n", to: site + "/content/pages/bad.md")
        do throws(BuildFailure) {
            _ = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
            Issue.record("bad front matter was accepted")
        } catch {
            #expect(error.diagnostics.map(\.description) == ["content/pages/bad.md:3:6: error: 'nav' must be a whole number from 0 to 1000, not 'first'"])
        }
    }

    @Test func newMakesASiteThatBuildsAndRefusesToOverwrite() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let made = try TestSupport.runCLI(["new", "starter"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        let built = try TestSupport.runCLI(["build", "--now", "2026-11-23"], in: folder + "/starter")
        #expect(built.status == 0, "\(built.stderr)")
        let files = TestSupport.tree(folder + "/starter/public")
        for path in ["index.html", "notices/index.html", "notices/bicycle-for-sale/index.html", "notices/category/for-sale/index.html",
            "sayings/proverbs/index.html", "about/index.html", "search/index.html", "404.html", "api/notices.json", "feeds/notices.atom",
            "api/sayings/daily/2026-11-23.json", "api/manifest.json"]
        {
            #expect(files[path] != nil, "\(path) missing")
        }
        #expect(!files.values.contains { $0.range(of: Data("seller@example.net".utf8)) != nil })
        let again = try TestSupport.runCLI(["new", "starter"], in: folder)
        #expect(again.status == 1 && again.stderr.contains("starter is not empty"))
    }

    /// The starter site's generic templates are the example site's, kept identical.
    @Test func starterTemplatesMatchTheExampleSite() throws {
        let scaffold = TestSupport.repository + "/Sources/NoticeboardCLI/Scaffold/templates"
        for file in FileManager.default.subpaths(atPath: scaffold) ?? [] where file.contains(".") {
            #expect(FileManager.default.contents(atPath: scaffold + "/" + file) == FileManager.default.contents(atPath: TestSupport.repository + "/templates/" + file), "\(file) differs")
        }
    }

    @Test func editorSchemasAcceptEveryExampleListing() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let written = try TestSupport.runCLI(["schema", "--output", folder], in: TestSupport.repository)
        #expect(written.status == 0, "\(written.stderr)")
        let result = try TestSupport.run("python3", ["scripts/validate-listings.py", "content", folder])
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.stdout.contains("validate-listings: ") && result.stdout.contains(", 0 problems"))
        // The schemas are not lax: a listing with a wrong type or an unknown field fails them.
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("name: X\nhourly_rate: cheap\ncounty: Cork\nlanguages: [English]\njoined: 2026-01-01\nbio: Hi\nphone: \"+353 1 555 0000\"\nemail: x@example.net\ncolour: red\n", to: site + "/content/cleaners/x.yaml")
        let failing = try TestSupport.run("python3", ["scripts/validate-listings.py", site + "/content", folder])
        #expect(failing.status == 1)
        #expect(failing.stdout.contains("x.yaml: hourly_rate: 'cheap' is not of type 'number'"))
        #expect(failing.stdout.contains("Additional properties are not allowed ('colour' was unexpected)"))
    }
}
