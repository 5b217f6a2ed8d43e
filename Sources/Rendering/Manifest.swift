import CCrypto
import SiteModel

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
        FileDigest(size: bytes.count, sha256: sha256(bytes))
    }

    /// Lowercase hex, through OpenSSL's EVP interface.
    public static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1, "OpenSSL could not compute SHA-256")
        // Two table lookups a byte: String(radix:) per byte cost more than the digest of a small page.
        var hex: [UInt8] = []
        hex.reserveCapacity(Int(length) * 2)
        for byte in digest.prefix(Int(length)) {
            hex.append(lowercaseHexDigits[Int(byte >> 4)])
            hex.append(lowercaseHexDigits[Int(byte & 0xF)])
        }
        return String(decoding: hex, as: UTF8.self)
    }
}
