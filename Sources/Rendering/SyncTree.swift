import SiteModel
import Support

/// The sync tree's buckets (`api/sync/tree/<bucket>.json`): which synced files each holds, and its document.
/// A build makes every bucket; `serve`'s in-place edit keeps the last ones and remakes only the buckets that
/// hold a file that changed, came or went. At 430,000 listings there are 4,096 buckets over 600,000 files,
/// and bucketing every file by its path's SHA-256 and encoding every bucket took two thirds of a second
/// of each edit.
struct SyncTree: Sendable {
    /// Hex digits of the bucket names (`SyncDocuments.bucketDigits`).
    let digits: Int
    /// Every bucket, named in order (`0`…`f`, `00`…`ff`…).
    private(set) var buckets: [Bucket]

    struct Bucket: Sendable {
        let name: String
        /// The bucket's files, sorted; held as bytes, as a whole build's buckets hold every synced path
        /// until their documents are written (600,000 at 430,000 listings).
        var paths: PathList
        var file: OutputFile
        var digest: FileDigest
    }

    /// Every bucket of the `synced` files, each made by `document(name, entries)`. Without `keepingBytes`
    /// (a build that keeps nothing for an edit in place), each document is made again as it is written: held
    /// whole until the writers took them, the 4,096 documents were 65 MB of the peak at 430,000 listings.
    init(_ synced: SyncedFiles, keepingBytes: Bool, document: @escaping @Sendable (String, [JSONWriter.Encoded]) -> OutputFile) {
        let digits = SyncDocuments.bucketDigits(files: synced.count)
        self.digits = digits
        var members: [String: PathList] = [:]
        synced.forEach { path, _ in members[Self.bucket(of: path, digits: digits), default: PathList()].append(path) }
        let all = members
        buckets = Self.names(digits: digits).parallelMap { name in
            // Looked up once, for the document digested here and for the one made again as it is written.
            let paths = (all[name] ?? PathList()).sortedAsStrings(), digests = paths.map { synced[$0]! }
            let bucket = Self.bucket(name, paths: paths, digests: digests, document: document)
            return keepingBytes ? bucket : bucket.madeAgainAsWritten(digests, document: document)
        }
    }

    /// The digests of the buckets that hold (or, for a file removed, held) these paths, by bucket name.
    func digests(ofBucketsHolding paths: some Sequence<String>) -> [String: SHA256.Digest] {
        var digests: [String: SHA256.Digest] = [:]
        for path in paths {
            let bucket = buckets[Int(Self.bucket(of: path, digits: digits), radix: 16)!]
            digests[bucket.name] = bucket.digest.sha256
        }
        return digests
    }

    /// These buckets with those that hold a `changed` path made again from `synced`; nil when the number of
    /// files calls for buckets of another size (then every bucket is made anew).
    func updating(
        _ synced: SyncedFiles, changed: some Sequence<String>, document: @Sendable (String, [JSONWriter.Encoded]) -> OutputFile
    ) -> SyncTree? {
        guard SyncDocuments.bucketDigits(files: synced.count) == digits else { return nil }
        var updated = self
        var touched: Set<Int> = []
        for path in changed {
            let index = Int(Self.bucket(of: path, digits: digits), radix: 16)!
            var paths = Array(updated.buckets[index].paths)
            let place = paths.insertionIndex(of: path)
            let listed = place < paths.count && paths[place] == path
            if synced[path] == nil, listed { paths.remove(at: place) }
            if synced[path] != nil, !listed { paths.insert(path, at: place) }
            updated.buckets[index].paths = PathList(paths)
            touched.insert(index)
        }
        let members = updated.buckets
        let remade = touched.sorted().parallelMap { index in
            let paths = members[index].paths
            return (index, Self.bucket(members[index].name, paths: paths, digests: paths.map { synced[$0]! }, document: document))
        }
        for (index, bucket) in remade { updated.buckets[index] = bucket }
        return updated
    }

    private static func bucket(
        _ name: String, paths: PathList, digests: [FileDigest], document: (String, [JSONWriter.Encoded]) -> OutputFile
    ) -> Bucket {
        let file = document(name, entries(paths, digests))
        return Bucket(name: name, paths: paths, file: file, digest: Manifest.digest(file.madeBytes))
    }

    fileprivate static func entries(_ paths: PathList, _ digests: [FileDigest]) -> [JSONWriter.Encoded] {
        zip(paths, digests).map { path, digest in JSONWriter.fileEntry(path: path, size: digest.size, sha256: digest.sha256) }
    }

    /// The first hex digits of the path's SHA-256.
    static func bucket(of path: String, digits: Int) -> String {
        String(SHA256.hex(path).prefix(digits))
    }

    private static func names(digits: Int) -> [String] {
        (0..<(1 << (4 * digits))).map { number in
            let hex = String(number, radix: 16)
            return String(repeating: "0", count: digits - hex.count) + hex
        }
    }
}

extension SyncTree.Bucket {
    /// The bucket with its document streamed, made again as it is written from its files' `digests`, and its
    /// digest known. The stream holds those digests, not the table of every synced file, which it would keep
    /// until written.
    func madeAgainAsWritten(
        _ digests: [FileDigest], document: @escaping @Sendable (String, [JSONWriter.Encoded]) -> OutputFile
    ) -> SyncTree.Bucket {
        let (name, paths) = (name, paths)
        let streamed = OutputFile(path: file.path, contents: .streamed { stream in
            stream.append(contentsOf: document(name, SyncTree.entries(paths, digests)).madeBytes)
        }, digest: digest)
        return SyncTree.Bucket(name: name, paths: paths, file: streamed, digest: digest)
    }
}
