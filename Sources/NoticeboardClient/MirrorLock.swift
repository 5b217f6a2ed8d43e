import Foundation

/// A sync's hold on its mirror folder, for the length of the sync: `flock` on the folder itself, so it leaves
/// no file behind and the kernel lets go when the process ends in any way. Two syncs into one folder (an
/// app's background refresh and a pull to refresh) would make their snapshots in the same `incoming/`, and
/// the second to finish would put a part of one in place of the whole; the second waits instead, then finds
/// the mirror as the first left it.
final class MirrorLock: Sendable {
    private let descriptor: Int32
    /// The folders the lock's take made, outermost first (the mirror's own last, when it was missing).
    let madeFolders: [String]

    private init(descriptor: Int32, madeFolders: [String]) {
        self.descriptor = descriptor
        self.madeFolders = madeFolders
    }

    /// Takes the lock on `folder` (made when missing, with the folders above it), first calling `waiting` if
    /// another sync holds it. Waits by trying again, so a waiting task holds no thread. The lock is on the
    /// folder at that path when it is taken: a sync that failed in a folder it made removes the folder (unless it
    /// holds files no sync wrote), and a sync that waited on it locks the one made at the path after it instead.
    static func take(_ folder: URL, waiting: @Sendable () -> Void) async throws -> MirrorLock {
        var told = false
        while true {
            let missing = missingFolders(folder.path)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard descriptor >= 0 else { throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: folder.path]) }
            let lock = MirrorLock(descriptor: descriptor, madeFolders: missing.reversed())
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                guard errno == EWOULDBLOCK || errno == EINTR else { throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: folder.path]) }
                if !told { waiting() }
                told = true
                try await Task.sleep(nanoseconds: 50_000_000)
            }
            if lock.holds(folder.path) { return lock }
        }
    }

    /// `path` and the folders above it that do not exist, innermost first.
    private static func missingFolders(_ path: String) -> [String] {
        var missing: [String] = []
        var folder = path
        var info = stat()
        while !folder.isEmpty, folder != "/", lstat(folder, &info) != 0, errno == ENOENT {
            missing.append(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        return missing
    }

    /// Whether the locked folder is the one at `path` now.
    private func holds(_ path: String) -> Bool {
        var locked = stat(), there = stat()
        return fstat(descriptor, &locked) == 0 && stat(path, &there) == 0 && locked.st_dev == there.st_dev && locked.st_ino == there.st_ino
    }

    /// Removes the folders the take made, innermost first, each only when it is empty.
    func removeMadeFolders() {
        for folder in madeFolders.reversed() where rmdir(folder) != 0 { return }
    }

    deinit {
        close(descriptor)  // lets go of the lock
    }
}
