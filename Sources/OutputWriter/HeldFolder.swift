import CLinuxCalls
import Foundation
import PathJournal

/// A folder held open whose entries are reached only beneath it. Every path it takes is relative to it (no `..`,
/// no empty part: `StagedOutput.isSafeRelativePath`, refused otherwise) and is resolved from the open folder, not from a name, without
/// following a symbolic link on the way or at its end: a folder inside it swapped for a link to somewhere else
/// while a build writes is refused, never written, linked, read or removed through. Files are opened with Linux's
/// `openat2` (`RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`, checked by the kernel as it resolves); they are made, linked,
/// renamed and removed with the `…at` calls in the folder that holds them, opened so, and those calls never follow
/// a link at the end of a path. Where the kernel has no `openat2` (Linux before 5.6, or a sandbox that forbids
/// it), each folder on the way is opened in turn with `O_NOFOLLOW` instead (`Resolution.folderByFolder`): two more
/// calls a folder (its open and close).
final class HeldFolder: Sendable {
    /// How the folder is named in messages: `site/.public.staging`.
    let name: String
    /// The open folder.
    let descriptor: Int32
    /// How paths beneath it are resolved; the folders opened from it resolve theirs so too.
    let resolution: Resolution
    /// What the refusal of a link met beneath it asks of the user; the folders opened from it ask the same.
    let whenLinkMet: String

    /// How a path beneath the folder is resolved without following a link.
    enum Resolution: Sendable, CaseIterable {
        /// By the kernel, in one call: `openat2` with `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`.
        case kernel
        /// A folder at a time, each opened with `O_NOFOLLOW`: where the kernel has no `openat2`.
        case folderByFolder

        /// `kernel` where the kernel has `openat2`, asked once.
        static let best: Resolution = {
            let probe = nb_open_within(AT_FDCWD, ".", O_RDONLY | O_DIRECTORY, 0)
            if probe >= 0 { close(probe) }
            return probe >= 0 || (errno != ENOSYS && errno != EPERM) ? .kernel : .folderByFolder
        }()
    }

