import SiteModel
import Support

/// `/api/manifest.json`: every other output file with its size and SHA-256, so an app downloads only
/// what changed since its last sync.
public enum Manifest {
    public static let path = "api/manifest.json"

    /// The manifest of `digests` (every other output file, by path).
    public static func file(for digests: [String: FileDigest], site: SiteConfig) -> OutputFile {
        let entries: [Value] = digests.sorted { $0.key < $1.key }.map { path, digest in
            .object(["path": .string(path), "size": .int(Int64(digest.size)), "sha256": .string(digest.sha256)])
        }
        let document: Value = .object(["$schema": .string(site.url("api/schema/manifest.json")), "files": .list(entries)])
        return OutputFile(path: path, contents: .bytes(JSONWriter.bytes(document)))
    }

    public static func digest(_ bytes: [UInt8]) -> FileDigest {
        FileDigest(size: bytes.count, sha256: SHA256.hex(bytes))
    }
}
