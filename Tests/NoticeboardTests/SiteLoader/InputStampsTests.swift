import Foundation
import SiteLoader
import Support
import Testing

/// The inputs' stamps and digest, which tell a no-change rebuild that nothing changed. The digest is the
/// wrapping sum, over every entry, of the first 128 bits of the SHA-256 of "path<tab>stamp".
@Suite struct InputStampsTests {
    /// Each file's stamp is its type, size, modification time in nanoseconds and permissions, in decimal.
    @Test func aStampIsTypeSizeTimeAndPermissions() throws {
        let site = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(site) }
        let sizes = [0, 7, 1_000, 123_456]
        for (index, size) in sizes.enumerated() {
            TestSupport.write(String(repeating: "x", count: size), to: site + "/content/things/\(index).yaml")
            chmod(site + "/content/things/\(index).yaml", [0o644, 0o600, 0o755, 0o400][index])
        }
        let scanned = InputStamps.scan(SiteFiles(root: site), folders: ["content"])
        #expect(scanned.stamps.count == sizes.count)
        for path in scanned.stamps.keys {
            var info = stat()
            #expect(stat(site + "/" + path, &info) == 0)
            let nanoseconds = info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
            #expect(scanned.stamps[path] == "\(info.st_mode & S_IFMT) \(info.st_size) \(nanoseconds) \(info.st_mode & 0o777)")
        }
    }

    /// The digest worked out from `SHA256.hex` of each line, its first 16 bytes read as two little-endian words.
    func expectedDigest(_ stamps: [String: String]) -> String {
        var words: (UInt64, UInt64) = (0, 0)
        for (path, stamp) in stamps {
            let hex = Array(SHA256.hex(path + "\t" + stamp).utf8)
            let bytes = stride(from: 0, to: 32, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
            let word = { (start: Int) in (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[start + $1]) << (8 * $1) } }
            words = (words.0 &+ word(0), words.1 &+ word(8))
        }
        return [words.0, words.1].map { String(repeating: "0", count: 16 - String($0, radix: 16).count) + String($0, radix: 16) }.joined()
    }

    @Test func isTheSumOfEachLinesDigest() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var stamps: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let path = "content/" + String((0..<Int.random(in: 0...70, using: &generator)).map { _ in "aé/-x7💡".randomElement()! })
                stamps[path] = "\(Int.random(in: 0...99_999)) \(Int.random(in: 0...Int.max)) 420"
            }
            #expect(InputStamps(stamps: stamps).digest.description == expectedDigest(stamps))
        }
    }

    @Test func doesNotDependOnOrderButOnEveryPathAndStamp() {
        let stamps = ["content/a.yaml": "32768 10 1700000000 420", "content/b.yaml": "32768 11 1700000000 420"]
        let digest = InputStamps(stamps: stamps).digest
        #expect(InputStamps(stamps: Dictionary(uniqueKeysWithValues: stamps.reversed())).digest == digest)
        #expect(InputStamps(stamps: ["content/a.yaml": "32768 10 1700000000 420", "content/b.yaml": "32768 12 1700000000 420"]).digest != digest)
        #expect(InputStamps(stamps: ["content/a.yaml": "32768 10 1700000000 420"]).digest != digest)
    }
}
