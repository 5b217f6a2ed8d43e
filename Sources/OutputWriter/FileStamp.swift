import Foundation
import Rendering

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

    /// The stamp of the manifest in the output folder at `outputPath`. A build that writes that folder replaces
    /// its manifest, so another stamp than the one a build left means another build wrote there since.
    public init?(ofManifestIn outputPath: String) {
        self.init(of: outputPath + "/" + Manifest.path)
    }

    public var changeTime: timespec { changed }

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

    /// A regular file's bytes when it holds `size` of them, read straight into the array (of `capacity`,
    /// when more), and its stamp once they are read.
    static func read(_ path: String, size: Int, capacity: Int = 0) -> (bytes: [UInt8], stamp: FileStamp)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        return read(opened: descriptor, size: size, capacity: capacity)
    }

    /// The same from a file opened to read, which stays open.
    static func read(opened descriptor: Int32, size: Int, capacity: Int = 0) -> (bytes: [UInt8], stamp: FileStamp)? {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == size else { return nil }
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: max(size, capacity)) { buffer, count in
            while count < size {
                let result = Foundation.read(descriptor, buffer.baseAddress! + count, size - count)
                if result < 0, errno == EINTR { continue }
                guard result > 0 else { break }
                count += result
            }
            complete = count == size
        }
        guard complete, fstat(descriptor, &info) == 0 else { return nil }
        return (bytes, FileStamp(info))
    }
}
