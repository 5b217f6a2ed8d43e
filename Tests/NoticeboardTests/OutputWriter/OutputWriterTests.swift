import Foundation
import OutputWriter
import Rendering
import SiteModel
import Testing

@Suite struct OutputWriterTests {
    @Test func writesTheTreeAndReplacesThePreviousOne() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        _ = try output.write([OutputFile(path: "old/index.html", text: "old")])
        let summary = try output.write([OutputFile(path: "index.html", text: "home"), OutputFile(path: "a/b/c.json", text: "{}")])
        #expect(summary.files == 2 && summary.bytes == 6)
        #expect(TestSupport.tree(folder + "/public").keys.sorted() == ["a/b/c.json", "index.html"])
        // Only the output folder is left: no staging folder or old copy beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["public"])
    }

    @Test func failedWriteLeavesThePreviousSiteUntouched() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        _ = try output.write([OutputFile(path: "index.html", text: "previous")])
        #expect(throws: BuildFailure.self) {
            try output.write([OutputFile(path: "index.html", text: "new"), OutputFile(path: "x.css", contents: .copy(from: folder + "/absent.css"))])
        }
        #expect(TestSupport.tree(folder + "/public") == ["index.html": Data("previous".utf8)])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["public"])
    }

    /// A build adds its files from every core as they are rendered, while the writer thread writes them.
    @Test func filesAddedFromManyThreadsAreAllWrittenBeforeTheSwap() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        _ = try output.write([OutputFile(path: "index.html", text: "previous")])
        let staging = try output.begin()
        DispatchQueue.concurrentPerform(iterations: 40) { batch in
            staging.add((0..<50).map { item in
                let text = "page \(batch)-\(item)"
                return (OutputFile(path: "kind\(batch % 3)/\(batch)-\(item)/index.html", text: text), Manifest.digest(Array(text.utf8)))
            })
        }
        #expect(TestSupport.tree(folder + "/public") == ["index.html": Data("previous".utf8)], "nothing is swapped in before finish")
        let summary = try staging.finish { $0.hasPrefix("kind") }
        let written = TestSupport.tree(folder + "/public")
        #expect(summary.files == 2_000 && summary.written == 2_000 && written.count == 2_000)
        #expect(written["kind2/38-49/index.html"] == Data("page 38-49".utf8))
        #expect(summary.bytes == written.values.reduce(0) { $0 + $1.count })

        // A path that escapes, added after files were already written, fails the write and leaves the site as it was.
        let failing = try output.begin()
        failing.add([(OutputFile(path: "fine/index.html", text: "x"), nil)])
        failing.add([(OutputFile(path: "../outside.html", text: "x"), nil)])
        #expect(throws: BuildFailure.self) { try failing.finish { $0 == "fine/index.html" } }
        #expect(TestSupport.tree(folder + "/public") == written)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["public"])
    }

    /// Folders made before their files are rendered: those files go in, and one that gets none is not left behind.
    @Test func foldersMadeAheadThatGetNoFileAreRemoved() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let staging = try StagedOutput(outputPath: folder + "/public").begin()
        staging.prepareFolders(["cleaners/ana/", "cleaners/bo/", "ghosts/nobody/"])
        staging.add([(OutputFile(path: "cleaners/ana/index.html", text: "ana"), nil), (OutputFile(path: "cleaners/bo/index.html", text: "bo"), nil)])
        _ = try staging.finish(wanted: ["cleaners/ana/index.html", "cleaners/bo/index.html"].contains)
        #expect(TestSupport.tree(folder + "/public").keys.sorted() == ["cleaners/ana/index.html", "cleaners/bo/index.html"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder + "/public").sorted() == ["cleaners"], "no empty ghosts/ folder")
    }

    @Test func pathsThatEscapeTheOutputAreRefused() {
        for path in ["../evil.html", "/etc/x", "a/../../b", "a//b", ""] {
            #expect(throws: BuildFailure.self) {
                try StagedOutput(outputPath: NSTemporaryDirectory() + "never-written").write([OutputFile(path: path, text: "x")])
            }
        }
    }

    /// The staging folder, holding the site before, is brought up to date in place of a new one: only files
    /// whose digest differs are written, the rest stay (shared with the output as hard links), files no
    /// longer wanted go with the folders they leave empty — and the site being replaced is not changed.
    @Test func theStagingFolderIsBroughtUpToDate() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        func digest(_ text: String) -> FileDigest { Manifest.digest(Array(text.utf8)) }
        func inode(_ path: String) -> ino_t { TestSupport.inode(folder + "/" + path) }
        // Site 1, then site 2 kept site 1 in the staging folder.
        let site1 = ["index.html": "home", "a/b/gone.html": "gone", "same.css": "css", "edited.html": "one"]
        _ = try output.write(site1.map { OutputFile(path: $0.key, text: $0.value) }, digests: site1.mapValues(digest))
        let site2 = ["index.html": "home", "same.css": "css", "edited.html": "two", "a/b/gone.html": "gone"]
        _ = try output.write(
            site2.map { OutputFile(path: $0.key, contents: $0.key == "edited.html" ? .bytes(Array($0.value.utf8)) : .previous) },
            digests: site2.mapValues(digest), previousIsKnown: true)
        #expect(TestSupport.tree(folder + "/.public.staging") == site1.mapValues { Data($0.utf8) })
        #expect(inode("public/same.css") == inode(".public.staging/same.css"), "unchanged files are shared")
        let stagingFolder = inode(".public.staging")

        // Site 3 from the staging folder: one file edited again, one gone, one new, the rest as they were.
        let site3 = ["index.html": "home", "same.css": "css", "edited.html": "three", "new/page.html": "new"]
        let summary = try output.write(
            site3.map { OutputFile(path: $0.key, contents: ["edited.html", "new/page.html"].contains($0.key) ? .bytes(Array($0.value.utf8)) : .previous) },
            digests: site3.mapValues(digest), staged: WrittenDigests(site1.mapValues(digest)), previousIsKnown: true)
        #expect(summary.files == 4 && summary.written == 2 && summary.bytes == 15)
        #expect(inode("public") == stagingFolder, "the staging folder became the output")
        #expect(TestSupport.tree(folder + "/public") == site3.mapValues { Data($0.utf8) })
        #expect(!FileManager.default.fileExists(atPath: folder + "/public/a"), "folders left empty are removed")
        #expect(TestSupport.tree(folder + "/.public.staging") == site2.mapValues { Data($0.utf8) }, "the site replaced is unchanged")
        #expect(inode("public/same.css") == inode(".public.staging/same.css"))
    }

    /// Someone moves the staging folder away while a build writes into it and puts a link to a folder of their
    /// own, or a folder, at its name: nothing is written into or removed from theirs, whether the staging folder was
    /// made anew or is being brought up to date, and the build publishes nothing.
    @Test(arguments: [false, true], [true, false])
    func aStagingFolderReplacedMidBuildIsNeitherWrittenThroughNorSwappedIn(bringingUpToDate: Bool, byALink: Bool) throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        func digest(_ text: String) -> FileDigest { Manifest.digest(Array(text.utf8)) }
        let site = ["index.html": "home", "gone.html": "gone"]
        _ = try output.write(site.map { OutputFile(path: $0.key, text: $0.value) }, digests: site.mapValues(digest))
        _ = try output.write(site.map { OutputFile(path: $0.key, contents: .previous) }, digests: site.mapValues(digest), previousIsKnown: true)
        let staging = try output.begin(staged: bringingUpToDate ? WrittenDigests(site.mapValues(digest)) : nil, previousIsKnown: true)
        #expect(rename(folder + "/.public.staging", folder + "/moved") == 0)
        let theirs = byALink ? folder + "/mine" : folder + "/.public.staging"
        TestSupport.write("mine", to: theirs + "/gone.html")
        if byALink { #expect(symlink(theirs, folder + "/.public.staging") == 0) }

        staging.add([(OutputFile(path: "index.html", text: "new home"), digest("new home")), (OutputFile(path: "a/new.html", text: "new"), nil)])
        #expect(staging.stream({ $0.append(contentsOf: Array("streamed".utf8)) }, at: "api/all.json") != nil)
        let failure = #expect(throws: BuildFailure.self) { try staging.finish(wanted: ["index.html", "a/new.html", "api/all.json"].contains) }
        #expect(failure?.diagnostics.map(\.message) == [
            "cannot write the site to \(folder)/public/: \(folder)/.public.staging was moved or replaced while the build wrote into it; nothing was published, and what is there now was not touched",
        ])
        #expect(TestSupport.tree(theirs) == ["gone.html": Data("mine".utf8)])
        #expect(TestSupport.tree(folder + "/public") == site.mapValues { Data($0.utf8) })
        #expect(TestSupport.read(folder + "/moved/index.html") == "new home", "the build went on writing where it had begun")
    }

    /// Someone swaps a folder inside the staging folder (`cleaners/`, which the build made and goes on writing into)
    /// for a link to a folder of their own while the build writes: no file is written, linked or removed in theirs
    /// (a file put into a folder the build made, a folder made, a `.previous` file linked, a streamed document, and
    /// a folder made ahead that no file went into, which `finish` removes), and the build refuses and publishes nothing.
    @Test func aFolderInsideTheStagingFolderSwappedForALinkIsNotFollowed() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        let names = (0..<200).map { "cleaner-\($0)" }
        let site = Dictionary(uniqueKeysWithValues: names.map { ("cleaners/\($0)/index.html", "page of \($0)") })
            .merging(["cleaners/cleaner-1/photo.txt": "photo"]) { $1 }
        _ = try output.write(site.map { OutputFile(path: $0.key, text: $0.value) })
        let staging = try output.begin()
        staging.prepareFolders(["cleaners/ghost/"])
        staging.add(names.prefix(100).map { (OutputFile(path: "cleaners/\($0)/index.html", text: "new page of \($0)"), nil) })
        let staged = folder + "/.public.staging"
        #expect(TestSupport.eventually(within: 20) { FileManager.default.fileExists(atPath: staged + "/cleaners/cleaner-99/index.html") })

        // Theirs holds what the build would reach through the link: folders of the names it made, with a file each.
        let theirs = folder + "/theirs"
        for name in names.prefix(100) + ["ghost"] { TestSupport.write("mine", to: theirs + "/\(name)/notes.txt") }
        TestSupport.write("mine", to: theirs + "/all.json.noticeboard-part-link")
        #expect(unlink(theirs + "/ghost/notes.txt") == 0)
        #expect(rename(staged + "/cleaners", folder + "/moved") == 0)
        #expect(symlink(theirs, staged + "/cleaners") == 0)
        let before = Self.entries(theirs)

        staging.add([
            (OutputFile(path: "cleaners/cleaner-0/more.html", text: "into a folder the build made"), nil),
            (OutputFile(path: "cleaners/new/index.html", text: "into a folder to make"), nil),
            (OutputFile(path: "cleaners/cleaner-1/photo.txt", contents: .previous), nil),
        ] + names.suffix(100).map { (OutputFile(path: "cleaners/\($0)/index.html", text: "new page of \($0)"), nil) })
        _ = staging.stream({ $0.append(contentsOf: Array("[]".utf8)) }, at: "cleaners/all.json")
        let failure = #expect(throws: BuildFailure.self) { try staging.finish { _ in true } }
        let refusal = "cannot write the site to \(folder)/public/: \(staged)/cleaners is a symbolic link, which no build makes"
        #expect(failure?.diagnostics.contains { $0.severity == .error && $0.message.hasPrefix(refusal) } == true, "\(failure?.diagnostics.map(\.message) ?? [])")
        // Not "remove it": the staging folder, with the link, was set aside, and the warning says where.
        #expect(failure?.diagnostics.first { $0.severity == .error }?.message.hasSuffix("nothing was published; build again") == true)
        let warning = failure?.diagnostics.first { $0.severity == .warning }?.message ?? ""
        #expect(warning.hasPrefix("a staging folder held files that no build wrote (cleaners): they were put there while a build wrote it"), "\(warning)")
        #expect(Self.entries(theirs) == before, "the folder the link leads to was changed")
        #expect(TestSupport.tree(folder + "/public") == site.mapValues { Data($0.utf8) }, "public/ keeps the previous site")
    }

    /// The same in the output folder, which a build links unchanged files from: a folder of it swapped for a link
    /// while the build writes is not read through, so none of their files is linked into the new site.
    @Test func aFolderInsideTheOutputSwappedForALinkIsNotLinkedFrom() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        _ = try output.write([OutputFile(path: "index.html", text: "home"), OutputFile(path: "cleaners/ana/index.html", text: "ana")])
        let staging = try output.begin(previousIsKnown: true)
        let theirs = folder + "/theirs"
        TestSupport.write("mine", to: theirs + "/ana/index.html")
        #expect(rename(folder + "/public/cleaners", folder + "/moved") == 0)
        #expect(symlink(theirs, folder + "/public/cleaners") == 0)

        staging.add([(OutputFile(path: "index.html", contents: .previous), nil), (OutputFile(path: "cleaners/ana/index.html", contents: .previous), nil)])
        let failure = #expect(throws: BuildFailure.self) { try staging.finish { _ in true } }
        let refusal = "cannot write the site to \(folder)/public/: \(folder)/public/cleaners is a symbolic link, which no build makes"
        #expect(failure?.diagnostics.contains { $0.severity == .error && $0.message.hasPrefix(refusal) } == true, "\(failure?.diagnostics.map(\.message) ?? [])")
        var info = stat()
        #expect(lstat(theirs + "/ana/index.html", &info) == 0 && info.st_nlink == 1, "their file was linked into the staging folder")
        #expect(TestSupport.read(folder + "/public/index.html") == "home")
        #expect(!FileManager.default.fileExists(atPath: folder + "/.public.staging"))
    }

    /// Every entry below `root`, links not followed: a folder, a link and where it leads, or a file's inode, link count and bytes.
    private static func entries(_ root: String) -> [String: String] {
        var found: [String: String] = [:]
        for name in FileManager.default.subpaths(atPath: root) ?? [] {
            var info = stat()
            guard lstat(root + "/" + name, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: found[name] = "folder"
            case S_IFLNK: found[name] = "link to " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: root + "/" + name)) ?? "?")
            default: found[name] = "file \(info.st_ino) \(info.st_nlink) " + TestSupport.read(root + "/" + name)
            }
        }
        return found
    }

    /// A staging folder a build could not remove whole (a file in it that cannot be removed, as without write
    /// permission) keeps its marker: the next build says why it cannot write, and once the file can go, removes it
    /// and writes. Without the marker, what was left looked like someone else's folder, and every build refused.
    @Test(.enabled(if: getuid() == 0, "chattr +i needs root"))
    func aStagingFolderThatCouldNotBeRemovedStaysMarkedAsABuildsOwn() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        TestSupport.write("", to: folder + "/.public.staging/.noticeboard-staging")
        TestSupport.write("api/stuck.json\u{0}", to: folder + "/.public.staging/.noticeboard-updating.added")
        TestSupport.write("{}", to: folder + "/.public.staging/api/stuck.json")
        func immutable(_ on: Bool) throws -> Int32 { try TestSupport.run("chattr", [on ? "+i" : "-i", folder + "/.public.staging/api/stuck.json"]).status }
        #expect(try immutable(true) == 0)
        defer { _ = try? immutable(false) }

        let failure = #expect(throws: BuildFailure.self) { try output.write([OutputFile(path: "index.html", text: "home")]) }
        #expect(failure?.diagnostics.map(\.message) == [
            "cannot write the site to \(folder)/public/: \(folder)/.public.staging, left by an earlier build, could not be removed (look there for a folder without write permission, or an immutable file)",
        ])
        #expect(FileManager.default.fileExists(atPath: folder + "/.public.staging/.noticeboard-staging"))
        #expect(try immutable(false) == 0)
        _ = try output.write([OutputFile(path: "index.html", text: "home")])
        #expect(TestSupport.tree(folder + "/public") == ["index.html": Data("home".utf8)])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["public"])
    }

    /// Without a record of what the output folder holds, a new file with the same bytes as the old one is
    /// linked to it (compared byte by byte), so its time does not move; the replaced site is removed.
    @Test func aRebuildFromScratchKeepsFilesWithTheSameBytes() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let output = StagedOutput(outputPath: folder + "/public")
        func inode(_ path: String) -> ino_t { TestSupport.inode(folder + "/public/" + path) }
        _ = try output.write([OutputFile(path: "a/same.css", text: "css"), OutputFile(path: "edited.html", text: "one"), OutputFile(path: "sized.txt", text: "abc")])
        let same = inode("a/same.css"), edited = inode("edited.html"), sized = inode("sized.txt")
        let summary = try output.write([
            OutputFile(path: "a/same.css", text: "css"), OutputFile(path: "edited.html", text: "two"), OutputFile(path: "sized.txt", text: "abd"),
        ])
        #expect(summary.files == 3 && summary.written == 2)
        #expect(inode("a/same.css") == same, "the same bytes: kept")
        #expect(inode("edited.html") != edited && inode("sized.txt") != sized, "other bytes, even of the same size: written")
        #expect(TestSupport.tree(folder + "/public") == ["a/same.css": Data("css".utf8), "edited.html": Data("two".utf8), "sized.txt": Data("abd".utf8)])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["public"])
    }
}
