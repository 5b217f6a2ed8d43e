import SiteModel

/// The digests of the files a build has written, by path, as the writer holds them: a whole build's sync
/// documents and manifest read every one; an edit in place looks up only the paths it changed, rather than
/// have 800,000 copied out for it at 430,000 listings.
public struct WrittenDigests {
    private let lookup: (String) -> FileDigest?
    /// Every path's digest.
    public let every: () -> [String: FileDigest]

    public init(lookup: @escaping (String) -> FileDigest?, every: @escaping () -> [String: FileDigest]) {
        self.lookup = lookup
        self.every = every
    }

    public init(_ digests: [String: FileDigest]) {
        self.init(lookup: { digests[$0] }, every: { digests })
    }

    public subscript(path: String) -> FileDigest? { lookup(path) }
}
