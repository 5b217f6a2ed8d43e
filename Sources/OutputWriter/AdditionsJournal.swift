import Foundation
import PathJournal

/// The paths a build notes in a folder it writes before it writes their files (`OwnedFolders.additionsJournal`):
/// in a staging folder made anew, every file; in an earlier output brought up to date, those its manifest does not
/// list. A build killed half-way so leaves what tells its files from any that someone put in the folder after
/// (`StagedOutput.keptAside`).
extension PathJournal {
    /// Opens the journal of the folder `root`, made when missing, beneath it (`HeldFolder`).
    static func additions(in root: HeldFolder) throws(WriteError) -> PathJournal {
        let path = root.name + "/" + OwnedFolders.additionsJournal
        let descriptor = try root.open(OwnedFolders.additionsJournal, O_WRONLY | O_APPEND | O_CREAT, mode: 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path) }
        return PathJournal(descriptor: descriptor, path: path)
    }

    /// `note(paths)`, failing as the writer does.
    func noteAdditions(_ paths: some Sequence<String>) throws(WriteError) {
        do {
            try note(paths)
        } catch {
            throw WriteError(error)
        }
    }

    /// The paths noted in the folder at `root`; nil when it has no journal. Throws when its journal cannot be read.
    static func additions(notedIn root: String) throws(WriteError) -> Set<String>? {
        do throws(FileFailure) {
            return try paths(at: root + "/" + OwnedFolders.additionsJournal)
        } catch {
            throw WriteError(error)
        }
    }
}

extension WriteError {
    init(_ failure: FileFailure) {
        self.init(message: failure.description)
    }
}
