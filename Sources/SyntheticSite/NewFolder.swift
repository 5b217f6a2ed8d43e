import Foundation

/// `generate` writes only into folders that are new or empty: it once removed whatever was at `--output` (a
/// site's sources, had one been named) and the `content/` of the Hugo site `--hugo` named.
public struct NewFolder: Error, CustomStringConvertible {
    public let path: String

    /// Refuses `path` when something other than an empty folder is there.
    static func check(_ path: String) throws(NewFolder) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        let isEmptyFolder = info.st_mode & S_IFMT == S_IFDIR && (try? FileManager.default.contentsOfDirectory(atPath: path))?.isEmpty == true
        guard isEmptyFolder else { throw NewFolder(path: path) }
    }

    public var description: String {
        "\(path) is already there and not an empty folder; generate writes a new catalogue only into a new or empty folder, so name one (or delete this one yourself)"
    }
}
