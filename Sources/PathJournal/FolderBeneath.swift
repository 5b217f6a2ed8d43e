import Foundation

/// Files written into, or removed from, a folder a command fills (sync's `incoming/`), each reached from the folder opened by its name,
/// a folder at a time, without following a symbolic link: a folder inside it swapped for a link to somewhere else is
/// refused, never written or linked through. Portable (`openat` and `O_NOFOLLOW`), so the client links it on iOS too.
public struct FolderBeneath: Sendable {
    public let root: String

    public init(_ root: String) {
        self.root = root
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

    /// A hard link at `path` to the file at `source` (a path outside this folder, checked by the caller); false when
    /// it cannot be made. What is at `path` goes first. The folders on the way are made.
    public func link(_ path: String, to source: String) throws(FileFailure) -> Bool {
        try inParent(of: path, making: true) { folder, last throws(FileFailure) in
            unlinkat(folder, last, 0)
            return linkat(AT_FDCWD, source, folder, last, 0) == 0
        }
    }

    /// Removes the file, or with `isFolder` the empty folder, at `path`; false when it is not there, or not reached.
    func remove(_ path: String, isFolder: Bool) -> Bool {
        (try? inParent(of: path, making: false) { unlinkat($0, $1, isFolder ? AT_REMOVEDIR : 0) == 0 }) == true
    }

    /// Runs `body` with the folder that holds `path`, opened from `root` a folder at a time without following a
    /// link (`making`: each made where missing), and `path`'s last part.
    private func inParent<T>(
        of path: String, making: Bool, _ body: (Int32, String) throws(FileFailure) -> T
    ) throws(FileFailure) -> T {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        guard let last = parts.last, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else {
            throw FileFailure(path: root + "/" + path, code: EINVAL)
        }
        var current = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard current >= 0 else { throw FileFailure(path: root, code: errno) }
        defer { close(current) }
        var reached = root
        for part in parts.dropLast() {
            reached += "/" + part
            if making { mkdirat(current, part, 0o755) }
            let next = openat(current, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard next >= 0 else { throw FileFailure(path: reached, code: errno) }
            close(current)
            current = next
        }
        return try body(current, last)
    }
}
