import SiteModel
import Support

/// `/api/manifest.json`: every other output file with its size and SHA-256, so an app downloads only
/// what changed since its last sync.
public enum Manifest {
    public static let path = "api/manifest.json"

    /// The manifest of `digests` (every other output file, by path). Each entry is encoded as it is written
    /// rather than held as a value tree with all the others: at 430,000 listings there are 800,000.
    public static func file(for digests: [String: FileDigest], site: SiteConfig) -> OutputFile {
        let entries = digests.keys.sorted().lazy.map { path in
            let digest = digests[path]!
            return JSONWriter.fileEntry(path: path, size: digest.size, sha256: digest.sha256)
        }
        let bytes = JSONWriter.bytes(["$schema": .string(site.url("api/schema/manifest.json"))], thenList: "files", of: entries)
        return OutputFile(path: path, contents: .bytes(bytes))
    }

    public static func digest(_ bytes: [UInt8]) -> FileDigest {
        FileDigest(size: bytes.count, sha256: SHA256.hex(bytes))
    }
}
