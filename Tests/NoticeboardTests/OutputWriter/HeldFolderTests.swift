import Foundation
@testable import OutputWriter
import Testing

/// `HeldFolder` both ways it resolves a path: by the kernel (`openat2`), and a folder at a time, as where the
/// kernel has none. A link met on the way or at the end is refused and named, and nothing it leads to is
/// opened, made, linked or removed.
@Suite struct HeldFolderTests {
    /// `held/` with a file `kept.txt`, a folder `inside/` holding `page.html`, and links `held/away -> ../theirs` and
    /// `held/inside/theirs.txt -> ../../theirs/notes.txt`; `theirs/` holds `notes.txt` and `page.html`.
    private static func folderWithLinks() -> String {
        let root = TestSupport.temporaryFolder()
        TestSupport.write("kept", to: root + "/held/kept.txt")
        TestSupport.write("page", to: root + "/held/inside/page.html")
        TestSupport.write("theirs", to: root + "/theirs/notes.txt")
        TestSupport.write("their page", to: root + "/theirs/page.html")
        symlink("../theirs", root + "/held/away")
        symlink("../../theirs/notes.txt", root + "/held/inside/theirs.txt")
        return root
    }

    @Test(arguments: HeldFolder.Resolution.allCases)
    func aLinkOnTheWayIsRefusedAndNamed(_ resolution: HeldFolder.Resolution) throws {
        let root = Self.folderWithLinks()
        defer { TestSupport.removeTree(root) }
        let theirs = TestSupport.tree(root + "/theirs")
        let held = try #require(try HeldFolder(opening: root + "/held", resolution: resolution))
        let named = "\(root)/held/away is a symbolic link, which no build makes"

        for attempt: () throws -> Void in [
            { _ = try held.open("away/notes.txt", O_RDONLY) },
            { _ = try held.makeFile("away/new.txt") },
            { _ = try held.folder("away") },
            { _ = try held.unlink("away/page.html") },
            { _ = try held.link("away/linked.txt", to: "kept.txt", in: held) },
            { _ = try held.link("inside/linked.html", to: "away/page.html", in: held) },
        ] {
            let refusal = #expect(throws: WriteError.self) { try attempt() }
            #expect(refusal?.message.hasPrefix(named) == true, "\(refusal?.message ?? "")")
        }
        #expect(TestSupport.tree(root + "/theirs") == theirs, "the folder the link leads to was changed")
    }

    @Test(arguments: HeldFolder.Resolution.allCases)
    func aLinkAtTheEndIsNotOpenedOrLinked(_ resolution: HeldFolder.Resolution) throws {
        let root = Self.folderWithLinks()
        defer { TestSupport.removeTree(root) }
        let held = try #require(try HeldFolder(opening: root + "/held", resolution: resolution))
        let inside = try #require(try held.folder("inside"))
        #expect(inside.resolution == resolution)
        let named = "\(root)/held/inside/theirs.txt is a symbolic link, which no build makes"

        let read = #expect(throws: WriteError.self) { _ = try held.contents(of: "inside/theirs.txt") }
        #expect(read?.message.hasPrefix(named) == true, "\(read?.message ?? "")")
        let linked = #expect(throws: WriteError.self) { _ = try held.link("copy.txt", to: "theirs.txt", in: inside) }
        #expect(linked?.message.hasPrefix(named) == true, "\(linked?.message ?? "")")
        #expect(!FileManager.default.fileExists(atPath: root + "/held/copy.txt"), "the link was linked")
        // A plain file beneath it, reached the same way, is read.
        #expect(try held.contents(of: "inside/page.html") == Array("page".utf8))
    }

    /// A file where a folder is expected is not taken for a link: nothing is opened or made there, and no refusal.
    @Test(arguments: HeldFolder.Resolution.allCases)
    func aFileWhereAFolderIsExpectedIsNotALink(_ resolution: HeldFolder.Resolution) throws {
        let root = Self.folderWithLinks()
        defer { TestSupport.removeTree(root) }
        let held = try #require(try HeldFolder(opening: root + "/held", resolution: resolution))
        #expect(try held.folder("kept.txt") == nil)
        #expect(try held.open("kept.txt/x", O_RDONLY) == -1 && errno == ENOTDIR)
        #expect(try !held.makeFolder("kept.txt/x") && errno == ENOTDIR)
        #expect(try held.status("kept.txt/x") == nil)
    }

