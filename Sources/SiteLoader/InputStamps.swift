import Foundation
import SiteModel

/// Type, size and modification time of every entry below the folders a build reads, to tell cheaply whether
/// anything changed.
public struct InputStamps: Sendable, Equatable {
    /// Relative path → "type size mtime-nanoseconds", after "link <target>" for a symbolic link.
    public var stamps: [String: String]

    public init(stamps: [String: String]) {
        self.stamps = stamps
    }

    /// Every entry below the given folders of the site. Symbolic links count by where they point and what
    /// they point at, and named pipes and devices count too: the build refuses those that lead outside or
    /// cannot be read, and adding one after a good build must make the next build run and say so.
    public static func scan(_ files: SiteFiles, folders: [String]) -> InputStamps {
        var relatives: [String] = []
        for folder in folders {
            guard let names = FileManager.default.subpaths(atPath: files.absolute(folder)) else { continue }
            relatives += names.map { folder + "/" + $0 }
        }
        // One lstat per file: tens of thousands on a large site, so across all cores.
        let found = relatives.parallelMap { relative -> String? in
            let path = files.absolute(relative)
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                return nil
            case S_IFLNK:
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
                var resolved = stat()
                return "link \(target) " + (stat(path, &resolved) == 0 ? stamp(resolved) : "missing")
            default:
                return stamp(info)
            }
        }
        var stamps: [String: String] = [:]
        stamps.reserveCapacity(relatives.count)
        for (relative, stamp) in zip(relatives, found) { stamps[relative] = stamp }
        return InputStamps(stamps: stamps)
    }

    /// Type, size and modification time.
    private static func stamp(_ info: stat) -> String {
        "\(info.st_mode & S_IFMT) \(info.st_size) \(info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec)"
    }
}
