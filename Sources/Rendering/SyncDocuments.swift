import OrderedCollections
import SiteModel
import Support

/// What apps sync, and how a mirror one or many builds behind catches up in bytes proportional to the change.
///
/// The default set (`SyncDocuments.syncs`) is every JSON file below `api/` but the whole-kind files, the
/// search index, the manifest and the sync documents themselves. `api/sync/head.json` is the entry point:
/// the build, its date, the digest of the tree (`root`), and the chain of change lists of the last
/// `sync_builds` builds, each with the tree digest it starts from. A mirror whose root is the `from` of a
/// change list applies it and the newer ones; any other mirror walks the tree: `api/sync/tree.json` lists
/// buckets (files grouped by the first hex digits of their path's SHA-256) with their digests, and
/// `api/sync/tree/<bucket>.json` each file's path, size and SHA-256, so it fetches only the buckets that differ.
public enum SyncDocuments {
    public static let folder = "api/sync/"
    public static let headPath = "api/sync/head.json"
    public static let treePath = "api/sync/tree.json"
    /// The version of the API's documents (see the README's versioning policy).
    public static let apiVersion = 1

    /// Whether a file belongs to the default set that apps mirror.
    public static func syncs(_ path: String) -> Bool {
        guard path.hasPrefix("api/"), path.hasSuffix(".json"), !path.hasPrefix(folder), !path.hasPrefix(SiteRenderer.searchFolder) else {
            return false
        }
        return path == "api/index.json" || path.utf8.dropFirst(4).contains(UInt8(ascii: "/"))
    }

    /// Whether the file is made from the digests of the others: the API root (which names the build), the
    /// sync documents and the manifest.
    public static func isDerived(_ path: String) -> Bool {
        var path = path
        return path.withUTF8 { isDerived(UnsafeRawBufferPointer($0)) }
    }

    /// `isDerived(_:)` of a path's bytes, for tables that hold paths as bytes. Not generic: another module
    /// calls it on each of the record's paths, and a generic function it cannot see into ran unspecialised
    /// there, at half a microsecond a path (0.4 s an edit at 430,000 listings).
    public static func isDerived(_ path: UnsafeRawBufferPointer) -> Bool {
        path.starts(with: folder.utf8) || path.elementsEqual(Manifest.path.utf8) || path.elementsEqual(SiteRenderer.apiRootPath.utf8)
    }

    /// Hex digits of a path's SHA-256 that name its bucket: buckets of about 256 files at most.
    static func bucketDigits(files: Int) -> Int {
        var digits = 1
        while digits < 4, files > 256 << (4 * digits) { digits += 1 }
        return digits
    }
}

/// The builds apps can sync from, kept in the build record from build to build.
public struct SyncHistory: Equatable, Sendable {
    /// The number of the last build that changed the synced files (counted from 1), its date, and the digest
    /// of its tree; 0 and "" before the first.
    public var build: Int
    public var date: CalendarDate?
    public var root: String
    /// The change lists of the last builds, oldest first, each from the one before it.
    public var changes: [ChangeList]

    public static let none = SyncHistory(build: 0, date: nil, root: "", changes: [])

    public init(build: Int, date: CalendarDate?, root: String, changes: [ChangeList]) {
        self.build = build
        self.date = date
        self.root = root
        self.changes = changes
    }
}

/// What one build changed in the default set, from the tree `from` to the tree `to`.
public struct ChangeList: Equatable, Sendable {
    /// A change list longer than a quarter of the files costs apps more than walking the tree.
    static func isWorthListing(_ count: Int, among files: Int) -> Bool { count <= max(16, files / 4) }

    public var build: Int
    public var date: CalendarDate
    public var from: String
    public var to: String
    /// Files added or changed, with their new digests; nil for a file removed.
    public var files: [String: FileDigest?]
    /// The new digests of the tree's buckets that hold those files, by name: an app that follows the chain
    /// keeps knowing every bucket's digest, so a walk of the tree later fetches only the buckets that differ.
    public var buckets: [String: SHA256.Digest]

    public init(build: Int, date: CalendarDate, from: String, to: String, files: [String: FileDigest?], buckets: [String: SHA256.Digest] = [:]) {
        self.build = build
        self.date = date
        self.from = from
        self.to = to
        self.files = files
        self.buckets = buckets
    }

    public var path: String { "api/sync/changes/\(build).json" }
}

