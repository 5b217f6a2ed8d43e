import Foundation

/// The staging folder a build made or took up, held open while the build writes into it. Its files are reached
/// through the open folder (`/proc/self/fd/N/…`), not through its name, so a folder or link that someone puts at
/// that name while the build runs (`mv .public.staging x; ln -s ~ .public.staging`) never has a file written,
/// linked or removed in it; and the swap refuses a name that no longer leads to the folder the build wrote.
/// What is left: a folder inside it swapped for a link during the build is still followed (the checks before an
/// update, `StagedOutput.checkReplaceable`, see only the links there when it starts); the swap and the removal
/// after a failed build go by name, right after checking that the name leads here; and without `/proc` the
/// files are reached by name, which the swap's refusal then says.
final class StagingFolder: Sendable {
    /// The folder's name beside the output folder: `site/.public.staging`.
    let name: String
    /// Where its files are reached: `/proc/self/fd/N`, or `name` where that does not lead to this folder.
    let path: String
    private let descriptor: Int32

    /// Opens the folder at `name`; nil when there is none there (a link to one is not one), and an error when
    /// there is one that cannot be opened.
    init?(_ name: String) throws(WriteError) {
        descriptor = open(name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor < 0 {
            guard [ENOENT, ENOTDIR, ELOOP].contains(errno) else { throw WriteError(path: name) }
            return nil
        }
        self.name = name
        let throughDescriptor = "/proc/self/fd/\(descriptor)"
        var held = stat(), reached = stat()
        let isReached = fstat(descriptor, &held) == 0 && stat(throughDescriptor, &reached) == 0 && Self.same(held, reached)
        path = isReached ? throughDescriptor : name
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

    deinit {
        close(descriptor)
    }

    /// Whether `name` still leads to this folder, not to another put there since it was opened.
    var isAtItsName: Bool { isAt(name) }

    /// Whether `path` is this folder (a link to it is not).
    func isAt(_ path: String) -> Bool {
        var atPath = stat(), held = stat()
        return lstat(path, &atPath) == 0 && fstat(descriptor, &held) == 0 && Self.same(atPath, held)
    }

    /// Takes out the marks a build puts in while it writes the folder (`OwnedFolders`): it is an earlier output
    /// again, or about to be the output.
    func unmark() throws(WriteError) {
        for marker in [OwnedFolders.stagingMarker] + OwnedFolders.updateFiles {
            guard unlink(path + "/" + marker) == 0 || errno == ENOENT else { throw WriteError(path: name) }
        }
    }

    /// Refuses to go on when something else is at the folder's name.
    func checkAtItsName() throws(WriteError) {
        guard !isAtItsName else { return }
        let touched = path == name
            ? "this system has no /proc, so the build wrote through the name, into what is there now"
            : "what is there now was not touched"
        throw WriteError(message: "\(name) was moved or replaced while the build wrote into it; nothing was published, and \(touched)")
    }

    /// Removes the folder after a failed write (`StagedOutput.removeStaging`) when its name still leads to it;
    /// what is at the name otherwise is someone else's, and stays.
    @discardableResult
    func removeAfterFailure() -> KeptAside? {
        isAtItsName ? StagedOutput.removeStaging(name) : nil
    }

    /// A write error as people should read it: the folder by its name, not by its descriptor.
    func named(_ error: WriteError) -> WriteError {
        guard path != name else { return error }
        return WriteError(message: error.message.replacingOccurrences(of: path + "/", with: name + "/"))
    }

    private static func same(_ one: stat, _ other: stat) -> Bool {
        one.st_dev == other.st_dev && one.st_ino == other.st_ino
    }
}
