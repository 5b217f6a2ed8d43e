import Foundation

/// The staging folder a build made or took up, held open while the build writes into it. Its files are reached
/// through the open folder (`HeldFolder`), not through its name, and without following a symbolic link below it:
/// a folder or link that someone puts at that name while the build runs (`mv .public.staging x; ln -s ~
/// .public.staging`), or at the name of a folder inside it (`.public.staging/cleaners`), never has a file written,
/// linked or removed in it; and the swap refuses a name that no longer leads to the folder the build wrote.
/// What is left: the swap and the removal after a failed build go by name, right after checking that the name
/// leads here; a file system mounted on a folder inside it (which takes root) is written into; and the checks
/// before a build (`OwnedFolders`) and whether an earlier staging folder holds someone's files
/// (`StagedOutput.keptAside`) read by name, so a file put there between that look and its removal is removed.
final class StagingFolder: Sendable {
    /// The folder's name beside the output folder: `site/.public.staging`.
    let name: String
    /// The folder, held open: every file the build writes, links or removes in it goes through this.
    let files: HeldFolder

    /// Opens the folder at `name`; nil when there is none there (a link to one is not one), and an error when
    /// there is one that cannot be opened.
    init?(_ name: String) throws(WriteError) {
        // A link met in it stops the build, which then removes the folder or sets it aside with a warning.
        guard let files = try HeldFolder(opening: name, whenLinkMet: "nothing was published; build again") else { return nil }
        self.name = name
        self.files = files
    }

    /// Makes the folder at `name`, which must not be there yet, and opens it.
    static func make(_ name: String) throws(WriteError) -> StagingFolder {
        guard mkdir(name, 0o755) == 0 else {
            if errno == EEXIST {
                throw WriteError(message: "\(name), left by an earlier build, could not be removed (look there for a folder without write permission, or an immutable file)")
            }
            throw WriteError(message: "cannot create a folder in \(StagedOutput.parentFolder(of: name)) (\(String(cString: strerror(errno))))")
        }
        guard let folder = try StagingFolder(name) else { throw WriteError(message: "\(name) was replaced as soon as it was made") }
        return folder
    }

    /// Whether `name` still leads to this folder, not to another put there since it was opened.
    var isAtItsName: Bool { isAt(name) }

    /// Whether `path` is this folder (a link to it is not).
    func isAt(_ path: String) -> Bool {
        var atPath = stat(), held = stat()
        return lstat(path, &atPath) == 0 && fstat(files.descriptor, &held) == 0 && atPath.st_dev == held.st_dev && atPath.st_ino == held.st_ino
    }

    /// Takes out the marks a build puts in while it writes the folder (`OwnedFolders`): it is an earlier output
    /// again, or about to be the output.
    func unmark() throws(WriteError) {
        for marker in [OwnedFolders.stagingMarker] + OwnedFolders.updateFiles {
            guard try files.unlink(marker) || errno == ENOENT else { throw WriteError(path: name + "/" + marker) }
        }
    }

    /// Refuses to go on when something else is at the folder's name.
    func checkAtItsName() throws(WriteError) {
        guard !isAtItsName else { return }
        throw WriteError(message: "\(name) was moved or replaced while the build wrote into it; nothing was published, and what is there now was not touched")
    }

    /// Removes the folder after a failed write (`StagedOutput.removeStaging`) when its name still leads to it;
    /// what is at the name otherwise is someone else's, and stays.
    @discardableResult
    func removeAfterFailure() -> KeptAside? {
        isAtItsName ? StagedOutput.removeStaging(name) : nil
    }
}
