import Foundation
import Noticeboard
import SiteModel
import Testing

/// `static/` is published as it is at the top of the output, as Hugo's and Zola's are: what a host reads
/// there (`CNAME`, `.nojekyll`, `.well-known/`) included, and never over what the site writes itself.
@Suite struct StaticFolderTests {
    static let now = CalendarDate(year: 2026, month: 11, day: 23)!

    @Test func staticFilesArePublishedAsTheyAreHiddenOnesToo() throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        TestSupport.write("listings.example.org\n", to: site + "/static/CNAME")
        TestSupport.write("", to: site + "/static/.nojekyll")
        TestSupport.write("Contact: mailto:security@example.org\n", to: site + "/static/.well-known/security.txt")
        TestSupport.write("<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n", to: site + "/static/brand/logo.svg")
        // A repository's history and macOS's folder settings are never published.
        TestSupport.write("[core]\n", to: site + "/static/.git/config")
        TestSupport.write("", to: site + "/static/brand/.DS_Store")
        // Nor are editors' working files: Vim's swap file and backup, Emacs's auto-save and lock link (which
        // points at nothing, and failed the build).
        for leftover in [".CNAME.swp", ".CNAME.swo", "brand/logo.svg~", "#CNAME#"] { TestSupport.write("x", to: site + "/static/" + leftover) }
        symlink("me@host.4242:1733400000", site + "/static/.#CNAME")
        let first = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
        let files = TestSupport.tree(site + "/public")
        for path in ["CNAME", ".nojekyll", ".well-known/security.txt", "brand/logo.svg"] {
            #expect(files[path] == FileManager.default.contents(atPath: site + "/static/" + path), "\(path)")
        }
        #expect(files[".git/config"] == nil && files["brand/.DS_Store"] == nil)
        #expect(Set(files.keys).isDisjoint(with: [".CNAME.swp", ".CNAME.swo", "brand/logo.svg~", "#CNAME#", ".#CNAME"]))
        // Listed with the site's files, so that a later build may replace them, and not in the sitemap.
        #expect(TestSupport.read(site + "/public/api/manifest.json").contains(#""path":"CNAME""#))
        #expect(!TestSupport.read(site + "/public/sitemap.xml").contains("CNAME"))
        // Nothing changed, nothing written; a changed file is written again, and one taken away goes.
        #expect(try Noticeboard.build(BuildOptions(root: site, now: Self.now)).written == 0)
        TestSupport.write("catalogue.example.org\n", to: site + "/static/CNAME")
        try FileManager.default.removeItem(atPath: site + "/static/brand/logo.svg")
        let edited = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
        #expect(edited.written < first.written && TestSupport.read(site + "/public/CNAME") == "catalogue.example.org\n")
        #expect(!FileManager.default.fileExists(atPath: site + "/public/brand/logo.svg"))
    }

    /// A file where the site's own go, in any case, is refused where it is, and nothing is written.
    @Test func aStaticFileWhereTheSitesOwnGoIsRefused() throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        _ = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
        let good = TestSupport.tree(site + "/public")
        for path in ["index.html", "robots.txt", "sitemap-2.xml", "api/extra.json", "assets/theme.css", "things/extra.txt", "search", "owners", "quo\"te.txt",
                     "x/.noticeboard-staging", "fine.txt", "things.txt", "Things/Extra.txt", "Robots.TXT", "y/.Noticeboard-x"] {
            TestSupport.write("x\n", to: site + "/static/" + path)
        }
        let result = try TestSupport.runCLI(["build", "--now", "2026-11-23"], in: site)
        #expect(result.status == 1)
        #expect(result.stderr.split(separator: "\n").map(String.init) == [
            "static/Robots.TXT:1:1: error: static/Robots.TXT would be published at /Robots.TXT, but the site writes /robots.txt, and names that differ only in case are one on a disk or host that ignores case; move or rename it",
            "static/Things/Extra.txt:1:1: error: static/Things/Extra.txt would be published at /Things/Extra.txt, but the kind 'things' is published at /things/, and names that differ only in case are one on a disk or host that ignores case; move or rename it",
            "static/api/extra.json:1:1: error: static/api/extra.json would be published at /api/extra.json, but the site writes /api/; move or rename it",
            "static/assets/theme.css:1:1: error: static/assets/theme.css would be published at /assets/theme.css, but the site writes /assets/; move or rename it",
            "static/index.html:1:1: error: static/index.html would be published at /index.html, but the site writes /index.html; move or rename it",
            "static/owners:1:1: error: static/owners would be published at /owners, but the kind 'owners' is published at /owners/; move or rename it",
            "static/quo\"te.txt:1:1: error: static/quo\"te.txt would be published at /quo\"te.txt, but a published name may not hold a quote, a backslash or a control character; move or rename it",
            "static/robots.txt:1:1: error: static/robots.txt would be published at /robots.txt, but the site writes /robots.txt; move or rename it",
            "static/search:1:1: error: static/search would be published at /search, but the site writes /search/; move or rename it",
            "static/sitemap-2.xml:1:1: error: static/sitemap-2.xml would be published at /sitemap-2.xml, but the site writes /sitemap-2.xml; move or rename it",
            "static/things/extra.txt:1:1: error: static/things/extra.txt would be published at /things/extra.txt, but the kind 'things' is published at /things/; move or rename it",
            "static/x/.noticeboard-staging:1:1: error: static/x/.noticeboard-staging would be published at /x/.noticeboard-staging, but names starting .noticeboard are the build's own; move or rename it",
            "static/y/.Noticeboard-x:1:1: error: static/y/.Noticeboard-x would be published at /y/.Noticeboard-x, but names starting .noticeboard are the build's own; move or rename it",
            "13 errors; nothing was written.",
        ])
        #expect(TestSupport.tree(site + "/public") == good)
    }

    /// A kind with `pages: false` writes nothing at /<kind>/, so a static file or a page may go there.
    @Test func aKindWithoutPagesLeavesItsFolderFree() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("x\n", to: site + "/static/reviews/notes.txt")
        TestSupport.write("---\ntitle: Tasks\n---\nHow chores are shared.\n", to: site + "/content/pages/tasks.md")
        _ = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
        #expect(TestSupport.read(site + "/public/reviews/notes.txt") == "x\n")
        #expect(TestSupport.read(site + "/public/tasks/index.html").contains("How chores are shared."))
    }

    /// A file is copied whole, so it is held to the limit every input file is.
    @Test func aStaticFileOverTheInputLimitIsRefused() throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        TestSupport.write(String(repeating: "x", count: 2_000), to: site + "/static/big.txt")
        let result = try TestSupport.runCLI(["build", "--max-file-bytes", "1000"], in: site)
        #expect(result.status == 1 && result.stderr.hasPrefix(
            "static/big.txt:1:1: error: the file is 2000 bytes, over the limit of 1000 bytes for one input file"), "\(result.stderr)")
    }

    /// A link out of `static/` would publish any file on the machine.
    @Test func aLinkOutOfTheStaticFolderIsRefused() throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        try FileManager.default.createDirectory(atPath: site + "/static", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site + "/static/passwd", withDestinationPath: "/etc/passwd")
        let result = try TestSupport.runCLI(["build", "--now", "2026-11-23"], in: site)
        #expect(result.status == 1 && result.stderr.hasPrefix("static/passwd"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site + "/public/passwd"))
    }

    /// A `static/` that is there but cannot be walked (a link to itself) is an error naming it: read as absent, its
    /// CNAME and verification pages went unpublished and the build said nothing.
    @Test func aStaticFolderThatCannotBeReachedIsAnError() throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        try FileManager.default.createSymbolicLink(atPath: site + "/static", withDestinationPath: "static")
        let result = try TestSupport.runCLI(["build", "--now", "2026-11-23"], in: site)
        #expect(result.status == 1 && result.stderr.hasPrefix(
            "static:1:1: error: this folder cannot be read (Too many levels of symbolic links)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site + "/public"))
    }
}
