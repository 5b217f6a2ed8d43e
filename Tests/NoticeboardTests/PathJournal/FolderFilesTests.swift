import Foundation
import PathJournal
import Testing

/// A command's own files removed from a folder it fills (`sync`'s snapshots and `incoming/`): never a tree, and
/// never through a link.
@Suite struct FolderFilesTests {
    /// A folder of the snapshot swapped for a link to one outside after its files were listed (a tester won this
    /// race against `sync` three times in three): the files at the listed paths outside are not removed.
    @Test func aFolderSwappedForALinkIsNotRemovedThrough() throws {
        let root = TestSupport.temporaryFolder(), outside = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(root); TestSupport.removeTree(outside) }
        TestSupport.write("{}\n", to: root + "/houses/a.json")
        TestSupport.write("{}\n", to: root + "/index.json")
        let listed = try FolderFiles.below(root)
        TestSupport.write("mine\n", to: outside + "/a.json")
        TestSupport.removeTree(root + "/houses")
        try FileManager.default.createSymbolicLink(atPath: root + "/houses", withDestinationPath: outside)

        FolderFiles.remove(listed, below: root)
        #expect(TestSupport.read(outside + "/a.json") == "mine\n")
        #expect(!FileManager.default.fileExists(atPath: root + "/index.json"))
        #expect(FileManager.default.fileExists(atPath: root), "the folder holding the link stays")
    }

    /// The listed files go, a file put there since stays with the folders above it, and the rest is removed.
    @Test func onlyTheListedFilesAndEmptiedFoldersGo() throws {
        let root = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(root) }
        TestSupport.write("{}\n", to: root + "/cleaners/a.json")
        TestSupport.write("{}\n", to: root + "/rentals/b.json")
        let listed = try FolderFiles.below(root)
        TestSupport.write("mine\n", to: root + "/rentals/notes.txt")

        FolderFiles.remove(listed + ["../escape", "/etc/hostname"], below: root)
        #expect(TestSupport.tree(root).keys.sorted() == ["rentals/notes.txt"])
    }

    /// Every file below the folder, at any depth, hidden ones and links included; a link to a folder is listed, not
    /// followed.
    @Test func everyFileBelowIsListedAndNoLinkFollowed() throws {
        let root = TestSupport.temporaryFolder(), outside = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(root); TestSupport.removeTree(outside) }
        TestSupport.write("{}\n", to: root + "/index.json")
        TestSupport.write("{}\n", to: root + "/cleaners/.a.json.part")
        TestSupport.write("{}\n", to: root + "/cleaners/page/2/index.json")
        TestSupport.write("theirs\n", to: outside + "/secret.txt")
        #expect(mkdir(root + "/empty", 0o755) == 0)
        try FileManager.default.createSymbolicLink(atPath: root + "/cleaners/away", withDestinationPath: outside)
        try FileManager.default.createSymbolicLink(atPath: root + "/note", withDestinationPath: outside + "/secret.txt")

        #expect(Set(try FolderFiles.below(root)) == ["index.json", "cleaners/.a.json.part", "cleaners/page/2/index.json", "cleaners/away", "note"])
        #expect(try FolderFiles.below(root).count == 5)
    }

    /// Only a folder that is not there holds nothing. A link to a folder, or a file, at its name cannot be opened as
    /// the folder, and is said so, not listed as empty: a check for files someone else put there took it for a folder
    /// holding nothing of theirs.
    @Test func aFolderThatCannotBeOpenedIsNotTakenForAnEmptyOne() throws {
        let place = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(place) }
        TestSupport.write("theirs\n", to: place + "/folder/notes.txt")
        TestSupport.write("theirs\n", to: place + "/a-file")
        try FileManager.default.createSymbolicLink(atPath: place + "/link", withDestinationPath: place + "/folder")

        #expect(try FolderFiles.below(place + "/missing").isEmpty && FolderFiles.below(place + "/missing/deeper").isEmpty)
        // Linux answers ENOTDIR for both (O_DIRECTORY, the link not followed); another system may say ELOOP for the link.
        for root in [place + "/link", place + "/a-file"] {
            #expect("\(root)") { try FolderFiles.below(root) } throws: { error in
                guard let failure = error as? FileFailure else { return false }
                return failure.path == root && [ENOTDIR, ELOOP].contains(failure.code)
            }
        }
    }
}
