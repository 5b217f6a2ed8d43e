/// Paths relative to a folder (the output's, `content/media/`'s), as files and messages give them.
public enum RelativePath {
    /// Whether a segment of `path` names no file of its own: an empty one (`a//b`, a leading or trailing `/`, an
    /// empty path), `.` or `..`. Read byte by byte: the writer asks it of every file a build writes.
    public static func hasEmptyOrDotSegment(_ path: String) -> Bool {
        var length = 0, onlyDots = true
        var namesNothing: Bool { length == 0 || (onlyDots && length <= 2) }
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if namesNothing { return true }
                (length, onlyDots) = (0, true)
            } else {
                length += 1
                onlyDots = onlyDots && byte == UInt8(ascii: ".")
            }
        }
        return namesNothing
    }
}
