import Foundation

/// What a folder holds, for the checks that look for files someone else put in a folder a command fills, and the
/// removal of a command's own files from it.
public enum FolderFiles {
    /// Every file below `root` (anything not a folder, links included), relative to it; none when nothing is at
    /// `root`. Throws when `root` cannot be opened as a folder (it is a link, a file, or a folder without
    /// permission, or too many files are open), or a folder in it cannot be read through (a failing disk): it may hold
    /// anything, which a check for files someone else put there must not take for nothing.
    public static func below(_ root: String) throws(FileFailure) -> [String] {
        try entries(below: root, folders: false)
    }

    /// The names in `folder` (a link to one followed, as `ls` does), `.` and `..` left out; none when no folder is
    /// there (nothing, or a file, which the caller tells by its kind). Throws when one is there but cannot be listed
    /// whole (too many files open, a failing disk): what it holds is not known.
    public static func names(in folder: String) throws(FileFailure) -> [String] {
        guard let stream = opendir(folder) else {
            let failure = errno
            guard failure == ENOENT || failure == ENOTDIR else { throw FileFailure(path: folder, code: failure) }
            return []
        }
        defer { closedir(stream) }
        var names: [String] = []
        try forEachEntry(of: stream, in: folder) { _, name in names.append(name) }
        return names
    }

    /// Calls `body` with each entry of the open folder `stream` (at `path`, for the error) and its name, `.` and `..`
    /// left out. Throws when `readdir` fails part-way, which returns NULL as at the end: the entries it did not
    /// return may be anything.
    public static func forEachEntry(
        of stream: OpaquePointer, in path: String, _ body: (UnsafeMutablePointer<dirent>, String) throws(FileFailure) -> Void
    ) throws(FileFailure) {
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                guard errno == 0 else { throw FileFailure(path: path, code: errno) }
                return
            }
            let name = name(of: entry)
            if name != ".", name != ".." { try body(entry, name) }
        }
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
        // A root that cannot be opened lists no folder to remove, and `rmdir` takes it only when it is empty.
        let folders = (try? entries(below: root, folders: true)) ?? []
        // Deepest first: a folder's path is longer than its parent's.
        for folder in folders.sorted(by: { $0.utf8.count > $1.utf8.count }) {
            _ = beneath.remove(folder, isFolder: true)
        }
        rmdir(root)
    }

    /// The folders below `root`, or everything else there, relative to it, each folder before what it holds; links
    /// are not followed. Read with `readdir` (hand-written: Foundation's enumerator reads every entry's attributes,
    /// its owner's and group's names among them, some 16 system calls a file where this makes one a folder). Only a
    /// root that is not there holds nothing; one that cannot be opened for any other reason throws, as does a folder
    /// that `readdir` fails in part-way.
    private static func entries(below root: String, folders: Bool) throws(FileFailure) -> [String] {
        let top = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard top >= 0 else {
            let failure = errno
            guard failure == ENOENT else { throw FileFailure(path: root, code: failure) }
            return []
        }
        var found: [String] = []
        try collect(top, at: "", below: root, folders: folders, into: &found)
        return found
    }

    /// Adds the entries of the open folder `descriptor`, which is at `prefix` below `root`, then those of its folders
    /// in turn; closes it. A folder that cannot be opened is listed as what it is: one whose files are not known, which
    /// a check for files someone else put there takes for one of theirs. One that is open but cannot be read through
    /// (a failing disk) throws: the entries not read may be anything, and its name alone would not say which.
    private static func collect(_ descriptor: Int32, at prefix: String, below root: String, folders: Bool, into found: inout [String]) throws(FileFailure) {
        let path = prefix.isEmpty ? root : root + "/" + prefix.dropLast()
        guard let stream = fdopendir(descriptor) else {
            let failure = errno
            close(descriptor)
            throw FileFailure(path: path, code: failure)
        }
        defer { closedir(stream) }
        try forEachEntry(of: stream, in: path) { entry, name throws(FileFailure) in
            guard isFolder(name, type: entry.pointee.d_type, in: descriptor) else {
                if !folders { found.append(prefix + name) }
                return
            }
            let inner = openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if folders || inner < 0 { found.append(prefix + name) }
            if inner >= 0 { try collect(inner, at: prefix + name + "/", below: root, folders: folders, into: &found) }
        }
    }

    /// The name of a `readdir` entry, read up to its end: a record is only as long as its name, so the whole of
    /// `d_name` can run past the buffer that holds the last one.
    public static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafePointer(to: &entry.pointee.d_name) { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) }
    }

    /// Whether the entry `name` of the open folder `folder` is a folder (a link to one is not); `type` is its
    /// `d_type`, which some file systems leave unknown.
    private static func isFolder(_ name: String, type: UInt8, in folder: Int32) -> Bool {
        guard Int(type) == Int(DT_UNKNOWN) else { return Int(type) == Int(DT_DIR) }
        var info = stat()
        return fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }
}
