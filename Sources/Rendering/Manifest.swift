import CCrypto
import Foundation
import SiteModel

/// `/api/manifest.json`: every other output file with its size and SHA-256, so an app downloads only
/// what changed since its last sync.
public enum Manifest {
    public static let path = "api/manifest.json"

    public static func file(for files: [OutputFile], site: SiteConfig) -> OutputFile {
        let entries: [Value] = files.sorted { $0.path < $1.path }.parallelMap { file in
            let bytes = contents(of: file)
            return .object(["path": .string(file.path), "size": .int(Int64(bytes.count)), "sha256": .string(sha256(bytes))])
        }
        let document: Value = .object(["$schema": .string(site.url("api/schema/manifest.json")), "files": .list(entries)])
        return OutputFile(path: path, contents: .bytes(JSONWriter.bytes(document)))
    }

    static func contents(of file: OutputFile) -> [UInt8] {
        switch file.contents {
        case .bytes(let bytes): return bytes
        case .copy(let source): return FileManager.default.contents(atPath: source).map { [UInt8]($0) } ?? []
        }
    }

    /// Lowercase hex, through OpenSSL's EVP interface.
    public static func sha256(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { buffer in
            EVP_Digest(buffer.baseAddress, buffer.count, &digest, &length, EVP_sha256(), nil)
        }
        precondition(ok == 1, "OpenSSL could not compute SHA-256")
        return digest.prefix(Int(length)).map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }
}
