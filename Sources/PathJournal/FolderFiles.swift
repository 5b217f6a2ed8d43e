import Foundation

/// What a folder holds, for the checks that look for files someone else put in a folder a command fills, and the
/// removal of a command's own files from it.
public enum FolderFiles {
    /// Every file below `root` (anything not a folder, links included), relative to it.
    public static func below(_ root: String) -> [String] {
        entries(below: root, folders: false)
    }

    /// Removes `files` (relative to `root`) one by one and then, with `emptiedFolders`, each folder below `root`
    /// left empty and `root` itself: never a folder whole, so that a file put there since they were listed stays,
    /// with the folders above it. Each is reached from `root` a folder at a time, following no symbolic link
    /// (`FolderBeneath`, which holds the folders the last file was reached through open for the next): a folder
    /// swapped for a link since they were listed leads nowhere that is removed.
    public static func remove(_ files: [String], below root: String, emptiedFolders: Bool = true) {
        let beneath = FolderBeneath(root)
        for file in files { _ = beneath.remove(file, isFolder: false) }
        guard emptiedFolders else { return }
        // Deepest first: a folder's path is longer than its parent's.
        for folder in entries(below: root, folders: true).sorted(by: { $0.utf8.count > $1.utf8.count }) {
            _ = beneath.remove(folder, isFolder: true)
        }
        beneath.release()
        rmdir(root)
    }

    /// The folders below `root`, or everything else there, relative to it; links are not followed.
    private static func entries(below root: String, folders: Bool) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let name = walk.nextObject() as? String {
            if (walk.fileAttributes?[.type] as? FileAttributeType == .typeDirectory) == folders { found.append(name) }
        }
        return found
    }
}
