import Foundation

/// Type, size and modification time of every entry below the folders a build reads, to tell cheaply whether
/// anything changed.
public struct InputStamps: Sendable, Equatable {
    /// Relative path → "type size mtime-nanoseconds", after "link <target>" for a symbolic link.
    public let stamps: [String: String]
    /// The stamps' digest, which the build record keeps to tell whether anything changed.
    public let digest: StampsDigest

    public init(stamps: [String: String]) {
        self.stamps = stamps
        digest = stamps.reduce(into: StampsDigest()) { $0.add(path: $1.key, stamp: $1.value) }
    }

    /// Every entry below the given folders of the site. Symbolic links count by where they point and what
    /// they point at, and named pipes and devices count too: the build refuses those that lead outside or
    /// cannot be read, and adding one after a good build must make the next build run and say so.
    public static func scan(_ files: SiteFiles, folders: [String]) -> InputStamps {
        var scanned = Scanned()
        for folder in folders { scan(files.absolute(folder), relative: folder, into: &scanned) }
        return InputStamps(scanned)
    }

    private init(_ scanned: Scanned) {
        stamps = Dictionary(scanned.entries, uniquingKeysWith: { $1 })
        digest = scanned.digest
    }

    public static func == (left: InputStamps, right: InputStamps) -> Bool {
        left.digest == right.digest && left.stamps == right.stamps
    }

    /// The stamps and their digest, made together while scanning. The stamps are listed, then put in a table
    /// of the right size at once: growing it entry by entry took a quarter of the scan at 430,000 files.
    private struct Scanned {
        var entries: [(path: String, stamp: String)] = []
        var digest = StampsDigest()

        mutating func record(_ path: String, _ stamp: String) {
            entries.append((path, stamp))
            digest.add(path: path, stamp: stamp)
        }
    }

    /// One folder's entries and those below it, links not followed. Each folder is read once and each entry
    /// looked up relative to it: this runs before every build, over tens of thousands of files on a large
    /// site, and walking with FileManager and then stat-ing whole paths took a third of a no-change rebuild.
    private static func scan(_ path: String, relative: String, into scanned: inout Scanned) {
        // An entry that cannot be read still counts, so that making it readable (or not) starts a build, which
        // reports it; a folder is only read when it can also be entered.
        guard access(path, R_OK | X_OK) == 0, let folder = opendir(path) else {
            scanned.record(relative, "unreadable \(errno)")
            return
        }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = SiteFiles.name(of: entry)
            if name == "." || name == ".." { continue }
            let entryRelative = relative + "/" + name
            var info = stat()
            guard fstatat(dirfd(folder), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                scanned.record(entryRelative, "unreadable \(errno)")
                continue
            }
            // The whole path only for what is followed: most entries are files.
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                scan(path + "/" + name, relative: entryRelative, into: &scanned)
            case S_IFLNK:
                let entryPath = path + "/" + name
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: entryPath)) ?? ""
                var resolved = stat()
                scanned.record(entryRelative, "link \(target) " + (stat(entryPath, &resolved) == 0 ? stamp(resolved) : "missing"))
            default:
                scanned.record(entryRelative, stamp(info))
            }
        }
    }

    /// Type, size, modification time and permissions (a file made unreadable must be read again, and fail).
    private static func stamp(_ info: stat) -> String {
        "\(info.st_mode & S_IFMT) \(info.st_size) \(info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec) \(info.st_mode & 0o777)"
    }
}
