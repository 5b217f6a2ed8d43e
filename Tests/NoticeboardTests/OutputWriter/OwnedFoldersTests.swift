import Foundation
import Testing

/// No command deletes what Noticeboard did not make: a build replaces its output folder, and clears the
/// staging folder beside it, only when they are absent, empty or its own. Each runs the CLI, as people do.
@Suite struct OwnedFoldersTests {
    /// Everything in the site but the cache, by path, to show that a refused build changed nothing.
    private static func snapshot(_ site: String) -> [String: Data] {
        TestSupport.tree(site).filter { !$0.key.hasPrefix(".noticeboard-cache/") }
    }

    /// A site with a folder of the user's own (`mine/`), a file, and links to a source folder and elsewhere.
    private static func makeSite() -> String {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        TestSupport.write("my own notes", to: site + "/mine/notes.txt")
        TestSupport.write("a file", to: site + "/a-file")
        symlink("content", site + "/link-to-content")
        symlink("mine", site + "/link-to-mine")
        symlink(".", site + "/link-to-root")
        return site
    }

    @Test(arguments: [
        "content", "templates", "content/", "./content", "content/public", "content/media", "templates/assets", "templates/partials/x",
        "mine", "mine/", "./mine", "mine/../mine", "link-to-content", "link-to-content/public", "link-to-mine", "a-file",
        ".", "..", "./", "public/.", "public/..", "/", "SITE", "SITE/..", "SITE/content", "../SITEBASE/templates", "../SITEBASE", "PARENT",
        "link-to-root", "link-to-root/content", "link-to-root/public/..", ".noticeboard-cache/site", ".noticeboard-cache", "SITE/.noticeboard-cache/x",
    ])
    func aFolderNoticeboardDidNotMakeIsRefusedAndKept(output: String) throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        let name = (site as NSString).lastPathComponent
        let argument = output.replacingOccurrences(of: "SITEBASE", with: name).replacingOccurrences(of: "SITE", with: site)
            .replacingOccurrences(of: "PARENT", with: (site as NSString).deletingLastPathComponent)
        let before = Self.snapshot(site)
        let result = try TestSupport.runCLI(["build", "--output", argument], in: site)
        #expect(result.status == 1, "\(argument): \(result.stderr)")
        #expect(result.stderr.hasPrefix("error: refusing to write the site to \(argument)"), "\(result.stderr)")
        #expect(result.stderr.hasSuffix("\n1 error; nothing was written.\n"))
        #expect(Self.snapshot(site) == before, "\(argument) changed the site")
    }

    /// The messages say why and how to go on.
    @Test func theRefusalSaysWhatToDo() throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        let content = try TestSupport.runCLI(["build", "--output", "content"], in: site)
        #expect(content.stderr.hasPrefix("error: refusing to write the site to content/: the output folder would be inside the site's sources ("))
        #expect(content.stderr.contains("choose a folder outside content/, templates/ and static/"))
        let mine = try TestSupport.runCLI(["build", "--output", "mine"], in: site)
        #expect(mine.stderr == """
            error: refusing to write the site to mine/: mine holds files that Noticeboard did not write (it has no api/manifest.json \
            from an earlier build); a build replaces that folder whole, so move it away or choose an empty or new folder
            1 error; nothing was written.

            """)
        // The folder as given, with one slash after it; an empty one in quotes.
        for (output, shown) in [("", "''"), ("./", "./"), ("/", "/")] {
            let result = try TestSupport.runCLI(["build", "--output", output], in: site)
            #expect(result.stderr.hasPrefix("error: refusing to write the site to \(shown): "), "\(result.stderr)")
        }
        let empty = try TestSupport.runCLI(["build", "--output", ""], in: site)
        #expect(empty.stderr.hasPrefix("error: refusing to write the site to '': name the output folder itself, not ''"), "\(empty.stderr)")
    }

    /// An output inside a folder builds write (an output, or the staging folder beside one, even empty) would be
    /// a folder no build wrote there, which the next build into it refuses: it is refused first, and nothing
    /// is made.
    @Test func anOutputInsideAnotherOrItsStagingFolderIsRefused() throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)
        try FileManager.default.createDirectory(atPath: site + "/other/.out.staging", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: site + "/other/out", withIntermediateDirectories: false)
        let before = Self.snapshot(site)
        let real = URL(fileURLWithPath: site).resolvingSymlinksInPath().path
        for (output, holder) in [
            ("public/sub", "\(real)/public, a site's output (it holds api/manifest.json)"),
            ("public/api/deeper/x", "\(real)/public, a site's output"),
            ("other/.out.staging/x", "\(real)/other/.out.staging, the staging folder of \(real)/other/out"),
        ] {
            let result = try TestSupport.runCLI(["build", "--output", output], in: site)
            #expect(result.status == 1)
            #expect(result.stderr.hasPrefix("error: refusing to write the site to \(output)/: the output folder would be inside \(holder)"), "\(result.stderr)")
            #expect(Self.snapshot(site) == before, "\(output) changed the site")
        }
        #expect(!FileManager.default.fileExists(atPath: site + "/public/sub") && !FileManager.default.fileExists(atPath: site + "/public/api/deeper"))
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)
        // A manifest that is not a build's (an app's own api/manifest.json) makes no output of its folder.
        TestSupport.write("{}\n", to: site + "/app/api/manifest.json")
        let beside = try TestSupport.runCLI(["build", "--output", "app/site"], in: site)
        #expect(beside.status == 0, "\(beside.stderr)")
    }

    /// An earlier output is replaced, an empty folder is used, but a file someone added to an output is theirs.
    @Test func anEarlierOutputIsReplacedButNotOneWithSomeoneElsesFile() throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        try FileManager.default.createDirectory(atPath: site + "/empty", withIntermediateDirectories: false)
        for output in ["public", "public/", "./public", "empty", "x", "new/deeper/out"] {
            let first = try TestSupport.runCLI(["build", "--quiet", "--output", output], in: site)
            #expect(first.status == 0, "\(output): \(first.stderr)")
            let again = try TestSupport.runCLI(["build", "--quiet", "--output", output], in: site)
            #expect(again.status == 0, "\(output): \(again.stderr)")
            #expect(FileManager.default.fileExists(atPath: site + "/" + output + "/index.html"))
        }
        TestSupport.write("example.org", to: site + "/public/CNAME")
        TestSupport.write("mine", to: site + "/public/.git/HEAD")
        let result = try TestSupport.runCLI(["build", "--output", "public"], in: site)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: refusing to write the site to public/: public holds .git, which Noticeboard did not write"))
        #expect(result.stderr.contains("a file to publish at the site's top goes in static/"))
        #expect(TestSupport.read(site + "/public/CNAME") == "example.org")
        #expect(TestSupport.read(site + "/public/.git/HEAD") == "mine")
    }

    /// A file or folder someone puts deeper in an output is theirs too: the next build that would write
    /// refuses, naming it, and changes nothing (before, the swap took it into the staging folder, so it was
    /// in the output after every other build). One that writes nothing leaves it be.
    @Test func aFileAddedDeeperInTheOutputIsRefusedAndKept() throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        #expect(try TestSupport.runCLI(["build", "--quiet"], in: site).status == 0)
        TestSupport.write("body {}", to: site + "/public/assets/custom.css")
        #expect(try TestSupport.runCLI(["build", "--quiet"], in: site).status == 0, "nothing changed, so nothing was written")
        TestSupport.write("name: Mary Byrne", to: site + "/content/owners/mary.yaml")
        let before = Self.snapshot(site)
        for _ in 1...2 {
            let refused = try TestSupport.runCLI(["build"], in: site)
            #expect(refused.status == 1)
            #expect(refused.stderr == """
                error: refusing to write the site to public/: public/assets/custom.css is not the site's (no build wrote it) and was \
                put there since the last build; move it away (a file to publish goes in static/) and build again
                1 error; nothing was written.

                """)
            #expect(Self.snapshot(site) == before)
        }
        try FileManager.default.removeItem(atPath: site + "/public/assets/custom.css")
        // A folder, and a file whose folder's modification time is set back as `tar` and `rsync -a` set it.
        TestSupport.write("mine", to: site + "/public/owners/mary/notes/todo.txt")
        TestSupport.write("mine", to: site + "/public/things/lamp/extra.html")
        let old = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, site + "/public/things/lamp", old, 0) == 0)
        let folder = try TestSupport.runCLI(["build"], in: site)
        #expect(folder.stderr.hasPrefix(
            "error: refusing to write the site to public/: public/owners/mary/notes (and 1 more beside it) is not the site's"), "\(folder.stderr)")
        try FileManager.default.removeItem(atPath: site + "/public/owners/mary/notes")
        try FileManager.default.removeItem(atPath: site + "/public/things/lamp/extra.html")
        #expect(try TestSupport.runCLI(["build", "--quiet"], in: site).status == 0)
        #expect(TestSupport.read(site + "/public/owners/mary/index.html").contains("Mary Byrne"))
    }

    /// A built site with someone's file put deeper in its output (returned), and a listing edited, so that the next
    /// build writes.
    private static func siteWithAFileAddedDeeperInTheOutput() throws -> (site: String, added: String) {
        let site = Self.makeSite()
        #expect(try TestSupport.runCLI(["build", "--quiet"], in: site).status == 0)
        let added = site + "/public/assets/custom.css"
        TestSupport.write("body {}", to: added)
        TestSupport.write("name: Mary Byrne", to: site + "/content/owners/mary.yaml")
        return (site, added)
    }

    /// The same when the output, or a folder in it changed since the last build, cannot be opened or listed to be
    /// checked (too many files open, say): the build refuses, saying which and why, and changes nothing. Taken for
    /// none changed, or for empty, as they were, the file went into the staging folder with the swap, and the next
    /// build published it.
    @Test(arguments: [
        (try TestSupport.failingEveryListing(of: "public/assets"), "public/assets: Too many open files; it changed since the last build and could not be listed to check that nothing was put there"),
        // The output's second such open, after the one that checks it is as the record says.
        (try TestSupport.failingFollowingOpen(2, of: "public"), "public: Too many open files; it could not be opened to check that nothing was put in it since the last build"),
    ])
    func anOutputThatCannotBeListedToBeCheckedIsRefused(launcher: [String], reason: String) throws {
        let (site, added) = try Self.siteWithAFileAddedDeeperInTheOutput()
        defer { TestSupport.removeTree(site) }
        let before = Self.snapshot(site)
        let refused = try TestSupport.runCLI(["build"], in: site, launcher: launcher)
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: refusing to write the site to public/: \(reason)\n1 error; nothing was written.\n")
        #expect(Self.snapshot(site) == before && TestSupport.read(added) == "body {}")
        #expect(!FileManager.default.fileExists(atPath: site + "/.public.staging/assets/custom.css"))
    }

    /// A site built twice, so that the staging folder holds the first build's output, confirmed by the record; then
    /// someone's notes put deep in that folder (returned), and a listing edited, so that the next build writes.
    private static func siteWithNotesInTheStagingFolder() throws -> (site: String, notes: String) {
        let site = Self.makeSite()
        let mary = site + "/content/owners/mary.yaml"
        for name in ["Mary Byrne", "Mary Ryan"] {
            TestSupport.write("name: \(name)", to: mary)
            #expect(try TestSupport.runCLI(["build", "--quiet"], in: site).status == 0)
        }
        let notes = site + "/.public.staging/assets/notes.txt"
        TestSupport.write("my private notes", to: notes)
        TestSupport.write("name: Mary Kelly", to: mary)
        return (site, notes)
    }

    /// The same for the earlier output a build keeps in the staging folder: a file put deeper in it would be
    /// published by the next build, which brings that folder up to date and swaps it in. So that build
    /// refuses, naming it, and changes nothing; once it is moved away, the build goes on.
    @Test func aFileAddedDeeperInTheStagingFolderIsRefusedAndKept() throws {
        let (site, notes) = try Self.siteWithNotesInTheStagingFolder()
        defer { TestSupport.removeTree(site) }
        let before = Self.snapshot(site)
        let refused = try TestSupport.runCLI(["build"], in: site)
        #expect(refused.status == 1)
        #expect(refused.stderr == """
            error: refusing to write the site to public/: .public.staging/assets/notes.txt is not the site's (no build wrote it) and was \
            put there since the last build; a build would publish it with that folder, so move it away (a file to publish goes in static/) and \
            build again
            1 error; nothing was written.

            """)
        #expect(Self.snapshot(site) == before && TestSupport.read(notes) == "my private notes")
        try FileManager.default.removeItem(atPath: notes)
        #expect(try TestSupport.runCLI(["build", "--quiet"], in: site).status == 0)
        #expect(TestSupport.read(site + "/public/owners/mary/index.html").contains("Mary Kelly"))
        #expect(!FileManager.default.fileExists(atPath: site + "/public/assets/notes.txt"))
    }

    /// The same when that folder cannot be opened to be checked (too many files open, say): the build refuses, saying
    /// so and why, and changes nothing. Taken for unchanged, as it was, the folder was swapped in with the notes.
    @Test func aStagingFolderThatCannotBeOpenedToBeCheckedIsRefused() throws {
        let (site, notes) = try Self.siteWithNotesInTheStagingFolder()
        defer { TestSupport.removeTree(site) }
        let before = Self.snapshot(site)
        let refused = try TestSupport.runCLI(["build"], in: site, launcher: TestSupport.failingFirstOpen(of: ".public.staging"))
        #expect(refused.status == 1)
        #expect(refused.stderr == """
            error: refusing to write the site to public/: .public.staging: Too many open files; the earlier output kept there \
            could not be checked before a build brings it up to date
            1 error; nothing was written.

            """)
        #expect(Self.snapshot(site) == before && TestSupport.read(notes) == "my private notes")
        #expect(!FileManager.default.fileExists(atPath: site + "/public/assets/notes.txt"))
    }

    /// The same when that folder, or one in it changed since the last build, can be opened but not listed, or not
    /// opened to find which changed: taken for empty, or none changed, as they were, the notes were published.
    @Test(arguments: [
        (try TestSupport.failingEveryListing(of: ".public.staging/assets"), ".public.staging/assets: Too many open files; it changed since the last build and could not be listed to check that nothing was put there"),
        (try TestSupport.failingFollowingOpen(1, of: ".public.staging"), ".public.staging: Too many open files; it could not be opened to check that nothing was put in it since the last build"),
    ])
    func aStagingFolderThatCannotBeListedToBeCheckedIsRefused(launcher: [String], reason: String) throws {
        let (site, notes) = try Self.siteWithNotesInTheStagingFolder()
        defer { TestSupport.removeTree(site) }
        let before = Self.snapshot(site)
        let refused = try TestSupport.runCLI(["build"], in: site, launcher: launcher)
        #expect(refused.status == 1)
        #expect(refused.stderr == "error: refusing to write the site to public/: \(reason)\n1 error; nothing was written.\n")
        #expect(Self.snapshot(site) == before && TestSupport.read(notes) == "my private notes")
        #expect(!FileManager.default.fileExists(atPath: site + "/public/assets/notes.txt"))
    }

    /// A folder of someone else's named like the staging folder is not cleared either; a killed build's is.
    @Test func aStagingFolderNoticeboardDidNotMakeIsKept() throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("keep me", to: site + "/.public.staging/notes.txt")
        // The mark of an update a build began does not make it a build's without an output's manifest.
        TestSupport.write("", to: site + "/.public.staging/.noticeboard-updating")
        let result = try TestSupport.runCLI(["build"], in: site)
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("error: refusing to write the site to public/: .public.staging holds notes.txt, which Noticeboard did not write;"))
        #expect(TestSupport.read(site + "/.public.staging/notes.txt") == "keep me")
        #expect(!FileManager.default.fileExists(atPath: site + "/public"))
        symlink("mine", site + "/.other.staging")
        let linked = try TestSupport.runCLI(["build", "--output", "other"], in: site)
        #expect(linked.status == 1)
        #expect(linked.stderr.hasPrefix("error: refusing to write the site to other/: .other.staging is a symbolic link;"))
        #expect(TestSupport.read(site + "/mine/notes.txt") == "my own notes")
    }

    /// A built site with a copy of its output in the staging folder, as an earlier output whose update began:
    /// the link to the manifest it started from is there (`.noticeboard-updating.manifest`).
    static func siteWithAnUpdateBegun() throws -> (site: String, staging: String) {
        let site = Self.makeSite()
        #expect(try TestSupport.runCLI(["build", "--quiet"], in: site).status == 0)
        let staging = site + "/.public.staging"
        try FileManager.default.copyItem(atPath: site + "/public", toPath: staging)
        #expect(link(staging + "/api/manifest.json", staging + "/.noticeboard-updating.manifest") == 0)
        return (site, staging)
    }

    /// A build killed as it marks the earlier output in the staging folder for an update, between linking the
    /// manifest and putting the marker in, leaves the link alone: the folder is still a build's, and the next
    /// build goes on. A file of someone else's beside the link still makes it theirs.
    @Test func aStagingFolderLeftWithTheUpdatesManifestAloneIsTheBuilds() throws {
        let (site, staging) = try Self.siteWithAnUpdateBegun()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("keep me", to: staging + "/notes.txt")
        TestSupport.write("name: Mary Byrne", to: site + "/content/owners/mary.yaml")
        let refused = try TestSupport.runCLI(["build"], in: site)
        #expect(refused.stderr.hasPrefix("error: refusing to write the site to public/: .public.staging holds notes.txt, which Noticeboard did not write;"))
        try FileManager.default.removeItem(atPath: staging + "/notes.txt")
        let result = try TestSupport.runCLI(["build", "--quiet"], in: site)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(TestSupport.read(site + "/public/owners/mary/index.html").contains("Mary Byrne"))
        #expect(!FileManager.default.fileExists(atPath: staging + "/.noticeboard-updating.manifest"))
        #expect(TestSupport.read(site + "/mine/notes.txt") == "my own notes")
    }

    /// What a build killed while it brought the earlier output up to date left: its marks, a page it noted it was
    /// adding, and a listed file it wrote; then someone's notes put in that folder after the kill. The next build
    /// removes what the killed one wrote and keeps the folder aside for the notes, which are newer than the mark
    /// but no build's (a tester's report: they were removed).
    @Test func filesPutInAKilledUpdatesFolderAfterTheKillAreKept() throws {
        let (site, staging) = try Self.siteWithAnUpdateBegun()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("", to: staging + "/.noticeboard-updating")
        usleep(20_000)
        TestSupport.write("new page\n", to: staging + "/owners/new/index.html")
        TestSupport.write("owners/new/index.html\u{0}", to: staging + "/.noticeboard-updating.added")
        #expect(FileManager.default.fileExists(atPath: staging + "/index.html"))
        TestSupport.write("rewritten\n", to: staging + "/index.html")
        TestSupport.write("mine\n", to: staging + "/NOTES-mine.txt")
        TestSupport.write("mine too\n", to: staging + "/mydir/p.txt")
        TestSupport.write("name: Mary Byrne", to: site + "/content/owners/mary.yaml")
        let result = try TestSupport.runCLI(["build"], in: site)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.contains("changed since a build wrote them (NOTES-mine.txt, mydir/p.txt)"), "\(result.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.count == 1 && kept.allSatisfy { TestSupport.read(site + "/\($0)/NOTES-mine.txt") == "mine\n" })
        #expect(kept.allSatisfy { TestSupport.read(site + "/\($0)/mydir/p.txt") == "mine too\n" })
    }

    /// A site whose root is itself named like the staging folder of the output asked for.
    @Test func aStagingFolderThatWouldBeTheSiteIsRefused() throws {
        let parent = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(parent) }
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        try FileManager.default.moveItem(atPath: site, toPath: parent + "/.public.staging")
        let result = try TestSupport.runCLI(["build", "--output", "../public"], in: parent + "/.public.staging")
        #expect(result.status == 1)
        #expect(result.stderr.contains("its staging folder ../.public.staging would hold the site itself"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: parent + "/.public.staging/content/site.yaml"))
    }

    /// Pruning the image cache removes old entries only, not whatever else is in its folder.
    @Test func theImageCacheKeepsFilesItDidNotMake() throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        let notes = site + "/.noticeboard-cache/images/notes.txt"
        TestSupport.write("mine", to: notes)
        let old = timeval(tv_sec: time(nil) - 7200, tv_usec: 0)
        #expect(utimes(notes, [old, old]) == 0)
        #expect(try TestSupport.runCLI(["build", "--quiet"], in: site).status == 0)
        #expect(TestSupport.read(notes) == "mine")
    }

    @Test func newRefusesAFileAndAFolderThatIsNotEmpty() throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        let file = try TestSupport.runCLI(["new", "a-file"], in: site)
        #expect(file.status == 1)
        #expect(file.stderr == "error: a-file exists and is not a folder; name a new or empty folder\n")
        let folder = try TestSupport.runCLI(["new", "mine"], in: site)
        #expect(folder.status == 1)
        #expect(folder.stderr == "error: mine is not empty; noticeboard new only writes into a new or empty folder\n")
        let unnamed = try TestSupport.runCLI(["new", ""], in: site)
        #expect(unnamed.status == 1 && unnamed.stderr == "error: name the folder to make the site in\n", "\(unnamed.stderr)")
        // A folder the path leads back out of is not made, as for a build's output (a tester's report).
        let roundabout = try TestSupport.runCLI(["new", "nowhere/../starter"], in: site)
        #expect(roundabout.status == 1 && roundabout.stderr.contains("nowhere does not exist, and the path leads back out of it with '..'"), "\(roundabout.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site + "/nowhere") && !FileManager.default.fileExists(atPath: site + "/starter"))
        #expect(TestSupport.read(site + "/a-file") == "a file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site + "/mine") == ["notes.txt"])
    }
}
