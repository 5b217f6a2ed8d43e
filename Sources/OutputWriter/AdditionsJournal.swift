import PathJournal

/// The paths a build notes in a folder it writes before it writes their files (`OwnedFolders.additionsJournal`):
/// in a staging folder made anew, every file; in an earlier output brought up to date, those its manifest does not
/// list. A build killed half-way so leaves what tells its files from any that someone put in the folder after
/// (`StagedOutput.keptAside`).
extension PathJournal {
    /// Opens the journal of the folder at `root`, made when missing.
    static func additions(in root: String) throws(WriteError) -> PathJournal {
        do {
            return try PathJournal(at: root + "/" + OwnedFolders.additionsJournal)
        } catch {
            throw WriteError(error)
        }
    }

    /// `note(paths)`, failing as the writer does.
    func noteAdditions(_ paths: some Sequence<String>) throws(WriteError) {
        do {
            try note(paths)
        } catch {
            throw WriteError(error)
        }
    }

    /// The paths noted in the folder at `root`; nil when it has no journal.
    static func additions(notedIn root: String) -> Set<String>? {
        paths(at: root + "/" + OwnedFolders.additionsJournal)
    }
}

extension WriteError {
    init(_ failure: FileFailure) {
        self.init(message: failure.description)
    }
}