    /// A folder kept open for the files that follow (`OpenFolders`), then swapped for a link: the next files for it go
    /// into the folder it was, moved, never where the link leads; and as the folders are let go, the path no longer
    /// leading to the one that took them is refused, so the build publishes nothing.
    @Test func aFolderKeptOpenAndSwappedForALinkIsNotWrittenThroughAndIsRefused() throws {
        let root = Self.folderWithLinks()
        defer { TestSupport.removeTree(root) }
        let theirs = TestSupport.tree(root + "/theirs")
        let held = try #require(try HeldFolder(opening: root + "/held"))
        let folders = OpenFolders(beneath: held)
        #expect(try folders.link("inside/first.txt", to: "kept.txt", in: folders))
        #expect(rename(root + "/held/inside", root + "/moved") == 0 && symlink("../theirs", root + "/held/inside") == 0)

        #expect(try folders.link("inside/second.txt", to: "kept.txt", in: folders))
        #expect(try folders.makeFolder("inside/made"))
        #expect(Set(TestSupport.tree(root + "/moved").keys) == ["page.html", "first.txt", "second.txt"])
        #expect(FileManager.default.fileExists(atPath: root + "/moved/made"))
        #expect(TestSupport.tree(root + "/theirs") == theirs, "the folder the link leads to was changed")
        let afresh = #expect(throws: WriteError.self) { _ = try OpenFolders(beneath: held).link("inside/third.txt", to: "kept.txt", in: folders) }
        #expect(afresh?.message.hasPrefix("\(root)/held/inside is a symbolic link") == true, "\(afresh?.message ?? "")")
        let finished = #expect(throws: WriteError.self) { try folders.finish() }
        #expect(finished?.message.hasPrefix("\(root)/held/inside is a symbolic link") == true, "\(finished?.message ?? "")")
    }

    /// The same when the folder is moved and another put at its path; a folder that took one file, reached afresh
    /// for it, is let go unchecked, as before folders were kept open.
    @Test func aFolderKeptOpenAndReplacedIsRefusedAsItIsLetGo() throws {
        let root = Self.folderWithLinks()
        defer { TestSupport.removeTree(root) }
        let held = try #require(try HeldFolder(opening: root + "/held"))
        try OpenFolders.keeping(beneath: held) { folders throws(WriteError) in
            #expect(try folders.link("inside/once.txt", to: "kept.txt", in: folders))
        }
        let folders = OpenFolders(beneath: held)
        #expect(try folders.link("inside/first.txt", to: "kept.txt", in: folders))
        #expect(try folders.link("inside/second.txt", to: "kept.txt", in: folders))
        #expect(rename(root + "/held/inside", root + "/moved") == 0 && mkdir(root + "/held/inside", 0o755) == 0)
        let finished = #expect(throws: WriteError.self) { try folders.finish() }
        #expect(finished?.message.hasPrefix("\(root)/held/inside was moved or replaced while the build wrote into it") == true, "\(finished?.message ?? "")")
    }

    /// Past the few folders kept open, the one used longest ago is let go, checked as `finish` checks: one moved meanwhile
    /// is refused as the next folder is reached; those never moved pass.
    @Test func theFolderLetGoForAnotherIsCheckedToo() throws {
        let root = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(root) }
        TestSupport.write("kept", to: root + "/held/kept.txt")
        for index in 0..<6 { #expect(mkdir(root + "/held/f\(index)", 0o755) == 0) }
        let held = try #require(try HeldFolder(opening: root + "/held"))
        try OpenFolders.keeping(beneath: held) { folders throws(WriteError) in
            for index in 0..<6 { for copy in 0..<2 { #expect(try folders.link("f\(index)/\(copy).txt", to: "kept.txt", in: folders)) } }
        }
        let folders = OpenFolders(beneath: held)
        for index in 0..<4 { for copy in 2..<4 { #expect(try folders.link("f\(index)/\(copy).txt", to: "kept.txt", in: folders)) } }
        #expect(rename(root + "/held/f0", root + "/moved") == 0 && mkdir(root + "/held/f0", 0o755) == 0)
        let refused = #expect(throws: WriteError.self) { _ = try folders.link("f4/2.txt", to: "kept.txt", in: folders) }
        #expect(refused?.message.hasPrefix("\(root)/held/f0 was moved or replaced") == true, "\(refused?.message ?? "")")
    }
}
