import Support

/// One file of the built site, named relative to the output folder (`cleaners/ana/index.html`).
public struct OutputFile: Sendable {
    public enum Contents: Sendable {
        case bytes([UInt8])
        /// A file copied as it is from an absolute source path (theme assets, media).
        case copy(from: String)
        /// The same bytes as the file the previous build wrote at this path: kept, not rewritten.
        case previous
        /// A large document, made part by part as it is written (see `ByteStream`): never whole in memory.
        case streamed(@Sendable (inout ByteStream) -> Void)

        /// The bytes, made in memory: a stream's parts joined. Nil for a copy or a previous build's file.
        public var inMemory: [UInt8]? {
            switch self {
            case .bytes(let bytes): bytes
            case .streamed(let write): ByteStream.collect(write)
            case .copy, .previous: nil
            }
        }
    }

    public var path: String
    public var contents: Contents
    /// The digest of `bytes` contents, when it was worked out as they were made (a document spliced in place);
    /// of a stream's, when its bytes were made once to be digested and are made again as written (a sync bucket).
    public var digest: FileDigest?

    public init(path: String, contents: Contents, digest: FileDigest? = nil) {
        self.path = path
        self.contents = contents
        self.digest = digest
    }

    public init(path: String, text: String) {
        self.init(path: path, contents: .bytes(Array(text.utf8)))
    }

    /// The memory the file's bytes take: their buffer's capacity, which a buffer grown while it was written
    /// leaves at up to twice their count; none for a copy, a stream or a previous build's file.
    public var heldBytes: Int {
        if case .bytes(let bytes) = contents { return bytes.capacity }
        return 0
    }
}

/// What an output file holds, as the manifest and the build cache record it.
public struct FileDigest: Sendable, Hashable {
    public var size: Int
    /// Held in its 32 bytes: there is one for every output file (800,000 at 430,000 listings).
    public var sha256: SHA256.Digest

    public init(size: Int, sha256: SHA256.Digest) {
        self.size = size
        self.sha256 = sha256
    }
}
