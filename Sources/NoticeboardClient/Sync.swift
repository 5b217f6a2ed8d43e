import Foundation
import PathJournal

/// Brings a mirror up to date with a site: the head first; then, when the mirror's tree is the start of a
/// chain of change lists the head names, those lists; otherwise the tree, and the buckets whose digests
/// differ from the mirror's. Only files whose digest the mirror does not hold are fetched, each checked
/// against its size and SHA-256 before it is kept.
public struct Sync: Sendable {
    public let fetcher: Fetcher
    public let mirror: MirrorFolder
    /// Files fetched at once.
    public var parallelFetches = 8
    /// Called when another sync into the same folder is under way: this one waits for it to finish.
    public var waiting: @Sendable () -> Void = {}

    public enum Failure: Error, CustomStringConvertible {
        case unsupportedVersion(Int)
        case unsafe(String)

        public var description: String {
            switch self {
            case .unsupportedVersion(let version):
                "the site's API is version \(version); this client reads version \(SyncFormat.apiVersion)"
            case .unsafe(let what):
                "the site names \(what), which would leave the mirror's folder; nothing was synced"
            }
        }
    }

    /// What one sync did.
    public struct Report: Sendable {
        public var build: Int
        /// True when the mirror already had the head's tree.
        public var wasUpToDate: Bool
        /// Through the change lists or by walking the tree.
        public var usedChangeLists: Bool
        public var fetched: Fetcher.Totals
        /// Folders of the mirror this sync kept, as they held files no sync wrote: an `incoming/` holding what no sync
        /// noted, the snapshot it replaced, one at its new snapshot's name.
        public var kept: [MirrorFolder.KeptFolder] = []
    }

    public init(fetcher: Fetcher, mirror: MirrorFolder) {
        self.fetcher = fetcher
        self.mirror = mirror
    }

    /// How many times a sync starts again when the site is rebuilt while it fetches.
    static let restartsForNewBuilds = 3

    /// A sync that fails in a folder it made, before any sync completed there, removes what it wrote and the folder;
    /// a folder that holds files no sync wrote stays, with them.
    public func run() async throws -> Report {
        let hold = try await MirrorLock.take(mirror.folder, waiting: waiting)
        defer { withExtendedLifetime(hold) {} }
        do {
            return try await runHolding()
        } catch {
            if hold.madeFolders.last == mirror.folder.path {
                mirror.removeUnfinished()
                hold.removeMadeFolders()
            }
            throw error
        }
    }

    private func runHolding() async throws -> Report {
        // The folders of `incoming/` it held are closed before anything is removed or the lock is let go.
        defer { mirror.incomingFolder.release() }
        let keptIncoming = try mirror.claim()
        var head = try await fetchHead(), restarts = 0
        while true {
            do {
                var report = try await bringUpToDate(with: head)
                report.kept.insert(contentsOf: [keptIncoming].compactMap { $0 }, at: 0)
                return report
            } catch let failure as Fetcher.Failure where restarts < Self.restartsForNewBuilds {
                // A file that is not what the head said, or is gone: when a new build replaced the head, start
                // again from it; what the incoming snapshot holds with the right digests is kept.
                let newer = try await fetchHead()
                guard newer.root != head.root else { throw failure }
                head = newer
                restarts += 1
            }
        }
    }

    private func fetchHead() async throws -> SyncFormat.Head {
        let head = try await fetcher.document(SyncFormat.Head.self, at: SyncFormat.headPath)
        guard head.apiVersion == SyncFormat.apiVersion else { throw Failure.unsupportedVersion(head.apiVersion) }
        guard fetcher.siteBuiltFor(head.tree.url, isAt: SyncFormat.treePath) else {
            throw Fetcher.Failure.unreadable(fetcher.url(SyncFormat.headPath), reason: "its tree is at \(head.tree.url.prefix(120)), not at \(SyncFormat.treePath) below the site")
        }
        return head
    }

    /// Makes the mirror the head's tree.
    private func bringUpToDate(with head: SyncFormat.Head) async throws -> Report {
        let last = mirror.record()
        if let last, last.root == head.root {
            return Report(build: head.build, wasUpToDate: true, usedChangeLists: false, fetched: fetcher.totals)
        }
        let target: MirrorFolder.Record
        let chain = last.flatMap { chainOfChanges(from: $0.root, in: head) }
        if let last, let chain {
            target = try await applying(chain, to: last, head: head)
        } else {
            target = try await walkingTree(of: head, last: last)
        }
        try Self.checkNames(target)
        let journal = try mirror.prepareIncoming()
        try await fetchMissing(target, last: last, journal: journal)
        let kept = try mirror.commit(target, replacing: last, journal: journal)
        return Report(build: head.build, wasUpToDate: false, usedChangeLists: chain != nil, fetched: fetcher.totals, kept: kept)
    }

    /// The paths and the tree's digest come from the site and name files and a snapshot in the mirror: each
    /// path must be a file below `api/` (not the mirror's record), and the digest hexadecimal.
    static func checkNames(_ record: MirrorFolder.Record) throws {
        guard !record.root.isEmpty, record.root.allSatisfy(\.isHexDigit) else { throw Failure.unsafe("the tree digest '\(shown(record.root.prefix(80)))'") }
        for path in record.files.keys where !isMirrorPath(path) { throw Failure.unsafe("the file '\(shown(path.prefix(200)))'") }
    }

