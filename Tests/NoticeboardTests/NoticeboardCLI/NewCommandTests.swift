import Foundation
import Testing

/// `noticeboard new`: the starter site builds, and its templates are the example site's.
@Suite struct NewCommandTests {
    /// Made in the folder it runs in, the next steps need no `cd`.
    @Test func newInTheCurrentFolderNamesNoFolderToGoTo() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let made = try TestSupport.runCLI(["new", "."], in: folder)
        #expect(made.status == 0 && made.stdout.hasPrefix("Made a new site here. Next:\n  noticeboard serve"), "\(made.stdout)\(made.stderr)")
    }

    /// A folder with characters a shell reads specially is named quoted, so the line works as pasted; a build
    /// of one listing says "1 listing".
    @Test func theFolderToGoToIsQuotedForTheShell() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let made = try TestSupport.runCLI(["new", "my site/it's"], in: folder)
        #expect(made.stdout.contains("Next:\n  cd 'my site/it'\\''s'\n"), "\(made.stdout)")
        let moved = try TestSupport.run("sh", ["-c", "cd 'my site/it'\\''s' && pwd"], in: folder)
        #expect(moved.stdout.hasSuffix("/my site/it's\n"), "\(moved.stdout)\(moved.stderr)")
        let site = folder + "/my site/it's"
        try FileManager.default.removeItem(atPath: site + "/content/notices/free-firewood.yaml")
        let built = try TestSupport.runCLI(["build", "--now", "2026-11-23"], in: site)
        #expect(built.stdout.hasPrefix("Built 2 listings into public/: "), "\(built.stdout)")
        try FileManager.default.removeItem(atPath: site + "/content/sayings/proverbs.yaml")
        let one = try TestSupport.runCLI(["build", "--now", "2026-11-23"], in: site)
        #expect(one.stdout.hasPrefix("Built 1 listing into public/: "), "\(one.stdout)\(one.stderr)")
    }

    /// The starter's home page shows each kind's pick of the day under a heading of its own: a second `daily`
    /// kind, of listings rather than a collection's entries, gets its own id and a link, not an empty quote.
    @Test func aSecondDailyKindOnTheStarterHomePageHasItsOwnHeading() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        #expect(try TestSupport.runCLI(["new", "starter"], in: folder).status == 0)
        let site = folder + "/starter", schema = site + "/content/schemas/notices.yaml"
        TestSupport.write(TestSupport.read(schema).replacingOccurrences(of: "feeds: [json, atom]\n", with: "feeds: [json, atom]\ndaily: {days: 3}\n"), to: schema)
        let built = try TestSupport.runCLI(["build", "--now", "2026-11-23"], in: site)
        #expect(built.status == 0, "\(built.stderr)")
        let home = TestSupport.read(site + "/public/index.html")
        #expect(home.contains(#"<h2 id="daily-heading-0">Notice of the day</h2>"#) && home.contains(#"<h2 id="daily-heading-1">Quote of the day</h2>"#), "\(home)")
        #expect(home.contains(#"aria-labelledby="daily-heading-0""#) && home.contains(#"aria-labelledby="daily-heading-1""#))
        #expect(!home.contains(#"<p data-entry="text"></p>"#) && !home.contains("></a> ·"), "\(home)")
        // A listing kind's pick is its listing as its own document has it, which its schema requires (`updated`).
        let valid = try TestSupport.run("python3", ["scripts/validate-output.py", site + "/public", "https://example.org/"])
        #expect(valid.status == 0, "\(valid.stdout)\(valid.stderr)")
    }

    /// A collection of one's own whose entries have no `text` shows the day's entry, not only its collection.
    @Test func theStarterHomePageShowsTheDaysEntryOfAnyCollection() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        #expect(try TestSupport.runCLI(["new", "starter"], in: folder).status == 0)
        let site = folder + "/starter"
        let config = TestSupport.read(site + "/content/site.yaml")
        TestSupport.write(config.replacingOccurrences(of: "kinds: [notices, sayings]\n", with: "kinds: [notices, sayings, chores]\n"), to: site + "/content/site.yaml")
        TestSupport.write("""
            title: Chore boards
            singular: Chore board
            title_field: title
            entries_field: chores
            daily: {days: 5}
            fields:
              title: {type: string, required: true}
              chores: {type: list, required: true, of: {type: object, fields: {task: {type: string, required: true}}}}
            """, to: site + "/content/schemas/chores.yaml")
        TestSupport.write("title: House\nchores: [{task: Bins out}]\n", to: site + "/content/chores/house.yaml")
        let built = try TestSupport.runCLI(["build", "--now", "2026-11-23"], in: site)
        #expect(built.status == 0, "\(built.stderr)")
        let home = TestSupport.read(site + "/public/index.html")
        let entry = #"<a data-entry="task" data-link="entry" href="/chores/house/#entry-0">Bins out</a>"#
        #expect(home.contains(entry + #" · <time datetime="2026-11-23">"#) && home.contains(#"from <a data-link="listing" href="/chores/house/">House</a>"#), "\(home)")
    }

    @Test func newMakesASiteThatBuildsAndRefusesToOverwrite() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let made = try TestSupport.runCLI(["new", "starter"], in: folder)
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.hasPrefix("Made a new site in starter/. Next:\n  cd starter\n  noticeboard serve"), "\(made.stdout)")
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
        // It offers the contact path: a notice's page has the request form, naming the notice by its slug.
        let notice = String(decoding: files["notices/bicycle-for-sale/index.html"] ?? Data(), as: UTF8.self)
        #expect(notice.contains(#"<form class="contact-form" method="post""#) && notice.contains(#"name="slug" value="bicycle-for-sale""#))
        // The generic template writes a date field out, as the page's language does, in a <time>.
        #expect(notice.contains("<dt>Posted</dt>\n<dd>\n<time datetime=\"2026-11-20\">November 20, 2026</time>"))
        // Put under git, it takes in the sources, and nothing a build made.
        let site = folder + "/starter"
        _ = try TestSupport.run("git", ["init", "-q", site])
        _ = try TestSupport.run("git", ["-C", site, "add", "-A"])
        let tracked = try TestSupport.run("git", ["-C", site, "ls-files"]).stdout.split(separator: "\n")
        #expect(tracked.contains(".gitignore") && tracked.contains("content/site.yaml"))
        #expect(tracked.allSatisfy { $0.hasPrefix("content/") || $0.hasPrefix("templates/") || $0 == ".gitignore" }, "\(tracked)")
        let again = try TestSupport.runCLI(["new", "starter"], in: folder)
        #expect(again.status == 1 && again.stderr.contains("starter is not empty"))
        // A file on the way is named as one, not taken for the folder (a tester's report).
        let underAFile = try TestSupport.runCLI(["new", "starter/.gitignore/site"], in: folder)
        #expect(underAFile.status == 1)
        #expect(underAFile.stderr.contains("starter/.gitignore is a file, not a folder"), "\(underAFile.stderr)")
    }

    /// Every link to a collection's entry (`/sayings/proverbs/#entry-2`, from facet pages and the home page) lands
    /// on an element with that id: the generic listing template gave entries none (a tester's report).
    @Test func everyLinkToAnEntryLandsOnItsAnchor() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        #expect(try TestSupport.runCLI(["new", "starter"], in: folder).status == 0)
        let built = try TestSupport.runCLI(["build", "--now", "2026-11-23"], in: folder + "/starter")
        #expect(built.status == 0, "\(built.stderr)")
        let pages = TestSupport.tree(folder + "/starter/public").filter { $0.key.hasSuffix(".html") }.mapValues { String(decoding: $0, as: UTF8.self) }
        let link = /href="\/([^"#]*)#(entry-[0-9]+)"/
        var landed = 0
        for (path, html) in pages {
            for match in html.matches(of: link) {
                let target = pages[String(match.1) + "index.html"] ?? ""
                #expect(target.contains("id=\"\(match.2)\""), "\(path) links to /\(match.1)#\(match.2), which has no such id")
                landed += 1
            }
        }
        #expect(landed >= 4)
    }

    /// The starter site's generic templates are the example site's, kept identical.
    @Test func starterTemplatesMatchTheExampleSite() throws {
        let scaffold = TestSupport.repository + "/Sources/NoticeboardCLI/Scaffold/templates"
        for file in FileManager.default.subpaths(atPath: scaffold) ?? [] where file.contains(".") {
            #expect(FileManager.default.contents(atPath: scaffold + "/" + file) == FileManager.default.contents(atPath: TestSupport.repository + "/templates/" + file), "\(file) differs")
        }
    }
}