extension SiteRenderer {
    /// The API root, the sync documents and the manifest, from the digests of every other file; and the
    /// history the build record keeps for the next build. A build that changes none of the synced files keeps
    /// the last build's number and date, so its API root, and so every synced file, is the same. In place,
    /// `changed` are the files whose bytes changed, and `lastBytes` gives the last manifest's, spliced into a
    /// buffer from `spares`. What a render
    /// `kept` for the next in place holds the synced files, the sync tree and the manifest's layout, which
    /// this updates.
    public func derivedFiles(
        digests: WrittenDigests, changed: Set<String>? = nil, lastBytes: (String) -> [UInt8]? = { _ in nil }, spares: SpareBuffers = .none,
        kept: inout KeptRender?
    ) -> (files: [OutputFile], history: SyncHistory) {
        var synced = syncedFiles(digests, changed: changed, last: kept?.synced)
        var root = apiRoot(build: lastSync.build, date: lastSync.date ?? catalogue.buildDate)
        let isNew = lastSync.build == 0 || !synced.differing.isEmpty || lastFiles[Self.apiRootPath] != Manifest.digest(root.madeBytes)
        let build = isNew ? lastSync.build + 1 : lastSync.build
        if isNew { root = apiRoot(build: build, date: catalogue.buildDate) }
        let apiRootDigest = Manifest.digest(root.madeBytes)
        synced.now.add(Self.apiRootPath, apiRootDigest)
        if lastFiles[Self.apiRootPath] != apiRootDigest { synced.differing.note(Self.apiRootPath, apiRootDigest) }
        kept?.synced = synced.now.table
        let tree = tree(synced.now, changed: changed.map { _ in synced.differing.files.keys }, last: kept?.syncTree, keepingBytes: kept != nil)
        kept?.syncTree = tree.kept
        var files = [root] + tree.files
        let rootDigest = Manifest.digest(files[1].madeBytes).sha256.hex
        var changes = lastSync.changes
        if isNew {
            // Without a last tree, or past `ChangeList.isWorthListing`, the chain restarts.
            if !lastSync.root.isEmpty, synced.differing.isListing, ChangeList.isWorthListing(synced.differing.count, among: synced.now.count) {
                let list = ChangeList(
                    build: build, date: catalogue.buildDate, from: lastSync.root, to: rootDigest, files: synced.differing.files,
                    buckets: tree.kept.digests(ofBucketsHolding: synced.differing.files.keys))
                changes = Array((changes + [list]).suffix(site.syncBuilds))
            } else {
                changes = []
            }
        }
        let changeFiles = changes.map { OutputFile(path: $0.path, contents: .bytes(JSONWriter.bytes(changeDocument($0)))) }
        files += changeFiles
        let history = SyncHistory(build: build, date: isNew ? catalogue.buildDate : lastSync.date, root: rootDigest, changes: changes)
        let head = head(history, treeSize: files[1].madeBytes.count, changeFiles: changeFiles)
        files.append(OutputFile(path: SyncDocuments.headPath, contents: .bytes(JSONWriter.bytes(head))))
        let derived = Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.digest ?? Manifest.digest($0.madeBytes)) })
        files.append(manifest(digests, derived: derived, changed: changed, lastBytes: lastBytes, spares: spares, kept: &kept))
        return (files, history)
    }

    /// The manifest of every file but itself: the other files' `digests` and the `derived` ones'. A whole
    /// build makes it as it is written. In place it is spliced from the last one, at the `changed` files and
    /// the derived ones, then and now; the first edit in place makes it anew, to know where its entries lie.
    private func manifest(
        _ digests: WrittenDigests, derived: [String: FileDigest], changed: Set<String>?, lastBytes: (String) -> [UInt8]?,
        spares: SpareBuffers, kept: inout KeptRender?
    ) -> OutputFile {
        guard let changed else {
            kept?.manifest = nil
            return Manifest.file(for: digests.adding(derived), site: site)
        }
        let lastLayout = kept?.manifest
        let lastDerived = (lastLayout?.paths(under: SyncDocuments.folder) ?? []) + [Self.apiRootPath]
        let every = digests.adding(derived)
        let made = Manifest.inPlace(
            paths: changed.union(derived.keys).union(lastDerived), digest: { every[$0] },
            last: lastLayout.flatMap { layout in lastBytes(Manifest.path).map { ($0, layout) } }, every: { every.paths }, site: site,
            into: spares.take(Manifest.path))
        kept?.manifest = made.layout
        return OutputFile(path: Manifest.path, contents: .bytes(made.bytes))
    }

    /// The synced files but the derived ones (apps sync the API root too: it is added after), and those that
    /// differ from the last build's. From the `last` build's synced files when only the `changed` files can
    /// differ; otherwise from every file, and the last build's record of them.
    private func syncedFiles(
        _ digests: WrittenDigests, changed: Set<String>?, last: [String: FileDigest]?
    ) -> (now: SyncedFiles, differing: DifferingFiles) {
        @Sendable func isSynced(_ path: String) -> Bool { SyncDocuments.syncs(path) && !SyncDocuments.isDerived(path) }
        if let changed, let last {
            var now = last, differing = DifferingFiles()
            for path in changed where isSynced(path) && last[path] != digests[path] {
                now[path] = digests[path]
                differing.note(path, digests[path])
            }
            return (SyncedFiles(now), differing)
        }
        let now = SyncedFiles(digests, isSynced: isSynced)
        // The files the last build synced and this one does not (few, when any); the others that differ are
        // counted first, and listed only when a change list may carry them (the API root's digest may add one
        // to each count) or an edit in place needs their paths.
        var removed: [String] = []
        lastFiles.forEach { path, _ in if isSynced(path) && now[path] == nil { removed.append(path) } }
        var count = removed.count
        now.forEach { path, digest in if lastFiles[path] != digest { count += 1 } }
        guard changed != nil || (!lastSync.root.isEmpty && ChangeList.isWorthListing(count, among: now.count + 1)) else {
            return (now, DifferingFiles(counted: count))
        }
        var differing = DifferingFiles()
        // Made entry by entry from the last build's files, without filtered copies: each held 500,000 at XL.
        now.forEach { path, digest in if lastFiles[path] != digest { differing.note(path, digest) } }
        for path in removed { differing.note(path, nil) }
        return (now, differing)
    }

    /// `api/sync/tree.json` first, then every bucket's document: made anew, or in place from the `last`
    /// tree with only the buckets of the `changed` paths made again.
    private func tree(
        _ synced: SyncedFiles, changed: Dictionary<String, FileDigest?>.Keys?, last: SyncTree?, keepingBytes: Bool
    ) -> (files: [OutputFile], kept: SyncTree) {
        let schema = schemaURL("sync.bucket")
        let document: @Sendable (String, [JSONWriter.Encoded]) -> OutputFile = { name, entries in
            let bytes = JSONWriter.bytes(["$schema": schema, "bucket": .string(name)], thenList: "files", of: entries)
            return OutputFile(path: "api/sync/tree/\(name).json", contents: .bytes(bytes))
        }
        let made = changed.flatMap { changed in last?.updating(synced, changed: changed, document: document) } ?? SyncTree(synced, keepingBytes: keepingBytes, document: document)
        let tree: Value = .object([
            "$schema": schemaURL("sync.tree"),
            "files": .int(Int64(synced.count)),
            "buckets": .list(made.buckets.map { bucket in
                .object([
                    "bucket": .string(bucket.name), "url": .string(site.url(bucket.file.path)), "files": .int(Int64(bucket.paths.count)),
                    "size": .int(Int64(bucket.digest.size)), "sha256": .string(bucket.digest.sha256.hex),
                ])
            }),
        ])
        return ([OutputFile(path: SyncDocuments.treePath, contents: .bytes(JSONWriter.bytes(tree)))] + made.buckets.map(\.file), made)
    }

    private func head(_ history: SyncHistory, treeSize: Int, changeFiles: [OutputFile]) -> Value {
        let byPath = Dictionary(changeFiles.map { ($0.path, $0.madeBytes) }, uniquingKeysWith: { first, _ in first })
        return .object([
            "$schema": schemaURL("sync.head"),
            "api_version": .int(Int64(SyncDocuments.apiVersion)),
            "build": .int(Int64(history.build)),
            "date": history.date.map(Value.date) ?? .null,
            "root": .string(history.root),
            "tree": .object([
                "url": .string(site.url(SyncDocuments.treePath)), "size": .int(Int64(treeSize)), "sha256": .string(history.root),
            ]),
            "changes": .list(history.changes.reversed().map { list in
                let bytes = byPath[list.path] ?? []
                return .object([
                    "build": .int(Int64(list.build)), "from": .string(list.from), "to": .string(list.to), "url": .string(site.url(list.path)),
                    "size": .int(Int64(bytes.count)), "sha256": .string(Manifest.digest(bytes).sha256.hex),
                ])
            }),
        ])
    }

    private func changeDocument(_ list: ChangeList) -> Value {
        let sorted = list.files.sorted { $0.key < $1.key }
        return .object([
            "$schema": schemaURL("sync.changes"),
            "build": .int(Int64(list.build)), "date": .date(list.date), "from": .string(list.from), "to": .string(list.to),
            "changed": .list(sorted.compactMap { path, digest in digest.map { fileEntry(path, $0) } }),
            "removed": .list(sorted.filter { $0.value == nil }.map { .string($0.key) }),
            "buckets": .list(list.buckets.sorted { $0.key < $1.key }.map { name, digest in
                .object(["bucket": .string(name), "sha256": .string(digest.hex)])
            }),
        ])
    }

    private func fileEntry(_ path: String, _ digest: FileDigest) -> Value {
        .object(["path": .string(path), "size": .int(Int64(digest.size)), "sha256": .string(digest.sha256.hex)])
    }
}

extension OutputFile {
    /// The bytes of a file made in memory (the sync documents are).
    var madeBytes: [UInt8] {
        if case .bytes(let bytes) = contents { return bytes }
        preconditionFailure("\(path) was not made in memory")
    }
}

/// The synced files that differ from the last build's: nil for a file removed. Listed only when asked,
/// otherwise only counted: a whole build's list is longer than any change list is kept (at XL it held every
/// API file's path and digest, 67 MB, to be dropped).
struct DifferingFiles {
    private(set) var files: [String: FileDigest?] = [:]
    private(set) var count = 0
    let isListing: Bool

    /// Listing each file noted.
    init() {
        isListing = true
    }

    /// Only a count: `files` stays empty, and is not to be read.
    init(counted: Int) {
        isListing = false
        count = counted
    }

    var isEmpty: Bool { count == 0 }

    /// One more differing file, listed when this lists them.
    mutating func note(_ path: String, _ digest: FileDigest?) {
        count += 1
        if isListing { files[path] = .some(digest) }
    }
}
