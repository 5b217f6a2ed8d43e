import Foundation

/// Calls on an open file that the system may carry out in part.
public enum Descriptor {
    /// Writes all of `buffer` to the open file; false when a write fails (`errno` says why).
    public static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var written = 0
        while written < buffer.count {
            let result = Foundation.write(descriptor, buffer.baseAddress! + written, buffer.count - written)
            if result < 0 {
                if errno == EINTR { continue }
                return false
            }
            written += result
        }
        return true
    }
}
