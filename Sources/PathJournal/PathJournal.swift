import Foundation

/// A file of paths noted before their files are written (each ended by a NUL byte), held open while a folder is
/// filled. Whoever finds the folder after a kill tells what was put there for it from what someone else put
/// there since: the generator's staging folder (`.noticeboard-updating.added`) and a mirror's `incoming/`
/// (`.noticeboard-incoming`) keep one.
public final class PathJournal: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Opens the journal at `path`, made when missing.
    public init(at path: String) throws(FileFailure) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FileFailure(path: path, code: errno) }
    }

    /// The journal open at `descriptor` (for appending), which it closes; `path` names it in errors.
    public init(descriptor: Int32, path: String) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Notes `paths`, in one write.
    public func note(_ paths: some Sequence<String>) throws(FileFailure) {
        var entries: [UInt8] = []
        for path in paths {
            entries += path.utf8
            entries.append(0)
        }
        guard entries.withUnsafeBytes({ Descriptor.writeAll($0, to: descriptor) }) else { throw FileFailure(path: path, code: errno) }
    }

    /// The paths the journal at `path` notes; nil when there is none. Throws when one is there but cannot be read
    /// (a link, which no journal is; no permission; too many files open): taken for none, its folder would be taken
    /// for one a version before journals filled, whose files are all its own.
    public static func paths(at path: String) throws(FileFailure) -> Set<String>? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else {
            guard errno == ENOENT else { throw FileFailure(path: path, code: errno) }
            return nil
        }
        defer { close(descriptor) }
        guard let journal = Descriptor.readAll(descriptor) else { throw FileFailure(path: path, code: errno) }
        return Set(journal.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }
}
