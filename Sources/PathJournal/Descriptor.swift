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

    /// Reads the open file to its end; nil when a read fails (`errno` says why).
    public static func readAll(_ descriptor: Int32) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let result = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress!, $0.count) }
            if result < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if result == 0 { return bytes }
            bytes += chunk[..<result]
        }
    }
}
