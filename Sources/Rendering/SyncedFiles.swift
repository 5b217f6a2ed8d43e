import SiteModel

/// The files apps sync, with their digests: in a whole build, a view of the written files' own digests, as
/// a table of them (500,000 at 10× L) raised the build's peak memory by 37–75 MB; after an edit in place,
/// the table the last render kept, changed where files changed and kept again without a copy.
struct SyncedFiles: Sendable {
    private enum Storage {
        case table([String: FileDigest])
        case view(WrittenDigests, count: Int)
    }

    private var storage: Storage

    init(_ table: [String: FileDigest]) {
        storage = .table(table)
    }

    /// The `written` files that `isSynced`, counted as they are found.
    init(_ written: WrittenDigests, isSynced: @escaping @Sendable (String) -> Bool) {
        var count = 0
        written.forEach { path, _ in if isSynced(path) { count += 1 } }
        storage = .view(written.excluding { !isSynced($0) }, count: count)
    }

    var count: Int {
        switch storage {
        case .table(let table): table.count
        case .view(_, let count): count
        }
    }

    subscript(path: String) -> FileDigest? {
        switch storage {
        case .table(let table): table[path]
        case .view(let digests, _): digests[path]
        }
    }

    /// Calls `body` with every path and its digest, in no order.
    func forEach(_ body: (String, FileDigest) -> Void) {
        switch storage {
        case .table(let table): for (path, digest) in table { body(path, digest) }
        case .view(let digests, _): digests.forEach(body)
        }
    }

    /// Adds `path` with `digest`, or gives it that digest if it is one of these files.
    mutating func add(_ path: String, _ digest: FileDigest) {
        switch storage {
        case .table(var table):
            storage = .view(WrittenDigests([:]), count: 0)  // lets go of the table, so it changes without a copy
            table[path] = digest
            storage = .table(table)
        case .view(let digests, let count):
            storage = .view(digests.adding([path: digest]), count: count + (digests[path] == nil ? 1 : 0))
        }
    }

    /// The files as a table of their own, for a render kept for the next edit in place: a view's copied into one.
    var table: [String: FileDigest] {
        if case .table(let table) = storage { return table }
        var table = [String: FileDigest](minimumCapacity: count)
        forEach { path, digest in table[path] = digest }
        return table
    }
}
