import Foundation

/// The staging folder a build made or took up, held open while the build writes into it. Its files are reached
/// through the open folder (`/proc/self/fd/N/…`), not through its name, so a folder or link that someone puts at
/// that name while the build runs (`mv .public.staging x; ln -s ~ .public.staging`) never has a file written,
/// linked or removed in it; and the swap refuses a name that no longer leads to the folder the build wrote.
/// (A folder inside it that is swapped for a link during the build is still followed; the checks before an
/// update, `StagedOutput.checkReplaceable`, see only the links there when it starts.)
final class StagingFolder: Sendable {
    /// The folder's name beside the output folder: `site/.public.staging`.
    let name: String
    /// Where its files are reached: `/proc/self/fd/N`, or `name` on a system without `/proc`.
    let path: String
    private let descriptor: Int32

    /// Nil when `name` is not a folder (a link to one is not).
    init?(_ name: String) {
        descriptor = open(name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        self.name = name
        let throughDescriptor = "/proc/self/fd/\(descriptor)"
        path = access(throughDescriptor + "/.", F_OK) == 0 ? throughDescriptor : name
    }

    deinit {
        close(descriptor)
    }

    /// Whether `name` still leads to this folder, not to another put there since it was opened.
    var isAtItsName: Bool {
        var atName = stat(), held = stat()
        return lstat(name, &atName) == 0 && fstat(descriptor, &held) == 0 && atName.st_dev == held.st_dev && atName.st_ino == held.st_ino
    }

    /// Refuses to go on when something else is at the folder's name.
    func checkAtItsName() throws(WriteError) {
        guard isAtItsName else {
            throw WriteError(message: "\(name) was moved or replaced while the build wrote into it; nothing was published, and what is there now was not touched")
        }
    }

    /// A write error as people should read it: the folder by its name, not by its descriptor.
    func named(_ error: WriteError) -> WriteError {
        guard path != name else { return error }
        return WriteError(message: error.message.replacingOccurrences(of: path + "/", with: name + "/"))
    }
}
