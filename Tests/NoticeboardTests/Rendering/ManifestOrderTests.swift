import LocatedYAML
@testable import Rendering
import SchemaValidation
import SiteModel
import Support
import Testing

/// The manifest lists its paths sorted. In place it merges the few new ones into the last manifest's order
/// rather than sorting every path again: the order must be the sorted one whatever came and went.
@Suite struct ManifestOrderTests {
    private static let names = ["a", "b", "é", "e\u{301}x", "z", "Z", "10", "9", "index.json", "api", "api-x", "ä", "日本"]

    private static func digests(_ paths: Set<String>) -> [String: FileDigest] {
        Dictionary(uniqueKeysWithValues: paths.map { ($0, FileDigest(size: 1, sha256: SHA256.digest([0]))) })
    }

    @Test func theOrderIsSortedWhateverCameAndWent() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let paths = (0..<Int.random(in: 1...30, using: &random)).map { _ in
                (0..<Int.random(in: 1...3, using: &random)).map { _ in Self.names.randomElement(using: &random)! }.joined(separator: "/")
            }
            let last = Set(paths.filter { _ in Bool.random(using: &random) })
            let now = Set(paths.filter { _ in Bool.random(using: &random) })
            // Those that may be new: every path that is, or not all of them (then the order is sorted anew).
            let mayBeNew = Array(now.subtracting(last).filter { _ in Int.random(in: 0..<8, using: &random) > 0 }) + paths.prefix(3)
            let order = Manifest.order(of: Self.digests(now), last: last.sorted(), mayBeNew: mayBeNew)
            #expect(order == now.sorted(), "last \(last.sorted()), now \(now.sorted()), may be new \(mayBeNew)")
        }
    }

    @Test func theManifestListsItsOrder() throws {
        let config = "title: T\nbase_url: https://example.org/\nkinds: [cleaners]\n"
        let site = try #require(decodeSiteConfig(try parseYAML(Array(config.utf8), file: "site.yaml"), file: "site.yaml").0)
        let digests = Self.digests(["api/b.json", "api/a.json", "index.html"])
        let made = Manifest.file(for: digests, site: site, last: ["api/a.json", "index.html"], mayBeNew: ["api/b.json"])
        #expect(made.order == ["api/a.json", "api/b.json", "index.html"])
        guard let bytes = made.file.contents.inMemory else { Issue.record("no bytes"); return }
        let text = String(decoding: bytes, as: UTF8.self)
        let zero = SHA256.digest([0]).hex
        #expect(text.contains(#"{"path":"api/a.json","size":1,"sha256":""# + zero + #""},{"path":"api/b.json""#))
    }
}
