import Foundation

/// Identity, size, and modification and change times of a file, to tell whether it was replaced or
/// written since: any write changes its change time, which no one can set.
public struct FileStamp: Equatable, Sendable {
    let device: UInt64, inode: UInt64, size: Int64
    let modified: timespec, changed: timespec

    public init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info)
    }

    init(_ info: stat) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        modified = info.st_mtim
        changed = info.st_ctim
    }

    public static func == (left: FileStamp, right: FileStamp) -> Bool {
        (left.device, left.inode, left.size) == (right.device, right.inode, right.size)
            && (left.modified.tv_sec, left.modified.tv_nsec, left.changed.tv_sec, left.changed.tv_nsec)
                == (right.modified.tv_sec, right.modified.tv_nsec, right.changed.tv_sec, right.changed.tv_nsec)
    }
}
