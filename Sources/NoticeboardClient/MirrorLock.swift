import Foundation

/// A sync's hold on its mirror folder, for the length of the sync: `flock` on the folder itself, so it leaves
/// no file behind and the kernel lets go when the process ends in any way. Two syncs into one folder (an
/// app's background refresh and a pull to refresh) would make their snapshots in the same `incoming/`, and
/// the second to finish would put a part of one in place of the whole; the second waits instead, then finds
/// the mirror as the first left it.
final class MirrorLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock on `folder` (made when missing), first calling `waiting` if another sync holds it.
    /// Waits by trying again, so a waiting task holds no thread.
    static func take(_ folder: URL, waiting: @Sendable () -> Void) async throws -> MirrorLock {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoPermission, userInfo: [NSFilePathErrorKey: folder.path]) }
        let lock = MirrorLock(descriptor: descriptor)
        var told = false
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else { throw CocoaError(.fileLocking, userInfo: [NSFilePathErrorKey: folder.path]) }
            if !told { waiting() }
            told = true
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        return lock
    }

    deinit {
        close(descriptor)  // lets go of the lock
    }
}