    /// Below `api/`, each part a name (not empty, `.` or `..`), with no control character: a build's paths have
    /// none, and a name holding ESC or a newline would reach the app's file listings and the terminal.
    static func isMirrorPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count > 1 && parts[0] == "api" && !path.utf8.contains { $0 < 0x20 || $0 == 0x7F }
            && !parts.contains { $0.isEmpty || $0 == "." || $0 == ".." || $0.hasPrefix(".noticeboard") }
    }

    /// Text from the site, as a message shows it: a control character as its code (`\u{1B}`), so that none
    /// reaches the terminal.
    static func shown(_ text: Substring) -> String {
        text.unicodeScalars.map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
        }.joined()
    }

    /// The change lists from `root` to the head's tree, oldest first; nil when the head's chain does not
    /// reach back to `root`.
    func chainOfChanges(from root: String, in head: SyncFormat.Head) -> [SyncFormat.Change]? {
        var chain: [SyncFormat.Change] = []
        var to = head.root
        for change in head.changes where change.to == to {
            chain.insert(change, at: 0)
            if change.from == root { return chain }
            to = change.from
        }
        return nil
    }

    private func applying(_ chain: [SyncFormat.Change], to last: MirrorFolder.Record, head: SyncFormat.Head) async throws -> MirrorFolder.Record {
        var (files, buckets) = (last.files, last.buckets)
        for change in chain {
            let list = try await fetcher.document(SyncFormat.ChangeList.self, at: change.url, expected: (change.size, change.sha256))
            for path in list.removed { files[path] = nil }
            for file in list.changed { files[file.path] = .init(size: file.size, sha256: file.sha256) }
            // The buckets the list touched take their new digests; without them (an older site), no digest is
            // known to still hold, and a later walk of the tree fetches every bucket.
            if let touched = list.buckets, !touched.isEmpty {
                for bucket in touched { buckets[bucket.bucket] = bucket.sha256 }
            } else {
                buckets = [:]
            }
        }
        return MirrorFolder.Record(build: head.build, root: head.root, files: files, buckets: buckets)
    }

    private func walkingTree(of head: SyncFormat.Head, last: MirrorFolder.Record?) async throws -> MirrorFolder.Record {
        let tree = try await fetcher.document(SyncFormat.Tree.self, at: head.tree.url, expected: (head.tree.size, head.tree.sha256))
        var files: [String: MirrorFolder.Record.Entry] = [:]
        var buckets: [String: String] = [:]
        // A bucket whose digest the mirror recorded holds the same files: the mirror's own.
        let kept = Set(tree.buckets.filter { last?.buckets[$0.bucket] == $0.sha256 }.map(\.bucket))
        if let last, !kept.isEmpty {
            let digits = tree.buckets.first?.bucket.count ?? 1
            for (path, entry) in last.files where kept.contains(String(Fetcher.sha256(Data(path.utf8)).prefix(digits))) { files[path] = entry }
        }
        let fetched = try await inParallel(tree.buckets.filter { !kept.contains($0.bucket) }) { bucket in
            try await fetcher.document(SyncFormat.BucketFiles.self, at: bucket.url, expected: (bucket.size, bucket.sha256)).files
        }
        for file in fetched.joined() { files[file.path] = .init(size: file.size, sha256: file.sha256) }
        for bucket in tree.buckets { buckets[bucket.bucket] = bucket.sha256 }
        return MirrorFolder.Record(build: head.build, root: head.root, files: files, buckets: buckets)
    }

    /// Every file of `target` into the incoming snapshot: kept when it is there already, linked from the
    /// current snapshot when that has it with the same digest, fetched otherwise.
    private func fetchMissing(_ target: MirrorFolder.Record, last: MirrorFolder.Record?, journal: PathJournal) async throws {
        let missing = target.files.sorted(by: { $0.key < $1.key }).filter { path, entry in !mirror.incomingHolds(path, entry) }
        // Noted in one write before any of them is put there.
        try mirror.note(missing.map { MirrorFolder.local($0.key) }, in: journal)
        var toFetch: [(String, MirrorFolder.Record.Entry)] = []
        let snapshot = mirror.currentSnapshot
        for (path, entry) in missing {
            if last?.files[path] == entry, let snapshot, mirror.linkFromCurrent(path, in: snapshot) { continue }
            toFetch.append((path, entry))
        }
        _ = try await inParallel(toFetch) { path, entry in
            try mirror.write(try await fetcher.fetch(path, expected: (entry.size, entry.sha256)), at: path)
        }
    }

    /// `work` over `items`, `parallelFetches` at a time, results in the items' order. After a failure no more
    /// are started, and those in flight are waited for, not cancelled (a sync whose tree bucket failed its digest
    /// once hung on a cancelled fetch that FoundationNetworking on Linux never ended), so the first failure is
    /// thrown once they are done.
    private func inParallel<Item: Sendable, Made: Sendable>(_ items: [Item], _ work: @escaping @Sendable (Item) async throws -> Made) async throws -> [Made] {
        let outcome = await withTaskGroup(of: (Int, Result<Made, any Error>).self) { group -> Result<[Made], any Error> in
            var made: [Made?] = Array(repeating: nil, count: items.count)
            var failure: (any Error)?
            var next = 0
            func startNext() {
                let index = next, item = items[index]
                group.addTask {
                    do { return (index, .success(try await work(item))) } catch { return (index, .failure(error)) }
                }
                next += 1
            }
            while next < min(parallelFetches, items.count) { startNext() }
            while let (index, result) = await group.next() {
                switch result {
                case .success(let value): made[index] = value
                case .failure(let error): failure = failure ?? error
                }
                if failure == nil, next < items.count { startNext() }
            }
            return failure.map { .failure($0) } ?? .success(made.map { $0! })
        }
        return try outcome.get()
    }
}
