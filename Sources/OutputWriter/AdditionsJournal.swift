import Foundation

/// The paths a build notes in a folder it writes before it writes their files (`OwnedFolders.additionsJournal`,
/// each ended by a NUL byte): in a staging folder made anew, every file; in an earlier output brought up to date,
/// those its manifest does not list. A build killed half-way so leaves what tells its files from any that someone
/// put in the folder after (`StagedOutput.keptAside`).
final class AdditionsJournal: Sendable {
    private let descriptor: Int32
    private let path: String

    /// Opens the folder's journal, made when missing.
    init(in root: String) throws(WriteError) {
        path = root + "/" + OwnedFolders.additionsJournal
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path) }
    }

    deinit {
        close(descriptor)
    }

    /// Notes `paths`, in one write.
    func note(_ paths: some Sequence<String>) throws(WriteError) {
        var entries: [UInt8] = []
        for path in paths {
            entries += path.utf8
            entries.append(0)
        }
        guard entries.withUnsafeBytes({ StagedOutput.writeAll($0, to: descriptor) }) else { throw WriteError(path: path) }
    }

    /// The paths noted in the folder at `root`; nil when it has no journal.
    static func paths(in root: String) -> Set<String>? {
        guard let journal = FileManager.default.contents(atPath: root + "/" + OwnedFolders.additionsJournal) else { return nil }
        return Set(journal.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }
}
