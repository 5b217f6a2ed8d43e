import Foundation

/// The journal of the incoming snapshot (`MirrorFolder.incomingJournalName`), held open while a sync fills it: the
/// path of each file a sync puts there, noted before the file (each ended by a NUL byte), so that only those are
/// taken for a sync's when one that was cut short is finished.
final class IncomingJournal: Sendable {
    private let descriptor: Int32

    /// Opens the journal at `path`, made when missing.
    init(at path: String) throws {
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    deinit {
        close(descriptor)
    }

    /// Notes `paths` (relative to the snapshot), in one write.
    func note(_ paths: some Sequence<String>) throws {
        var entries: [UInt8] = []
        for path in paths {
            entries += path.utf8
            entries.append(0)
        }
        var written = 0
        while written < entries.count {
            let result = entries.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if result < 0, errno == EINTR { continue }
            guard result > 0 else { throw CocoaError(.fileWriteUnknown) }
            written += result
        }
    }

    /// The paths the journal at `path` notes; nil when there is none.
    static func paths(at path: String) -> Set<String>? {
        guard let journal = FileManager.default.contents(atPath: path) else { return nil }
        return Set(journal.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }
}
