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

    /// A folder kept open for the files that follow (`OpenFolders`), then swapped for a link: the next file for it goes
    /// into the folder it was, moved, never where the link leads; one that reaches the path afresh refuses the link.
    @Test func aFolderKeptOpenAndSwappedForALinkIsNotWrittenThrough() throws {
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
    }
}
