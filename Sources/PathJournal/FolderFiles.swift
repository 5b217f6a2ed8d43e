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
    /// with the folders above it. Each is reached from `root` held open, folder by folder, following no symbolic
    /// link: a folder swapped for a link since they were listed leads nowhere that is removed.
    public static func remove(_ files: [String], below root: String, emptiedFolders: Bool = true) {
        let top = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard top >= 0 else { return }
        defer { close(top) }
        for file in files { inParent(of: file, below: top) { unlinkat($0, $1, 0) } }
        guard emptiedFolders else { return }
        // Deepest first: a folder's path is longer than its parent's.
        for folder in entries(below: root, folders: true).sorted(by: { $0.utf8.count > $1.utf8.count }) {
            inParent(of: folder, below: top) { unlinkat($0, $1, AT_REMOVEDIR) }
        }
        rmdir(root)
    }

    /// Runs `call` with the folder that holds `path` below `top`, opened a folder at a time without following a link,
    /// and the last part of `path`; not at all when a folder on the way is not one, or `path` has an empty, `.` or
    /// `..` part.
    private static func inParent(of path: String, below top: Int32, _ call: (Int32, String) -> Int32) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.last, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return }
        var current = top
        for part in parts.dropLast() {
            let next = openat(current, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if current != top { close(current) }
            guard next >= 0 else { return }
            current = next
        }
        _ = call(current, last)
        if current != top { close(current) }
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
