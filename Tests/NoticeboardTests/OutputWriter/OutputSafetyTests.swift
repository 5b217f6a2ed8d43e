import Foundation
import Testing

/// What happens around the output folder: builds that overlap, leftovers of killed builds, and output
/// folders that cannot be written. Each runs the CLI, as people do.
@Suite struct OutputSafetyTests {
    /// The test holds the lock a build takes, so the build must say it waits, write nothing, and finish
    /// once the lock is released.
    @Test func aSecondBuildWaitsForTheFirst() throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        let held = open(site, O_RDONLY | O_DIRECTORY)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        let stderr = site + "/../" + UUID().uuidString + ".stderr"
        defer { TestSupport.removeTree(stderr) }
        let build = try TestSupport.startCLI(["build"], in: site, stderr: stderr)
        #expect(TestSupport.eventually(within: 20) { TestSupport.read(stderr).contains("waiting") })
        #expect(TestSupport.read(stderr) == "Another build is writing public/; waiting for it to finish.\n")
        usleep(200_000)
        #expect(build.isRunning)
        #expect(!FileManager.default.fileExists(atPath: site + "/public"))
        close(held)
        build.waitUntilExit()
        #expect(build.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: site + "/public/index.html"))
    }

    @Test func twoBuildsStartedTogetherBothFinishWithTheSameSite() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let referenceFolder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(referenceFolder) }
        let reference = referenceFolder + "/public"
        #expect(try TestSupport.runCLI(["build", "--output", reference], in: site).status == 0)
        let expected = TestSupport.tree(reference)
        #expect(expected.count > 40)
        let logs = (0..<2).map { _ in site + "/../" + UUID().uuidString + ".stderr" }
        defer { logs.forEach(TestSupport.removeTree) }
        let builds = try logs.map { try TestSupport.startCLI(["build"], in: site, stderr: $0) }
        for build in builds {
            build.waitUntilExit()
            #expect(build.terminationStatus == 0)
        }
        #expect(TestSupport.tree(site + "/public") == expected)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site).sorted() == [".noticeboard-cache", "content", "public", "static", "templates"])
    }

    /// A killed build's staging folder holds the marker a build puts there before anything else, and notes the path
    /// of each file before writing it: the next build clears it, unless it holds a file put there since, which the
    /// build did not note. Then it is kept aside, with a warning, as a tester found it removed without a word.
    @Test(arguments: [false, true])
    func aStagingFolderLeftByAKilledBuildIsCleared(withAddedFile: Bool) throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        TestSupport.write("", to: site + "/.public.staging/.noticeboard-staging")
        TestSupport.write("things/index.html\u{0}api/things.json\u{0}", to: site + "/.public.staging/.noticeboard-updating.added")
        TestSupport.write("half a page", to: site + "/.public.staging/things/index.html")
        TestSupport.write("{", to: site + "/.public.staging/api/things.json.noticeboard-part")
        if withAddedFile { TestSupport.write("my notes", to: site + "/.public.staging/mine/notes.txt") }
        let build = try TestSupport.runCLI(["build"], in: site)
        #expect(build.status == 0)
        #expect(build.stderr.contains("warning: a staging folder held files that no build wrote (mine/notes.txt)") == withAddedFile, "\(build.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: site).sorted() == ([".noticeboard-cache", "content", "public", "templates"] + kept).sorted())
        #expect(kept.map { TestSupport.read(site + "/" + $0 + "/mine/notes.txt") } == (withAddedFile ? ["my notes"] : []))
        #expect(TestSupport.read(site + "/public/things/index.html").contains("<!DOCTYPE html>"))
    }

    /// A killed build's staging folder whose journal is there but cannot be read (a link, which no build makes; too
    /// many files open) may hold anything: it is kept aside whole, with a warning that says why it could not be
    /// checked. Read as no journal, as a version before journals left, it was cleared with someone's notes in it.
    @Test func aStagingFolderWhoseJournalCannotBeReadIsKeptWhole() throws {
        try checkKeptWhole(stagingFolderWith: { site in
            try FileManager.default.createSymbolicLink(atPath: site + "/.public.staging/.noticeboard-updating.added", withDestinationPath: "elsewhere")
        }, launcher: [], because: ".public.staging/.noticeboard-updating.added: Too many levels of symbolic links")
    }

    /// The same with its marker there but unreadable for a moment: read as absent, as it was, the folder was judged as an
    /// earlier output by the manifest it has not got, and cleared with someone's notes in it.
    @Test func aStagingFolderWhoseMarkerCannotBeReadIsKeptWhole() throws {
        try checkKeptWhole(stagingFolderWith: { site in
            TestSupport.write("things/index.html\u{0}", to: site + "/.public.staging/.noticeboard-updating.added")
        }, launcher: TestSupport.failingOpen(ofFile: ".public.staging/.noticeboard-staging"),
            because: ".public.staging/.noticeboard-staging: Too many open files")
    }

    /// A killed build's staging folder (its marker, what `make` adds, and someone's notes) is kept aside whole by a build
    /// run with `launcher`, warning that it could not be checked `because`.
    private func checkKeptWhole(stagingFolderWith make: (String) throws -> Void, launcher: [String], because: String) throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        TestSupport.write("", to: site + "/.public.staging/.noticeboard-staging")
        TestSupport.write("my notes", to: site + "/.public.staging/mine/notes.txt")
        try make(site)
        let build = try TestSupport.runCLI(["build"], in: site, launcher: launcher)
        #expect(build.status == 0, "\(build.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.map { TestSupport.read(site + "/" + $0 + "/mine/notes.txt") } == ["my notes"], "\(build.stderr)")
        #expect(build.stderr.hasPrefix("warning: a staging folder could not be checked for files that no build wrote (\(because))"), "\(build.stderr)")
    }

    /// As Hugo and Zola do, folders missing above the output folder are made.
    @Test func foldersMissingAboveTheOutputAreMade() throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        let result = try TestSupport.runCLI(["build", "--quiet", "--output", "missing/deeper/public"], in: site)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: site + "/missing/deeper/public/index.html"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: site + "/missing/deeper") == ["public"])
        // After a `..` out of a folder that is there, as `../public` leads out of the site.
        let after = try TestSupport.runCLI(["build", "--quiet", "--output", "content/../other/public"], in: site)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(FileManager.default.fileExists(atPath: site + "/other/public/index.html"))
    }

    @Test(arguments: [
        ("a-file/public", "error: cannot write the site to a-file/public/: a-file is a file, not a folder"),
        ("a-file/deeper/public", "error: cannot write the site to a-file/deeper/public/: a-file is a file, not a folder"),
        ("a-file", "error: refusing to write the site to a-file/: a-file exists and is not a folder; a build replaces that folder whole, so move it away or choose an empty or new folder"),
        // A folder that `..` leads back out of is not made: it would not be on the way to the output.
        ("missing/../a-file", "error: cannot write the site to missing/../a-file/: missing does not exist, and the path leads back out of it with '..'"),
        ("missing/../public", "error: cannot write the site to missing/../public/: missing does not exist, and the path leads back out of it with '..'"),
    ])
    func anOutputThatCannotBeWrittenIsAClearError(output: String, message: String) throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        TestSupport.write("not a folder", to: site + "/a-file")
        let result = try TestSupport.runCLI(["build", "--output", output], in: site)
        #expect(result.status == 1)
        #expect(result.stderr == message + "\n1 error; nothing was written.\n")
        // Beside the image cache, which keeps what any build processed, nothing was written.
        #expect(try FileManager.default.contentsOfDirectory(atPath: site).filter { $0 != ".noticeboard-cache" }.sorted() == ["a-file", "content", "templates"])
    }

    /// A folder without write permission. Root writes anywhere, so as root the build runs as `nobody`.
    @Test func anOutputFolderWithoutWritePermissionIsAClearError() throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        try FileManager.default.createDirectory(atPath: site + "/read-only", withIntermediateDirectories: false)
        chmod(site + "/read-only", 0o555)
        // The site's own cache stays writable, as it is for whoever owns the site.
        try FileManager.default.createDirectory(atPath: site + "/.noticeboard-cache", withIntermediateDirectories: false)
        chmod(site + "/.noticeboard-cache", 0o777)
        let arguments = ["build", "--output", "read-only/public"]
        let result = getuid() == 0
            ? try TestSupport.runCLI(
                arguments, in: site, launcher: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            : try TestSupport.runCLI(arguments, in: site)
        #expect(result.status == 1)
        #expect(result.stderr == "error: cannot write the site to read-only/public/: cannot create a folder in read-only (Permission denied)\n1 error; nothing was written.\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site + "/read-only").isEmpty)
    }

    /// Builds the site twice, with an edit between, so that `.public.staging/` holds the earlier output.
    private static func siteWithEarlierOutput() throws -> String {
        let site = TestSupport.makeSite()
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 19.50", with: "hourly_rate: 20.00"), to: aoife)
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)
        return site
    }

    /// A file someone put deep inside the earlier output kept in `.public.staging/` (one put in `public/` is
    /// refused by the next build: `OwnedFoldersTests`). A build that removes that tree (its record lost with
    /// the cache) checks it against the tree's manifest first, and keeps the tree aside whole, with a warning,
    /// instead of removing the file. Without such a file the tree is removed as before.
    @Test(arguments: [true, false])
    func aFileAddedInsideTheStagedOutputIsKeptAsideNotRemoved(withAddedFile: Bool) throws {
        let site = try Self.siteWithEarlierOutput()
        defer { TestSupport.removeTree(site) }
        if withAddedFile { TestSupport.write("body { color: teal }\n", to: site + "/.public.staging/assets/custom.css") }

        for name in try FileManager.default.contentsOfDirectory(atPath: site + "/.noticeboard-cache") where name.hasPrefix("build-") {
            TestSupport.removeTree(site + "/.noticeboard-cache/" + name)
        }
        let rebuilt = try TestSupport.runCLI(["build"], in: site)
        #expect(rebuilt.status == 0, "\(rebuilt.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.count == (withAddedFile ? 1 : 0), "\(kept)")
        if let folder = kept.first {
            #expect(TestSupport.read(site + "/" + folder + "/assets/custom.css") == "body { color: teal }\n")
            #expect(rebuilt.stderr.contains("warning: an earlier output held files that no build wrote, or changed since a build wrote them (assets/custom.css)"), "\(rebuilt.stderr)")
            #expect(rebuilt.stderr.contains(folder))
        } else {
            #expect(!rebuilt.stderr.contains("warning"), "\(rebuilt.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: site + "/public/assets/custom.css"))
    }

    /// A page someone edited in the output (`about/index.html`, to the same size), whose page the site then drops,
    /// after the cache went with the build's record: the build that would remove the earlier output finds the file
    /// unlike its manifest (by its SHA-256: it was modified after the manifest was written) and keeps that output
    /// aside. (With the record, the output goes into `.public.staging/` at the swap: the test below.)
    @Test func aPageEditedInTheOutputIsKeptNotRemoved() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)
        let notes = try Self.editPage(site + "/public/about/index.html")
        TestSupport.removeTree(site + "/.noticeboard-cache")
        try FileManager.default.removeItem(atPath: site + "/content/pages/about.md")
        let build = try TestSupport.runCLI(["build"], in: site)
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(build.status == 0 && kept.count == 1 && kept.allSatisfy { TestSupport.read(site + "/" + $0 + "/about/index.html") == notes })
        #expect(build.stderr.contains("changed since a build wrote them (about/index.html)") && build.stderr.contains(kept.first ?? "?"), "\(build.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site + "/public/about/index.html"))
    }

    /// The same edit in the earlier output a build brings up to date (`.public.staging/`, which shares the file
    /// with `public/`): that build refuses to remove it (exit 1), keeps the folder aside, and the next succeeds.
    @Test func aPageEditedInTheStagedOutputStopsItsUpdate() throws {
        let site = try Self.siteWithEarlierOutput()
        defer { TestSupport.removeTree(site) }
        let notes = try Self.editPage(site + "/.public.staging/about/index.html")
        try FileManager.default.removeItem(atPath: site + "/content/pages/about.md")
        let failed = try TestSupport.runCLI(["build"], in: site)
        #expect(failed.status == 1 && failed.stderr.contains(".public.staging/about/index.html was changed since a build wrote it"), "\(failed.stderr)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.count == 1 && kept.allSatisfy { TestSupport.read(site + "/" + $0 + "/about/index.html") == notes }, "\(failed.stderr)")
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)
    }

    /// An entry of the earlier output in `.public.staging/` that the next update leaves as it is, replaced since
    /// the last build: a page edited through a rename (as `sed -i` does), a folder or a file swapped for a link, a
    /// file for a folder, a folder for a file. The update would publish it with that folder (a tester saw
    /// `public/robots.txt -> /etc/hostname`); it is refused, and `public/` stays as it was.
    @Test(arguments: ["edited by a rename", "folder to link", "file to link", "file to folder", "folder to file"])
    func anEntryReplacedInTheStagedOutputIsRefused(change: String) throws {
        let site = try Self.siteWithEarlierOutput()
        defer { TestSupport.removeTree(site) }
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 20.00", with: "hourly_rate: 21.00"), to: aoife)
        let staging = site + "/.public.staging", mine = site + "/../" + UUID().uuidString
        defer { TestSupport.removeTree(mine) }
        TestSupport.write("mine\n", to: mine + "/index.html")
        usleep(20_000)
        let (path, manager) = (change.hasPrefix("folder") ? "about" : change == "edited by a rename" ? "about/index.html" : "robots.txt", FileManager.default)
        if change != "edited by a rename" { try manager.removeItem(atPath: staging + "/" + path) }
        switch change {
        case "edited by a rename":
            TestSupport.write(TestSupport.read(staging + "/" + path).replacingOccurrences(of: "<h1>", with: "<h1>HACKED "), to: staging + "/about/.sed")
            #expect(rename(staging + "/about/.sed", staging + "/" + path) == 0)
        case "folder to link", "file to link": try manager.createSymbolicLink(atPath: staging + "/" + path, withDestinationPath: mine + (change == "file to link" ? "/index.html" : ""))
        case "file to folder": TestSupport.write("notes\n", to: staging + "/" + path + "/notes.txt")
        default: TestSupport.write("notes\n", to: staging + "/" + path)
        }
        let published = TestSupport.tree(site + "/public")

        let refused = try TestSupport.runCLI(["build"], in: site)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("error: refusing to write the site to public/: .public.staging/\(path)"), "\(refused.stderr)")
        #expect(refused.stderr.contains(" was changed since the last build wrote it; a build would publish it with that folder"), "\(refused.stderr)")
        #expect(TestSupport.tree(site + "/public") == published)
        #expect(TestSupport.read(mine + "/index.html") == "mine\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: site).contains { $0.hasPrefix(".public.kept-") })
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0, "the next build writes anew")
    }

    /// Changes the first letter of the page's heading, keeping its size, after the clock has moved past its
    /// build's manifest.
    private static func editPage(_ page: String) throws -> String {
        var bytes = Array(TestSupport.read(page).utf8)
        let at = try #require(bytes.firstRange(of: Array("<h1>".utf8))).upperBound
        bytes[at] = bytes[at] == UInt8(ascii: "X") ? UInt8(ascii: "Y") : UInt8(ascii: "X")
        let notes = String(decoding: bytes, as: UTF8.self)
        usleep(20_000)
        TestSupport.write(notes, to: page)
        return notes
    }

    /// The same file, then a file of the site's own at its path (the user moved it to `templates/assets/`):
    /// the build bringing the staging folder up to date finds someone's file in its way and fails. It keeps
    /// that earlier output aside, says so, and the next build succeeds. (The new manifest it had already
    /// written lists that path: it must not vouch for the file there.) The same for a document the build
    /// streams into place (a new kind's `api/tools.json`), which a rename would have put over someone's file.
    @Test(arguments: [("assets/custom.css", false), ("api/tools.json", true)])
    func aFileInTheWayOfAnUpdateIsKeptAsideAndTheNextBuildSucceeds(path: String, streamed: Bool) throws {
        let site = try Self.siteWithEarlierOutput()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("mine\n", to: site + "/.public.staging/" + path)
        // The record's confirmation of the staging folder made again after it, as when the file came in while the
        // last build was confirming it: the check before the update does not see the file (see
        // `aFileAddedDeeperInTheStagingFolderIsRefusedAndKept`), so the update itself meets it. Made until its
        // change time is past the folder's: a change in the same clock tick counts as after it.
        func changeTime(_ path: String) -> (Int, Int) {
            var info = stat()
            return stat(path, &info) == 0 ? (info.st_ctim.tv_sec, info.st_ctim.tv_nsec) : (0, 0)
        }
        let cache = site + "/.noticeboard-cache", folder = changeTime(site + "/.public.staging/" + path.split(separator: "/")[0])
        for name in try FileManager.default.contentsOfDirectory(atPath: cache) where name.hasSuffix(".staged") {
            repeat {
                usleep(10_000)
                TestSupport.write(TestSupport.read(cache + "/" + name), to: cache + "/" + name)
            } while changeTime(cache + "/" + name) <= folder
        }

        if streamed {
            Self.addToolsKind(to: site)
        } else {
            TestSupport.write("theirs\n", to: site + "/templates/assets/custom.css")
        }
        let failed = try TestSupport.runCLI(["build"], in: site)
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.count == 1 && TestSupport.read(site + "/" + (kept.first ?? "") + "/" + path) == "mine\n", "\(failed.stderr)")
        #expect(failed.status == 1 && failed.stderr.contains(".public.staging/\(path) is in the way"), "\(failed.stderr)")
        #expect(failed.stderr.contains("warning: an earlier output held files that no build wrote, or changed since a build wrote them (\(path))"), "\(failed.stderr)")

        let next = try TestSupport.runCLI(["build"], in: site)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(TestSupport.read(site + "/public/" + path) != "mine\n")
    }

    /// A kind the example site did not have, `tools`, with one listing.
    private static func addToolsKind(to site: String) {
        let config = site + "/content/site.yaml"
        TestSupport.write(TestSupport.read(config).replacingOccurrences(of: "kinds: [cleaners,", with: "kinds: [tools, cleaners,"), to: config)
        TestSupport.write("""
            title: Tools
            singular: Tool
            title_field: name
            fields:
              name: {type: string, required: true}
            """, to: site + "/content/schemas/tools.yaml")
        TestSupport.write("name: Ladder\n", to: site + "/content/tools/ladder.yaml")
    }

    /// A folder of the output replaced by a link to one outside it (`public/assets -> ../mine`): the next build, which
    /// links the files it leaves unchanged from the output, must not link them from there (they would be published, and
    /// go with the tree into the staging folder at the swap, for a later build to write through). It refuses, names the
    /// link, and changes nothing outside; once the link is removed, the next build succeeds.
    @Test func aLinkPutInsideTheOutputIsNeverWrittenThrough() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)
        try FileManager.default.moveItem(atPath: site + "/public/assets", toPath: site + "/mine")
        try FileManager.default.createSymbolicLink(atPath: site + "/public/assets", withDestinationPath: "../mine")
        let mine = TestSupport.tree(site + "/mine")
        #expect(mine["icon.svg"] != nil && mine["daily.js"] != nil)
        func links() -> [nlink_t] {
            mine.keys.sorted().map { name in
                var info = stat()
                return lstat(site + "/mine/" + name, &info) == 0 ? info.st_nlink : 0
            }
        }
        let linksBefore = links()
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 19.50", with: "hourly_rate: 20.00"), to: aoife)

        let refused = try TestSupport.runCLI(["build"], in: site)
        #expect(refused.status == 1 && refused.stderr.contains("public/assets is a symbolic link, which no build makes"), "\(refused.stderr)")
        #expect(TestSupport.tree(site + "/mine") == mine && links() == linksBefore, "files outside the output were changed or linked through the link")
        #expect(!FileManager.default.fileExists(atPath: site + "/.public.staging"))

        #expect(unlink(site + "/public/assets") == 0)
        let next = try TestSupport.runCLI(["build"], in: site)
        #expect(next.status == 0, "\(next.stderr)")
        #expect(TestSupport.tree(site + "/mine") == mine && links() == linksBefore)
        #expect(TestSupport.read(site + "/public/assets/daily.js") == TestSupport.read(site + "/mine/daily.js"))
        #expect(TestSupport.read(site + "/public/cleaners/aoife-byrne/index.html").contains("20.00"))
    }

    /// A file of the output replaced by a link of the same size to a file outside it: the next build, which links the
    /// files it leaves unchanged from the output, linked the link itself (a hard link to a symbolic link) and
    /// published it, exit 0. It refuses now, names the link, and publishes nothing.
    @Test func aLinkPutAtAFileOfTheOutputIsNotPublished() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        #expect(try TestSupport.runCLI(["build"], in: site).status == 0)
        let page = site + "/public/about/index.html"
        let secret = site + "/secret.txt"
        TestSupport.write(String(repeating: "s", count: TestSupport.read(page).utf8.count), to: secret)
        #expect(unlink(page) == 0 && symlink(secret, page) == 0)
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 19.50", with: "hourly_rate: 20.00"), to: aoife)

        let refused = try TestSupport.runCLI(["build"], in: site)
        #expect(refused.status == 1 && refused.stderr.contains("public/about/index.html is a symbolic link, which no build makes"), "\(refused.stderr)")
        var info = stat()
        #expect(lstat(page, &info) == 0 && info.st_nlink == 1, "the link was linked into the new site")
        #expect(!TestSupport.read(site + "/public/cleaners/aoife-byrne/index.html").contains("20.00"), "the new site was published")
    }
}
