import Foundation

/// Files written into, linked into or removed from a folder a command fills (sync's `incoming/`, a snapshot it
/// replaces), each reached from the folder opened by its name, a folder at a time, without following a symbolic link:
/// a folder inside it swapped for a link to somewhere else is refused, never written, linked or removed through.
/// Portable (`openat`, `fstatat` and `O_NOFOLLOW`), so the client links it on iOS too.
///
/// The folders reached last stay open for the files that share them (a sync links tens of thousands of files in
/// path order, most of them into a few folders): `root`, and each folder on the way to the last file's, until
/// `release()`. A folder held is used again only once it is checked to be still the folder at its name, as
/// `lstat` sees it (`fstatat` with `AT_SYMLINK_NOFOLLOW`: `root` by its path, each folder below by its name in the
/// held folder above it; the same device and inode, and a folder); otherwise it, and those held below it, are closed
/// and reached anew as the first time, so a link there is refused. The check is what keeps a held descriptor from
/// writing outside the folder: a descriptor follows its folder wherever it is renamed, so a folder of `incoming/`
/// moved out of the mirror with a link or another folder left at its name would, through a descriptor used
/// unchecked, take every file written after the swap with it (writes outside the mirror; a snapshot published
/// without them). Checked, each file goes into a folder that was at its path, reached with no link, an instant
/// before, as when every folder was opened anew for every file (a folder moved between the check and the write is
/// the race of one moved between that `openat` and the write). The check costs one `fstatat` a level, where
/// opening anew cost an `open` and a `close` a level and one more pair for `root`.
public final class FolderBeneath: @unchecked Sendable {
    public let root: String
    /// Guards `held`: a sync writes the files it fetches from several tasks at once.
    private let lock = NSLock()
    /// `root` first, then the folder at each part of the last path reached, each open.
    private var held: [Held] = []

    private struct Held {
        /// `root`'s path, or the folder's name in the one held above it.
        let name: String
        let descriptor: Int32
        let device: dev_t
        let inode: ino_t
    }

    public init(_ root: String) {
        self.root = root
    }

    deinit {
        for folder in held { close(folder.descriptor) }
    }

    /// Closes the folders held open; a later call reaches them anew.
    public func release() {
        lock.lock()
        defer { lock.unlock() }
        closeHeld(from: 0)
    }

    /// Writes `data` as a new file at `path`: under the temporary name `temporary` (in the same folder, removed
    /// first: an interrupted write's), made anew, then renamed into place. The folders on the way are made.
    public func write(_ data: Data, at path: String, temporary: String) throws(FileFailure) {
        try inParent(of: path, making: true) { folder, last throws(FileFailure) in
            unlinkat(folder, temporary, 0)
            let file = openat(folder, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard file >= 0 else { throw FileFailure(path: root + "/" + path, code: errno) }
            let written = data.withUnsafeBytes { Descriptor.writeAll($0, to: file) }
            let failure = errno
            close(file)
            guard written else { throw FileFailure(path: root + "/" + path, code: failure) }
            guard renameat(folder, temporary, folder, last) == 0 else { throw FileFailure(path: root + "/" + path, code: errno) }
        }
    }

    /// A hard link at `path` to the file at `sourcePath` beneath `source` (another folder, whose files are reached as
    /// this one's are); false when that is not a plain file reached with no link on the way, or the link cannot be
    /// made. The link is made from the folder that holds the file, by name, so no link put on the way after the check
    /// is followed. What is at `path` is replaced (removed when the link finds it there). The folders on the way are made.
    public func link(_ path: String, toFileAt sourcePath: String, beneath source: FolderBeneath) throws(FileFailure) -> Bool {
        precondition(source !== self, "a folder's files are linked from another folder")
        // `source`'s lock, then this one's: the only order in which two are taken. A source not reached is a false;
        // a failure to reach the folder the link goes in is thrown.
        let linked = try? source.inParent(of: sourcePath, making: false) { from, name -> Result<Bool, FileFailure> in
            var info = stat()
            guard fstatat(from, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return .success(false) }
            return Result { () throws(FileFailure) in
                try inParent(of: path, making: true) { folder, last in
                    if linkat(from, name, folder, last, 0) == 0 { return true }
                    guard errno == EEXIST else { return false }
                    unlinkat(folder, last, 0)
                    return linkat(from, name, folder, last, 0) == 0
                }
            }
        }
        return try linked?.get() ?? false
    }

    /// Removes the file, or with `isFolder` the empty folder, at `path`; false when it is not there, or not reached.
    func remove(_ path: String, isFolder: Bool) -> Bool {
        (try? inParent(of: path, making: false) { unlinkat($0, $1, isFolder ? AT_REMOVEDIR : 0) == 0 }) == true
    }

    /// Runs `body` with the folder that holds `path`, reached from `root` a folder at a time without following a link
    /// (`making`: each made where missing), and `path`'s last part; the folders held are used again where they are
    /// still at their names.
    private func inParent<T>(
        of path: String, making: Bool, _ body: (Int32, String) throws(FileFailure) -> T
    ) throws(FileFailure) -> T {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.last, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw FileFailure(path: root + "/" + path, code: EINVAL)
        }
        lock.lock()
        defer { lock.unlock() }
        if held.isEmpty || !Self.isStill(held[0], in: AT_FDCWD) {
            closeHeld(from: 0)
            held.append(try Self.open(root, in: AT_FDCWD, reached: root))
        }
        var reached = root
        for (index, part) in parts.dropLast().enumerated() {
            reached += "/" + part
            let level = index + 1
            if level < held.count {
                if held[level].name == part, Self.isStill(held[level], in: held[index].descriptor) { continue }
                closeHeld(from: level)
            }
            if making { mkdirat(held[index].descriptor, part, 0o755) }
            held.append(try Self.open(part, in: held[index].descriptor, reached: reached))
        }
        return try body(held[parts.count - 1].descriptor, last)
    }

    /// Whether `folder` is still the folder at its name in `parent`, as `lstat` sees it.
    private static func isStill(_ folder: Held, in parent: Int32) -> Bool {
        var info = stat()
        return fstatat(parent, folder.name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFDIR
            && info.st_dev == folder.device && info.st_ino == folder.inode
    }

    /// The folder at `name` in `parent`, opened without following a link; `reached` names it in errors.
    private static func open(_ name: String, in parent: Int32, reached: String) throws(FileFailure) -> Held {
        let descriptor = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileFailure(path: reached, code: errno) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let failure = errno
            close(descriptor)
            throw FileFailure(path: reached, code: failure)
        }
        return Held(name: name, descriptor: descriptor, device: info.st_dev, inode: info.st_ino)
    }

    private func closeHeld(from index: Int) {
        guard index < held.count else { return }
        for folder in held[index...] { close(folder.descriptor) }
        held.removeSubrange(index...)
    }
}
