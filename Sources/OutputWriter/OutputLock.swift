import Foundation
import SiteModel

/// An exclusive lock, for the length of a build, on the folder that holds the output folder: a second build
/// into the same place waits for the first to finish instead of racing it to the staging folder and the swap.
/// The lock is `flock` on the folder itself, so it leaves no file behind, and the kernel releases it when a
/// build ends in any way, SIGKILL included. Builds into sibling folders of one parent wait for each other too.
public final class OutputLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock, first calling `waiting` if another build holds it. The folder that holds the output
    /// is made when missing, as the output folder itself would be.
    public init(outputPath: String, waiting: () -> Void) throws(BuildFailure) {
        let parent = StagedOutput.parentFolder(of: outputPath)
        if let reason = Self.makeFolders(parent) {
            throw BuildFailure([.error("cannot write the site to \(outputPath)/: \(reason)")])
        }
        let descriptor = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw BuildFailure([.error("cannot write the site to \(outputPath)/: \(parent): \(String(cString: strerror(errno)))")])
        }
        if flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK else {
                let reason = String(cString: strerror(errno))
                close(descriptor)
                throw BuildFailure([.error("cannot lock \(parent) for the build: \(reason)")])
            }
            waiting()
            while flock(descriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    let reason = String(cString: strerror(errno))
                    close(descriptor)
                    throw BuildFailure([.error("cannot lock \(parent) for the build: \(reason)")])
                }
            }
        }
        self.descriptor = descriptor
    }

    /// Makes `path` and the folders above it that are missing, as `mkdir -p` does; nil, or why it could not.
    /// (FileManager's error would not say which part is in the way.) Only folders after the path's last `..`
    /// are made: one before it is not on the way to the output (`new/../public` would leave `new` behind).
    private static func makeFolders(_ path: String) -> String? {
        makeFolders(path, making: true)
    }

    /// Why `makeFolders` could not make `path`, found without making anything; nil when it could.
    static func missingFolderBeforeUp(_ path: String) -> String? {
        makeFolders(path, making: false)
    }

    private static func makeFolders(_ path: String, making: Bool) -> String? {
        let parts = path.split(separator: "/")
        let lastUp = parts.lastIndex(of: "..") ?? -1
        var prefix = path.hasPrefix("/") ? "/" : ""
        for (index, part) in parts.enumerated() {
            prefix += (prefix.isEmpty || prefix.hasSuffix("/") ? "" : "/") + part
            var info = stat()
            if stat(prefix, &info) == 0 {
                if (info.st_mode & S_IFMT) != S_IFDIR { return "\(prefix) is a file, not a folder" }
            } else if index < lastUp {
                return "\(prefix) does not exist, and the path leads back out of it with '..'"
            } else if making, mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                return "cannot create the folder \(prefix) (\(String(cString: strerror(errno))))"
            }
        }
        return nil
    }

    deinit {
        close(descriptor)  // releases the lock
    }
}