    /// Opens the folder at `name`, not a link to one; nil when there is none there (a link to one is not one).
    init?(opening name: String, resolution: Resolution = .best, whenLinkMet: String = "remove it and build again") throws(WriteError) {
        descriptor = Foundation.open(name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor < 0 {
            guard [ENOENT, ENOTDIR, ELOOP].contains(errno) else { throw WriteError(path: name) }
            return nil
        }
        self.name = name
        self.resolution = resolution
        self.whenLinkMet = whenLinkMet
    }

    private init(descriptor: Int32, name: String, from parent: HeldFolder) {
        self.descriptor = descriptor
        self.name = name
        resolution = parent.resolution
        whenLinkMet = parent.whenLinkMet
    }

    deinit {
        close(descriptor)
    }

    /// Opens the file or folder at `path` as `open(2)` does with `flags` and `mode`; -1 when that fails for another
    /// reason than a link on the way (`errno` says why).
    func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(WriteError) -> Int32 {
        try checkBeneath(path)
        let opened = switch resolution {
        case .kernel: nb_open_within(descriptor, path, flags, UInt32(mode))
        case .folderByFolder: Self.walk(from: descriptor, to: path, flags, mode)
        }
        guard opened < 0 else { return opened }
        let failure = errno
        // `O_DIRECTORY` on a link, or the walk's `O_NOFOLLOW` on one on the way, says "Not a directory".
        if [ELOOP, EXDEV].contains(failure) || (failure == ENOTDIR && firstLink(on: path) != nil) { throw linkMet(on: path) }
        errno = failure
        return opened
    }

    /// Makes a new file at `path` (one there already is never opened, even a link: `O_EXCL`), open to write.
    func makeFile(_ path: String) throws(WriteError) -> Int32 {
        let opened = try open(path, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        guard opened >= 0 else { throw WriteError(path: name + "/" + path) }
        return opened
    }

    /// The bytes of the regular file at `path`; nil when it cannot be read.
    func contents(of path: String) throws(WriteError) -> [UInt8]? {
        let descriptor = try open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        return FileStamp.read(opened: descriptor, size: Int(info.st_size))?.bytes
    }

    /// The folder at `path`, held open in turn; nil when there is none (or something else is there).
    func folder(_ path: String) throws(WriteError) -> HeldFolder? {
        let opened = try open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
        return opened < 0 ? nil : HeldFolder(descriptor: opened, name: name + "/" + path, from: self)
    }

    /// What is at `path`, a link at its end not followed; nil when nothing is (nothing at its name, or a file where a
    /// folder on the way should be). Throws when that cannot be told (too many files open to reach its folder, no
    /// permission): taken for nothing there, a folder of the earlier output was taken for a file and removed whole,
    /// and the site published without its files.
    func status(_ path: String) throws(WriteError) -> stat? {
        var info = stat()
        guard try inParent(of: path, { fstatat($0, $1, &info, AT_SYMLINK_NOFOLLOW) }) != 0 else { return info }
        guard errno == ENOENT || errno == ENOTDIR else { throw WriteError(path: name + "/" + path) }
        return nil
    }

    /// `mkdir` at `path`; false when it fails, `errno` saying why (`EEXIST` when something is there).
    func makeFolder(_ path: String) throws(WriteError) -> Bool {
        try inParent(of: path) { mkdirat($0, $1, 0o755) } == 0
    }

    /// `unlink` at `path` (a link there is removed, not what it leads to); false when it fails, `errno` saying why.
    func unlink(_ path: String) throws(WriteError) -> Bool {
        try inParent(of: path) { unlinkat($0, $1, 0) } == 0
    }

    /// `rmdir` at `path`; false when it fails (a folder that is not empty), `errno` saying why.
    func removeFolder(_ path: String) throws(WriteError) -> Bool {
        try inParent(of: path) { unlinkat($0, $1, AT_REMOVEDIR) } == 0
    }

    /// `rename` from `path` to `newPath`, both below this folder; false when it fails, `errno` saying why.
    func rename(_ path: String, to newPath: String) throws(WriteError) -> Bool {
        guard let from = try parent(of: path) else { return false }
        defer { from.close() }
        guard let to = try parent(of: newPath) else { return false }
        defer { to.close() }
        return renameat(from.descriptor, from.last, to.descriptor, to.last) == 0
    }

    /// A hard link at `path` to the file at `existing` below `source`; false when it fails, `errno` saying why
    /// (`EXDEV` for folders on two file systems). Only a plain file is linked: a symbolic link at `existing` (which
    /// `linkat` links as a link) is taken out again, and refused as one met on the way is.
    func link(_ path: String, to existing: String, in source: HeldFolder) throws(WriteError) -> Bool {
        guard let from = try source.parent(of: existing) else { return false }
        defer { from.close() }
        guard let to = try parent(of: path) else { return false }
        defer { to.close() }
        return try Self.link(at: to, to: from, existing: existing, in: source)
    }

    /// `link(_:to:in:)` between the folders that hold the two files, opened: a link at `destination` to `existing`.
    static func link(at to: Parent, to from: Parent, existing: String, in source: HeldFolder) throws(WriteError) -> Bool {
        guard linkat(from.descriptor, from.last, to.descriptor, to.last, 0) == 0 else { return false }
        var linked = stat()
        guard fstatat(to.descriptor, to.last, &linked, AT_SYMLINK_NOFOLLOW) == 0, linked.st_mode & S_IFMT != S_IFREG else { return true }
        unlinkat(to.descriptor, to.last, 0)
        throw source.linkMet(on: existing)
    }

    /// Removes the folder at `path` with everything in it, reached through the folders it holds, opened in turn;
    /// false when something in it could not be removed, `errno` saying why.
    func removeTree(_ path: String) throws(WriteError) -> Bool {
        guard let tree = try folder(path) else { return false }
        for entry in try tree.entries() {
            if try tree.unlink(entry) { continue }
            guard errno == EISDIR, try tree.removeTree(entry) else { return false }
        }
        return try removeFolder(path)
    }

    /// The names in this folder, `.` and `..` left out. Throws when it cannot be read through (too many files open, a
    /// failing disk): a part taken for the whole would be a folder that looks emptier than it is.
    func entries() throws(WriteError) -> [String] {
        let listed = dup(descriptor)
        guard listed >= 0 else { throw WriteError(path: name) }
        guard let stream = fdopendir(listed) else {
            let failure = errno
            close(listed)
            errno = failure
            throw WriteError(path: name)
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var names: [String] = []
        do throws(FileFailure) {
            try FolderFiles.forEachEntry(of: stream, in: name) { _, name in names.append(name) }
        } catch {
            throw WriteError(error)
        }
        return names
    }

    /// Runs `call` with the folder that holds `path` and the last part of `path`; returns what it returns (-1 when
    /// that folder cannot be opened), `errno` as it left it.
    private func inParent(of path: String, _ call: (Int32, String) -> Int32) throws(WriteError) -> Int32 {
        guard let parent = try parent(of: path) else { return -1 }
        defer { parent.close() }
        return call(parent.descriptor, parent.last)
    }

    /// The folder that holds `path`, opened beneath this one (this one, for a name at its top), and the last part
    /// of `path`; nil when it cannot be opened, `errno` saying why.
    func parent(of path: String) throws(WriteError) -> Parent? {
        try checkBeneath(path)
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return Parent(descriptor: descriptor, last: path, isOpened: false) }
        let opened = try open(String(path[..<slash]), O_RDONLY | O_DIRECTORY)
        return opened < 0 ? nil : Parent(descriptor: opened, last: String(path[path.utf8.index(after: slash)...]), isOpened: true)
    }

    /// A folder that holds a file, and the file's name in it.
    struct Parent {
        let descriptor: Int32
        let last: String
        let isOpened: Bool

        /// Closes the folder if it was opened for this, `errno` left as it was.
        func close() {
            guard isOpened else { return }
            let failure = errno
            Foundation.close(descriptor)
            errno = failure
        }
    }

    /// Refuses a path that is not a relative one down from this folder (`StagedOutput.isSafeRelativePath`): one read
    /// from a record could name `..`, which the walk without `openat2` would follow up and out.
    func checkBeneath(_ path: String) throws(WriteError) {
        guard !StagedOutput.isSafeRelativePath(path) else { return }
        throw WriteError(message: "\(name): a build does not reach '\(path)' below it (an empty, '.' or '..' part, or an absolute path)")
    }

    /// The refusal when the folders on the way to `path` do not all stay folders below this one: a link met.
    func linkMet(on path: String) -> WriteError {
        WriteError(message: "\(name)/\(firstLink(on: path) ?? path) is a symbolic link, which no build makes; the build did not follow it: \(whenLinkMet)")
    }

    /// The first of the folders on the way to `path`, or `path` itself, that is a symbolic link; nil when none is.
    private func firstLink(on path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        var info = stat()
        return (1...parts.count).lazy.map { parts.prefix($0).joined(separator: "/") }.first { prefix in
            fstatat(self.descriptor, prefix, &info, AT_SYMLINK_NOFOLLOW) == 0 && (info.st_mode & S_IFMT) == S_IFLNK
        }
    }

    /// Opens each folder on the way to `path` with `O_NOFOLLOW`, then `path`'s last part with it too.
    private static func walk(from folder: Int32, to path: String, _ flags: Int32, _ mode: mode_t) -> Int32 {
        var current = folder
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for part in parts.dropLast() {
            let next = openat(current, String(part), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let failure = errno
            if current != folder { close(current) }
            guard next >= 0 else {
                errno = failure
                return -1
            }
            current = next
        }
        let opened = openat(current, String(parts.last ?? ""), flags | O_NOFOLLOW | O_CLOEXEC, mode)
        let failure = errno
        if current != folder { close(current) }
        errno = failure
        return opened
    }
}
