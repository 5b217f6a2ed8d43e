import Foundation

/// What a folder holds, for the checks that look for files someone else put in a folder a command fills.
public enum FolderFiles {
    /// Every file below `root` (anything not a folder, links included), relative to it.
    public static func below(_ root: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: root) else { return [] }
        var found: [String] = []
        while let name = walk.nextObject() as? String {
            if walk.fileAttributes?[.type] as? FileAttributeType != .typeDirectory { found.append(name) }
        }
        return found
    }
}
