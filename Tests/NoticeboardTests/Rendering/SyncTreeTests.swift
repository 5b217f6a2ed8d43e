@testable import Rendering
import SiteModel
import Support
import Testing

/// `serve` keeps the sync tree's buckets and remakes only those that hold a file that changed, came or
/// went: the buckets must be those a whole build makes.
@Suite struct SyncTreeTests {
    private static let document: @Sendable (String, [JSONWriter.Encoded]) -> OutputFile = { name, entries in
        OutputFile(path: "api/sync/tree/\(name).json", contents: .bytes(JSONWriter.bytes(["bucket": .string(name)], thenList: "files", of: entries)))
    }

    private static func digest(_ seed: Int) -> FileDigest {
        FileDigest(size: seed, sha256: SHA256.digest(Array("\(seed)".utf8)))
    }

    private static func same(_ left: SyncTree, _ right: SyncTree) -> Bool {
        left.digits == right.digits && left.buckets.count == right.buckets.count
            && zip(left.buckets, right.buckets).allSatisfy { a, b in
                a.name == b.name && a.paths == b.paths && a.file.madeBytes == b.file.madeBytes && a.digest == b.digest
            }
    }

    @Test func bucketsRemadeWhereFilesChangedAreThoseOfAWholeBuild() {
        var random = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            let count = Int.random(in: 0...600, using: &random)
            let synced = Dictionary(uniqueKeysWithValues: (0..<count).map { ("api/things/\($0)-é.json", Self.digest($0)) })
            let last = SyncTree(SyncedFiles(synced), keepingBytes: true, document: Self.document)
            var now = synced
            var changed: Set<String> = []
            for path in synced.keys where Int.random(in: 0..<10, using: &random) == 0 {
                now[path] = Bool.random(using: &random) ? nil : Self.digest(Int.random(in: 0...9_999, using: &random))
                changed.insert(path)
            }
            for added in 0..<Int.random(in: 0...5, using: &random) {
                now["api/new/\(added).json"] = Self.digest(added)
                changed.insert("api/new/\(added).json")
            }
            // A change that leaves a file as it was remakes its bucket, to the same bytes.
            if let path = now.keys.first { changed.insert(path) }
            let whole = SyncTree(SyncedFiles(now), keepingBytes: true, document: Self.document)
            guard let updated = last.updating(SyncedFiles(now), changed: changed, document: Self.document) else {
                #expect(SyncDocuments.bucketDigits(files: now.count) != last.digits)
                continue
            }
            #expect(Self.same(updated, whole))
        }
    }

    @Test func moreFilesThanTheBucketsHoldCallForABuildOfEveryBucket() {
        let synced = Dictionary(uniqueKeysWithValues: (0..<4096).map { ("api/\($0).json", Self.digest($0)) })
        let last = SyncTree(SyncedFiles(synced), keepingBytes: true, document: Self.document)
        var now = synced
        now["api/one-more.json"] = Self.digest(1)
        #expect(last.digits == 1 && SyncDocuments.bucketDigits(files: now.count) == 2)
        #expect(last.updating(SyncedFiles(now), changed: ["api/one-more.json"], document: Self.document) == nil)
    }

    /// A build that keeps nothing for an edit in place streams each bucket, made again as it is written: the
    /// same bytes as a bucket held whole, with the digest the tree lists for it.
    @Test func streamedBucketsAreTheBucketsHeldWhole() throws {
        let synced = Dictionary(uniqueKeysWithValues: (0..<700).map { ("api/things/\($0).json", Self.digest($0)) })
        let held = SyncTree(SyncedFiles(synced), keepingBytes: true, document: Self.document)
        let streamed = SyncTree(SyncedFiles(synced), keepingBytes: false, document: Self.document)
        #expect(held.buckets.count == 16 && streamed.buckets.count == held.buckets.count)
        for (whole, bucket) in zip(held.buckets, streamed.buckets) {
            guard case .streamed = bucket.file.contents else {
                Issue.record("bucket \(bucket.name) is held whole")
                continue
            }
            let bytes = try #require(bucket.file.contents.inMemory)
            #expect(bytes == whole.file.madeBytes && bucket.digest == whole.digest && bucket.file.digest == Manifest.digest(bytes))
            #expect(bucket.name == whole.name && bucket.paths == whole.paths && bucket.file.path == whole.file.path)
        }
    }
}
