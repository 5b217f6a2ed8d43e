import Foundation
import SiteLoader
import SiteModel
import Testing

/// Listing and reading a site's files, with symbolic links in and out of `content/`.
@Suite struct SiteFilesTests {
    /// content/ with a listing, a link to it, a linked folder inside content/, and links that leave it.
    func makeSite() throws -> String {
        let site = TestSupport.temporaryFolder()
        TestSupport.write("name: A\n", to: site + "/content/things/a.yaml")
        TestSupport.write("name: B\n", to: site + "/content/shared/b.yaml")
        TestSupport.write("secret\n", to: site + "/outside.yaml")
        let links = FileManager.default
        try links.createSymbolicLink(atPath: site + "/content/things/a-again.yaml", withDestinationPath: "a.yaml")
        try links.createSymbolicLink(atPath: site + "/content/things/shared", withDestinationPath: "../shared")
        try links.createSymbolicLink(atPath: site + "/content/things/secret.yaml", withDestinationPath: "../../outside.yaml")
        try links.createSymbolicLink(atPath: site + "/content/things/root", withDestinationPath: "/")
        return site
    }

    @Test func linksInsideAreFollowedAndLinksOutsideAreLeftOut() throws {
        let site = try makeSite()
        defer { TestSupport.removeTree(site) }
        let files = SiteFiles(root: site)
        #expect(files.files(under: "content/things", extensions: ["yaml"]) == [
            "content/things/a-again.yaml", "content/things/a.yaml", "content/things/shared/b.yaml",
        ])
        #expect(files.entryProblems(under: "content").map(\.description) == [
            "content/things/root:1:1: error: this is a symbolic link to '/', which is outside content/; links may only point to files inside content/",
            "content/things/secret.yaml:1:1: error: this is a symbolic link to '../../outside.yaml', which is outside content/; links may only point to files inside content/",
        ])
    }

    /// A link that leads nowhere says why: to nothing, through a file as if it were a folder, round a loop,
    /// or through more links than the kernel follows (40), each read from the failure itself.
    @Test func aLinkThatLeadsNowhereSaysWhy() throws {
        let site = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(site) }
        let things = site + "/content/things"
        TestSupport.write("name: A\n", to: things + "/a.yaml")
        let links = FileManager.default
        try links.createSymbolicLink(atPath: things + "/gone.yaml", withDestinationPath: "missing.yaml")
        try links.createSymbolicLink(atPath: things + "/through-a-file.yaml", withDestinationPath: "a.yaml/b.yaml")
        try links.createSymbolicLink(atPath: things + "/loop.yaml", withDestinationPath: "loop.yaml")
        try links.createSymbolicLink(atPath: things + "/chain-0.yaml", withDestinationPath: "a.yaml")
        for step in 1...41 { try links.createSymbolicLink(atPath: things + "/chain-\(step).yaml", withDestinationPath: "chain-\(step - 1).yaml") }
        let problems = SiteFiles(root: site).entryProblems(under: "content").map(\.description).sorted()
        let loop = "which leads round a loop of links, or through more than 40, and never reaches a file"
        // chain-39.yaml is 40 links from a file; chain-40.yaml, 41.
        #expect(problems == [
            "content/things/chain-40.yaml:1:1: error: this symbolic link points to 'chain-39.yaml', \(loop)",
            "content/things/chain-41.yaml:1:1: error: this symbolic link points to 'chain-40.yaml', \(loop)",
            "content/things/gone.yaml:1:1: error: this symbolic link points to 'missing.yaml', which does not exist",
            "content/things/loop.yaml:1:1: error: this symbolic link points to 'loop.yaml', \(loop)",
            "content/things/through-a-file.yaml:1:1: error: this symbolic link points to 'a.yaml/b.yaml', which does not exist",
        ])
    }

    /// A folder two levels down gives its own files, read from the walk's index of such folders, as a
    /// filter of every file by the folder's bytes gives them: not a folder whose name begins with it, nor
    /// one whose name is the same String in other bytes (é composed, and e with a combining accent).
    @Test func aSecondLevelFolderGivesTheFilesAFilterByItsBytesGives() throws {
        let site = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(site) }
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8))
        for path in [
            "things/a.yaml", "things/B.YML", "things/deeper/c.yaml", "things/notes.txt", "thingsmore/d.yaml", "\(composed)/e.yaml",
            "\(decomposed)/f.yaml", "media/g.jpg", "top.yaml",
        ] {
            TestSupport.write("name: X\n", to: site + "/content/" + path)
        }
        let content = SiteFiles(root: site).contents(of: "content")
        #expect(content.files.count == 9)
        for folder in ["things", "thingsmore", composed, decomposed, "media", "nothing", "things/deeper"] {
            let prefix = Array("content/\(folder)/".utf8)
            for extensions in [nil, Set(["yaml", "yml"])] as [Set<String>?] {
                let filtered = content.files.filter { file in
                    file.utf8.starts(with: prefix) && (extensions.map { $0.contains((file as NSString).pathExtension.lowercased()) } ?? true)
                }
                #expect(content.files(under: "content/\(folder)", extensions: extensions) == filtered, "\(folder)")
                #expect(content.files(under: "content/\(folder)/", extensions: extensions) == filtered, "\(folder)/")
            }
        }
        #expect(content.files(under: "content/things", extensions: ["yaml", "yml"]) == [
            "content/things/B.YML", "content/things/a.yaml", "content/things/deeper/c.yaml",
        ])
        #expect(content.files(under: "content", extensions: ["yaml"]).count == 6)
    }

    /// A folder of more entries than one run (a kind's 200,000 listings) has them looked up on every core:
    /// the walk still gives every file once, sorted, follows the links inside, and reports each entry that
    /// cannot be part of the site, wherever it falls among the runs.
    @Test func aLargeFolderWalkedInRunsGivesEveryFileAndProblem() throws {
        let site = try makeSite()
        defer { TestSupport.removeTree(site) }
        let count = 10_000
        for index in 0..<count { TestSupport.write("\(index)", to: site + "/content/things/\(index).yaml") }
        #expect(mkfifo(site + "/content/things/pipe.yaml", 0o644) == 0)
        let walked = SiteFiles(root: site).contents(of: "content")
        let expected = (0..<count).map { "content/things/\($0).yaml" } + [
            "content/shared/b.yaml", "content/things/a-again.yaml", "content/things/a.yaml", "content/things/shared/b.yaml",
        ]
        #expect(walked.files == expected.sorted())
        // The problems come in the order the folder lists its entries, whichever runs they fell in.
        let messages = [
            "pipe.yaml": "content/things/pipe.yaml:1:1: error: this is neither a file nor a folder (a named pipe or a device); remove it",
            "root": "content/things/root:1:1: error: this is a symbolic link to '/', which is outside content/; links may only point to files inside content/",
            "secret.yaml": "content/things/secret.yaml:1:1: error: this is a symbolic link to '../../outside.yaml', which is outside content/; links may only point to files inside content/",
        ]
        let listed = try #require(Self.namesInListingOrder(site + "/content/things"))
        #expect(walked.problems.map(\.description) == listed.compactMap { messages[$0] })
    }

    /// A folder's entry names in the order `readdir` lists them.
    static func namesInListingOrder(_ folder: String) -> [String]? {
        guard let listing = opendir(folder) else { return nil }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            names.append(withUnsafePointer(to: entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) })
        }
        return names
    }

    @Test func readingThroughALinkOutsideIsRefused() throws {
        let site = try makeSite()
        defer { TestSupport.removeTree(site) }
        let files = SiteFiles(root: site)
        #expect(try files.read("content/things/a-again.yaml") == Array("name: A\n".utf8))
        #expect(throws: Diagnostic.self) { try files.read("content/things/secret.yaml") }
        do throws(Diagnostic) {
            _ = try files.read("content/things/root/etc/passwd")
            Issue.record("a path through a link to / was read")
        } catch {
            #expect(error.message == "symbolic links lead this path outside content/; links may only point to files inside content/")
        }
    }

    /// Reading opens a file below its top folder in one call the kernel checks, which refuses every absolute
    /// link and every `..` above the folder; those are then checked by where they lead, as before, so each
    /// link that ends inside is still read, also through a top folder that is itself a link.
    @Test func linksThatEndInsideAreReadHoweverTheyGetThere() throws {
        let site = try makeSite()
        defer { TestSupport.removeTree(site) }
        let links = FileManager.default
        try links.createSymbolicLink(atPath: site + "/content/things/absolute.yaml", withDestinationPath: site + "/content/shared/b.yaml")
        try links.createSymbolicLink(atPath: site + "/content/things/out-and-back.yaml", withDestinationPath: "../../content/things/a.yaml")
        try links.createSymbolicLink(atPath: site + "/linked", withDestinationPath: "content")
        let files = SiteFiles(root: site)
        for (path, text) in [
            ("content/things/shared/b.yaml", "name: B\n"), ("content/things/absolute.yaml", "name: B\n"),
            ("content/things/out-and-back.yaml", "name: A\n"), ("content/things/../things/a.yaml", "name: A\n"),
        ] {
            #expect(try files.read(path) == Array(text.utf8), "\(path)")
        }
        let throughLinkedArea = SiteFiles(root: site)
        #expect(try throughLinkedArea.read("linked/things/a.yaml") == Array("name: A\n".utf8))
        #expect(throws: Diagnostic.self) { try throughLinkedArea.read("linked/things/secret.yaml") }
        #expect(throws: Diagnostic.self) { try throughLinkedArea.read("linked/../outside.yaml") }
    }

    /// Opening a named pipe would wait for a writer forever.
    @Test func namedPipesAreRefusedWithoutWaiting() throws {
        let site = try makeSite()
        defer { TestSupport.removeTree(site) }
        #expect(mkfifo(site + "/content/things/pipe.yaml", 0o644) == 0)
        let files = SiteFiles(root: site)
        #expect(!files.files(under: "content/things").contains("content/things/pipe.yaml"))
        #expect(files.entryProblems(under: "content/things").map(\.description).contains(
            "content/things/pipe.yaml:1:1: error: this is neither a file nor a folder (a named pipe or a device); remove it"))
        #expect(throws: Diagnostic.self) { try files.read("content/things/pipe.yaml") }
    }

    @Test func filesOverTheLimitAreRefusedUnread() throws {
        let site = try makeSite()
        defer { TestSupport.removeTree(site) }
        #expect(try SiteFiles(root: site, maxFileBytes: 8).read("content/things/a.yaml").count == 8)
        do throws(Diagnostic) {
            _ = try SiteFiles(root: site, maxFileBytes: 7).read("content/things/a.yaml")
            Issue.record("a file over the limit was read")
        } catch {
            #expect(error.message.hasPrefix("the file is 8 bytes, over the limit of 7 bytes"))
        }
    }
}
