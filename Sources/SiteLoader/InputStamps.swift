import Foundation

/// Size and modification time of every file a build reads, to tell cheaply whether anything changed.
public struct InputStamps: Sendable, Equatable {
    /// Relative path → "size mtime-nanoseconds".
    public var stamps: [String: String]

    public init(stamps: [String: String]) {
        self.stamps = stamps
    }

    /// Every file below the given folders of the site (symbolic links are followed, as the build does).
    public static func scan(_ files: SiteFiles, folders: [String]) -> InputStamps {
        var stamps: [String: String] = [:]
        for folder in folders {
            guard let names = FileManager.default.subpaths(atPath: files.absolute(folder)) else { continue }
            for name in names {
                let relative = folder + "/" + name
                var info = stat()
                guard stat(files.absolute(relative), &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
                stamps[relative] = "\(info.st_size) \(info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec)"
            }
        }
        return InputStamps(stamps: stamps)
    }
}
