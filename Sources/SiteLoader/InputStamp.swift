import Foundation

/// One input entry's stamp as a scan finds it, and its text as the build record writes it: "type size
/// mtime-nanoseconds permissions" in decimal for a file or folder, "link <target> <stamp of what it points
/// at, or missing>" for a symbolic link, "unreadable <errno>" for an entry that cannot be read.
///
/// A file's or folder's stamp is held as its numbers: held as text, every one was a string of its own (35
/// bytes in an 80-byte allocation), 34 MB at 430,000 listings for the whole build.
public struct InputStamp: Hashable, Sendable, CustomStringConvertible {
    private enum Form: Hashable {
        /// `mode` holds the type and the permissions, as `st_mode` does; last, so that the stamp is 24 bytes.
        case numbers(size: Int64, modified: Int64, mode: UInt32)
        /// Any other stamp, as its text.
        case text(String)
    }

    private let form: Form

    /// The stamp of an entry whose `lstat` (or `stat`, through a link) gave `info`: its type and permissions
    /// (a file made unreadable must be read again, and fail), as the text has them (not setuid, setgid or
    /// sticky bits, which the text leaves out).
    init(_ info: stat) {
        form = .numbers(
            size: Int64(info.st_size), modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
            mode: UInt32(info.st_mode) & (UInt32(S_IFMT) | 0o777))
    }

    /// A stamp from its text (a build record's): held as numbers when the text is exactly what a file's or
    /// folder's numbers write, so a stamp read back equals the one scanned.
    public init(text: String) {
        let fields = text.split(separator: " ", omittingEmptySubsequences: false)
        if fields.count == 4, let type = UInt32(fields[0]), let size = Int64(fields[1]), let modified = Int64(fields[2]),
            let permissions = UInt32(fields[3]), type & ~UInt32(S_IFMT) == 0, permissions <= 0o777
        {
            let numbers = InputStamp(form: .numbers(size: size, modified: modified, mode: type | permissions))
            if numbers.withText({ $0.elementsEqual(text.utf8) }) {
                self = numbers
                return
            }
        }
        form = .text(text)
    }

    private init(form: Form) {
        self.form = form
    }

    /// Whether it is a symbolic link's.
    var isLink: Bool {
        if case .text(let text) = form { text.hasPrefix("link ") } else { false }
    }

    public var description: String {
        withText { String(decoding: $0, as: UTF8.self) }
    }

    /// Calls `body` with the stamp's text, written on the stack for numbers: this runs for every input before
    /// every build, and string interpolation took a tenth of the scan's own time.
    func withText<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch form {
        case .text(let text):
            var text = text
            return text.withUTF8(body)
        case .numbers(let size, let modified, let mode):
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * 21) { text in
                var end = 0
                func write(_ field: Int64) {
                    if end > 0 { (text[end], end) = (UInt8(ascii: " "), end + 1) }
                    end += Self.writeDecimal(field, into: UnsafeMutableBufferPointer(rebasing: text[end...]))
                }
                write(Int64(mode & UInt32(S_IFMT)))
                write(size)
                write(modified)
                write(Int64(mode & 0o777))
                return body(UnsafeBufferPointer(rebasing: text[..<end]))
            }
        }
    }

    /// Writes `value`'s decimal digits (a minus sign first when negative) at the start of `text`; returns how many.
    private static func writeDecimal(_ value: Int64, into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var magnitude = value.magnitude, count = 0
        repeat {
            text[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            (magnitude, count) = (magnitude / 10, count + 1)
        } while magnitude > 0
        if value < 0 { (text[count], count) = (UInt8(ascii: "-"), count + 1) }
        var digits = UnsafeMutableBufferPointer(rebasing: text[..<count])
        digits.reverse()
        return count
    }
}
