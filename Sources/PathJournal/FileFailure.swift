import Foundation

/// A system call on a file that failed: the file and the `errno` it set.
public struct FileFailure: Error, CustomStringConvertible {
    public let path: String
    public let code: Int32

    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    /// The system's words for `code`: "Too many open files".
    public var reason: String { String(cString: strerror(code)) }

    public var description: String { "\(path): \(reason)" }
}
