import LocatedYAML
@testable import Rendering
import SchemaValidation
import SiteModel
import Support
import Testing

/// The manifest lists every other file sorted by path. In place it is spliced from the last one at the
/// files that came, went or changed: it must be the manifest made anew.
@Suite struct ManifestTests {
    private static let names = ["a", "b", "é", "e\u{301}x", "z", "Z", "10", "9", "index.json", "api", "api-x", "ä", "日本", "q\"uote"]

    private static func site() throws -> SiteConfig {
        let config = "title: T\nbase_url: https://example.org/\nkinds: [cleaners]\n"
        return try #require(decodeSiteConfig(try parseYAML(Array(config.utf8), file: "site.yaml"), file: "site.yaml").0)
    }

    private static func bytes(_ file: OutputFile) -> [UInt8] {
        file.contents.inMemory ?? []
    }

    /// Digests with others added: an added one wins over the one it shares a path with, and every path is
    /// walked once.
    @Test func addedDigestsComeBeforeTheWrittenOnes() {
        func digest(_ size: Int) -> FileDigest { FileDigest(size: size, sha256: SHA256.digest([UInt8(size)])) }
        let digests = WrittenDigests(["a": digest(1), "b": digest(2)]).adding(["b": digest(3), "c": digest(4)])
        #expect(digests["a"] == digest(1) && digests["b"] == digest(3) && digests["c"] == digest(4) && digests["d"] == nil)
        #expect(digests.paths.sorted() == ["a", "b", "c"])
        var walked: [String: Int] = [:]
        digests.forEach { path, digest in walked[path] = digest.size }
        #expect(walked == ["a": 1, "b": 3, "c": 4])
    }

    @Test func theSplicedManifestIsTheOneMadeAnew() throws {
        let site = try Self.site()
        var random = SystemRandomNumberGenerator()
        func path() -> String {
            (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.names.randomElement(using: &random)! }.joined(separator: "/")
        }
        func digest() -> FileDigest { FileDigest(size: Int.random(in: 0...99, using: &random), sha256: SHA256.digest([UInt8.random(in: 0...3, using: &random)])) }
        for _ in 0..<200 {
            var digests = Dictionary((0..<Int.random(in: 1...30, using: &random)).map { _ in (path(), digest()) }) { $1 }
            var made = Manifest.inPlace(paths: [], digest: { digests[$0] }, last: nil, every: { Array(digests.keys) }, site: site)
            #expect(made.bytes == Self.bytes(Manifest.file(for: WrittenDigests(digests), site: site)))
            // Successive edits, each spliced from the last: files come, go and change; other paths are named too.
            for _ in 0..<3 {
                var named: Set<String> = []
                for _ in 0..<Int.random(in: 0...8, using: &random) {
                    let changed = Bool.random(using: &random) ? path() : digests.keys.randomElement(using: &random) ?? path()
                    digests[changed] = Int.random(in: 0..<3, using: &random) == 0 ? nil : digest()
                    named.insert(changed)
                }
                named.insert(path())
                guard !digests.isEmpty else { break }
                made = Manifest.inPlace(paths: named, digest: { digests[$0] }, last: made, every: { Array(digests.keys) }, site: site)
                #expect(made.bytes == Self.bytes(Manifest.file(for: WrittenDigests(digests), site: site)))
                #expect(made.layout.order == digests.keys.sorted())
            }
        }
    }

    @Test func theManifestListsItsFilesSortedByPath() throws {
        let zero = FileDigest(size: 1, sha256: SHA256.digest([0]))
        let made = Manifest.file(for: WrittenDigests(["api/b.json": zero, "api/a.json": zero, "index.html": zero]), site: try Self.site())
        let text = String(decoding: Self.bytes(made), as: UTF8.self)
        #expect(text.contains(#"{"path":"api/a.json","size":1,"sha256":""# + zero.sha256.hex + #""},{"path":"api/b.json""#))
        #expect(text.hasSuffix(#""path":"index.html","size":1,"sha256":""# + zero.sha256.hex + "\"}]}\n"))
    }
}
