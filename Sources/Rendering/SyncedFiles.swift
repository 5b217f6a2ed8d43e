import SiteModel

/// The files apps sync, with their digests: in a whole build, a view of the written files' own digests, as
/// a table of them (500,000 at 10× L) raised the finish's memory by 56 MB; after an edit in place, the table
/// the last render kept, updated.
struct SyncedFiles: Sendable {
    private let digests: WrittenDigests
    let count: Int

    init(_ table: [String: FileDigest]) {
        digests = WrittenDigests(table)
        count = table.count
    }

    /// The `written` files that `isSynced`, `count` of them.
    init(_ written: WrittenDigests, count: Int, isSynced: @escaping @Sendable (String) -> Bool) {
        digests = written.excluding { !isSynced($0) }
        self.count = count
    }

    private init(digests: WrittenDigests, count: Int) {
        self.digests = digests
        self.count = count
    }

    subscript(path: String) -> FileDigest? { digests[path] }

    /// Calls `body` with every path and its digest, in no order.
    func forEach(_ body: (String, FileDigest) -> Void) { digests.forEach(body) }

    /// These files and `path`, whose digest is `digest` whether it was one of them or not.
    func adding(_ path: String, _ digest: FileDigest) -> SyncedFiles {
        SyncedFiles(digests: digests.adding([path: digest]), count: count + (self[path] == nil ? 1 : 0))
    }

    /// The files as a table of their own, for a render kept for the next edit in place.
    var table: [String: FileDigest] {
        var table = [String: FileDigest](minimumCapacity: count)
        forEach { path, digest in table[path] = digest }
        return table
    }
}
