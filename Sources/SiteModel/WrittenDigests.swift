/// The digests of a folder's files, by path (those a build has written, or those a staging folder holds), read
/// where the writer or the build record holds them: never copied out, as there are 780,000 at 430,000
/// listings (each copy was 56 MB of the XL build's peak).
public struct WrittenDigests: Sendable {
    private let lookup: @Sendable (String) -> FileDigest?
    private let each: @Sendable ((String, FileDigest) -> Void) -> Void

    /// Digests in a table of their own.
    public init(_ digests: [String: FileDigest]) {
        lookup = { digests[$0] }
        each = { body in
            for (path, digest) in digests { body(path, digest) }
        }
    }

    /// Digests held elsewhere: `lookup` finds one by path, `each` gives them all.
    public init(lookup: @escaping @Sendable (String) -> FileDigest?, each: @escaping @Sendable ((String, FileDigest) -> Void) -> Void) {
        self.lookup = lookup
        self.each = each
    }

    public subscript(path: String) -> FileDigest? { lookup(path) }

    /// Calls `body` with every path and its digest, in no order.
    public func forEach(_ body: (String, FileDigest) -> Void) { each(body) }

    /// Every path, in no order.
    public var paths: [String] {
        var paths: [String] = []
        forEach { path, _ in paths.append(path) }
        return paths
    }

    /// These digests but those of the paths `leftOut` names.
    public func excluding(_ leftOut: @escaping @Sendable (String) -> Bool) -> WrittenDigests {
        let base = self
        return WrittenDigests(
            lookup: { leftOut($0) ? nil : base[$0] },
            each: { body in base.forEach { path, digest in if !leftOut(path) { body(path, digest) } } })
    }

    /// These digests and `more`, whose digest a path takes when both have it.
    public func adding(_ more: [String: FileDigest]) -> WrittenDigests {
        let base = self
        return WrittenDigests(
            lookup: { more[$0] ?? base[$0] },
            each: { body in
                base.forEach { path, digest in if more[path] == nil { body(path, digest) } }
                for (path, digest) in more { body(path, digest) }
            })
    }
}
