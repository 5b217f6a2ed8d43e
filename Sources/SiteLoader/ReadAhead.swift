import Foundation
import Synchronization

/// Asks the kernel to start reading files a little ahead of the threads that read them, in the order they
/// will be read (`posix_fadvise` with `POSIX_FADV_WILLNEED`, on a thread of its own). When the files are not
/// in the page cache, each reading thread would wait on the disk for one small file at a time; with the next
/// files' reads already asked for, the disk serves many at once. A file already cached costs an open and a
/// close.
public final class ReadAhead: Sendable {
    /// How many files the readers have started on.
    private let started = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    /// How far ahead of the readers it asks: enough to keep a disk's queue full, not so many that the files
    /// asked for first leave the cache before they are read.
    private static let window = 512

    /// Starts asking for `paths` (absolute), in order.
    public init(_ paths: [String]) {
        let thread = Thread { [self] in askForReads(of: paths) }
        thread.name = "noticeboard.read-ahead"
        thread.start()
    }

    /// A reader starts on the next file.
    public func readerStarted() {
        started.wrappingAdd(1, ordering: .relaxed)
    }

    /// Asks for no more files: the readers are done, or gave up.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func askForReads(of paths: [String]) {
        for (index, path) in paths.enumerated() {
            while index > started.load(ordering: .relaxed) + Self.window {
                guard !stopped.load(ordering: .relaxed) else { return }
                usleep(200)
            }
            guard !stopped.load(ordering: .relaxed) else { return }
            // Not following links, and not waiting on a named pipe: the walk found these as regular files.
            let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
            guard descriptor >= 0 else { continue }
            _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_WILLNEED)
            close(descriptor)
        }
    }
}
