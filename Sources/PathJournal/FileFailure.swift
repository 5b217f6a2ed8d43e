import Foundation

/// A system call on a file that failed: the file and the `errno` it set.
public struct FileFailure: Error, CustomStringConvertible {
    public let path: String
    public let code: Int32

    /// From `errno`, naming the path that failed.
    public init(path: String) {
        self.path = path
        code = errno
    }

    public var description: String { "\(path): \(String(cString: strerror(code)))" }
}
