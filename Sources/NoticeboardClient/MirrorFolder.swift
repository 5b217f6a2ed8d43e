import Foundation
import PathJournal

/// A local copy of a site's synced files, kept as complete snapshots: `DIR/current` is a symbolic link to
/// `snapshots/<root>/`, whose files are those below the site's `api/` (`index.json`, `cleaners/…`) and a
/// record of them (`.noticeboard-mirror.json`). A sync makes the next snapshot in `incoming/` (unchanged files
/// hard-linked from the current one, so it costs only what changed), then renames it into `snapshots/` and
/// swaps `current` in one rename: a sync killed at any point leaves `current` the last complete mirror,
/// and the next sync keeps what `incoming/` already holds with the right digest.
public struct MirrorFolder: Sendable {
    public let folder: URL
    static let recordName = ".noticeboard-mirror.json"

    /// What a snapshot holds, by path below the site's root.
    public struct Record: Codable, Sendable {
        public var build: Int
        public var root: String
        public var files: [String: Entry]
        /// The digests of the tree's buckets, from walking the tree and kept up by the change lists since.
        public var buckets: [String: String]

        public struct Entry: Codable, Sendable, Equatable {
            public var size: Int
            public var sha256: String
        }
    }

    public init(folder: URL) {
        self.folder = folder
    }

    /// Why a sync leaves a folder alone: it removes files only in what it made, so it writes only into a
    /// folder that is new, empty, or one it made.
    public enum Refusal: Error, CustomStringConvertible {
        case notAMirror(String)
        case unexpected(String, expected: String)

        public var description: String {
            switch self {
            case .notAMirror(let path):
                "\(path) holds files that noticeboard sync did not make; a sync removes what it no longer needs in its folder, so name a new or empty folder, or one an earlier sync made"
            case .unexpected(let path, let expected):
                "\(path) is not what noticeboard sync makes there (\(expected)); move it away and sync again"
            }
        }
    }

    /// The file that marks a folder as a mirror, written before anything else.
    static let markerName = ".noticeboard-mirror"
    /// In `incoming/`, kept by each sync that fills it (`PathJournal`) and taken out once it is a snapshot.
    static let incomingJournalName = ".noticeboard-incoming"
    /// What a sync makes in its folder, besides the marker.
    static let ownNames: Set<String> = ["current", ".current.new", "incoming", "snapshots"]

    /// Checks, before anything is fetched or written, that the folder is a mirror (or new or empty, and then
    /// marks it as one), and that what a sync makes in it is what it made: real folders for `incoming` and
    /// `snapshots`, a link to `snapshots/<name>` for `current`. A mirror made before the marker existed is
    /// known by holding only those entries, with a snapshot record that `current` leads to, and is marked.
    /// An `incoming/` no sync journaled (someone's, or an interrupted sync's of a version before the journal) is
    /// moved aside whole, and returned.
    @discardableResult
    public func claim() throws -> KeptFolder? {
        let manager = FileManager.default
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
        let marker = folder.appendingPathComponent(Self.markerName)
        if Self.entry(marker) != .file {
            let names = Set(try manager.contentsOfDirectory(atPath: folder.path))
            let isEarlierMirror = names.isSubset(of: Self.ownNames) && record() != nil
            guard names.isEmpty || isEarlierMirror else { throw Refusal.notAMirror(folder.path) }
        }
        for (name, expected) in [("incoming", Entry.folder), ("snapshots", .folder), ("current", .link), (".current.new", .link)] {
            let path = folder.appendingPathComponent(name)
            let found = Self.entry(path)
            guard found == nil || found == expected else { throw Refusal.unexpected(path.path, expected: expected.description) }
        }
        if let target = try? manager.destinationOfSymbolicLink(atPath: current.path), Self.snapshotName(linkedAs: target) == nil {
            throw Refusal.unexpected(current.path, expected: Entry.link.description)
        }
        if Self.entry(marker) != .file {
            try Data("A mirror made by noticeboard sync: current links to the last complete snapshot.\n".utf8).write(to: marker)
        }
        guard Self.entry(incoming) == .folder, Self.entry(incomingJournal) != .file,
            let names = try? manager.contentsOfDirectory(atPath: incoming.path), !names.isEmpty  // empty: a sync cut short made it
        else { return nil }
        let aside = Self.unusedName(folder.appendingPathComponent("incoming.kept"))
        try manager.moveItem(at: incoming, to: aside)
        return KeptFolder(folder: aside.path, strangers: FolderFiles.below(aside.path).sorted())
    }

    /// Removes what syncs made in the folder when none of them completed (no `current` snapshot), for a sync that
    /// failed in a folder it made. An `incoming/` or a snapshot that holds files no sync wrote stays, and so does
    /// the marker beside it.
    func removeUnfinished() {
        guard Self.entry(current) == nil else { return }
        if Self.entry(incoming) == .folder, incomingStrangers().isEmpty { try? FileManager.default.removeItem(at: incoming) }
        if Self.entry(snapshots) == .folder {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: snapshots.path)) ?? [] {
                let snapshot = snapshots.appendingPathComponent(name)
                if Self.entry(snapshot) == .folder { _ = removeSnapshot(snapshot, record: Self.record(in: snapshot)) }
            }
            rmdir(snapshots.path)
        }
        let newLink = folder.appendingPathComponent(".current.new")
        if Self.entry(newLink) == .link { unlink(newLink.path) }
        if (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) == [Self.markerName] {
            unlink(folder.appendingPathComponent(Self.markerName).path)
        }
    }

    /// The files in `incoming/` that no sync noted in its journal before writing them (all, when it has none).
    private func incomingStrangers() -> [String] {
        let noted = PathJournal.paths(at: incomingJournal.path) ?? []
        return FolderFiles.below(incoming.path).filter { $0 != Self.incomingJournalName && !noted.contains(Self.finalPath(of: $0)) }
    }

    /// The snapshot a `current` link made by a sync names (`snapshots/<name>`); nil for any other link.
    static func snapshotName(linkedAs target: String) -> String? {
        let parts = target.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "snapshots", !parts[1].isEmpty, parts[1] != ".", parts[1] != ".." else { return nil }
        return String(parts[1])
    }

    enum Entry: CustomStringConvertible {
        case file, folder, link, other

        var description: String {
            switch self {
            case .file: "a file"
            case .folder: "a folder"
            case .link: "a symbolic link to snapshots/<name>"
            case .other: "something else"
            }
        }
    }

    /// What is at `url`, links not followed; nil when nothing is.
    static func entry(_ url: URL) -> Entry? {
        var info = stat()
        guard lstat(url.path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        case S_IFLNK: return .link
        default: return .other
        }
    }

    /// The folder holding the current snapshot's files (those below the site's `api/`).
    public var current: URL { folder.appendingPathComponent("current") }
    var incoming: URL { folder.appendingPathComponent("incoming") }
    private var incomingJournal: URL { incoming.appendingPathComponent(Self.incomingJournalName) }
    var snapshots: URL { folder.appendingPathComponent("snapshots") }

    /// The current snapshot's record; nil when there is none yet.
    public func record() -> Record? {
        Self.record(in: current)
    }

    /// The record of the snapshot at `snapshot`; nil when it has none that reads.
    static func record(in snapshot: URL) -> Record? {
        guard let data = FileManager.default.contents(atPath: snapshot.appendingPathComponent(recordName).path) else { return nil }
        return try? JSONDecoder().decode(Record.self, from: data)
    }

    /// The decoded document at a path below the site's `api/` (`cleaners/page/1.json`), from the current snapshot.
    public func document<Document: Decodable>(_ type: Document.Type, at path: String) throws -> Document {
        try JSONDecoder().decode(type, from: Data(contentsOf: current.appendingPathComponent(path)))
    }

    /// Where a synced file (`api/cleaners/x.json`) lives in a snapshot.
    static func local(_ path: String) -> String {
        path.hasPrefix("api/") ? String(path.dropFirst(4)) : path
    }

    /// The incoming snapshot, made when missing, and its journal, open; what an interrupted sync left in it stays.
    func prepareIncoming() throws -> PathJournal {
        try FileManager.default.createDirectory(at: incoming, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
        return try PathJournal(at: incomingJournal.path)
    }

    private static let partSuffix = ".part"

    /// The path a file being written under its temporary name (`cleaners/.x.json.part`) will have; any other as it is.
    private static func finalPath(of path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard name.hasPrefix("."), name.hasSuffix(partSuffix), name.count > 1 + partSuffix.count else { return path }
        return String(path.dropLast(name.count)) + name.dropFirst().dropLast(partSuffix.count)
    }

    /// Whether the incoming snapshot already holds the file with this digest (left by an interrupted sync, or
    /// linked from the current one).
    func incomingHolds(_ path: String, _ entry: Record.Entry) -> Bool {
        let file = incoming.appendingPathComponent(Self.local(path))
        guard let size = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.size] as? Int, size == entry.size,
            let data = FileManager.default.contents(atPath: file.path)
        else { return false }
        return Fetcher.sha256(data) == entry.sha256
    }

    /// Hard-links the current snapshot's copy into the incoming one; false when there is none to link.
    func linkFromCurrent(_ path: String) -> Bool {
        let target = incoming.appendingPathComponent(Self.local(path))
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? FileManager.default.removeItem(at: target)
        return link(current.appendingPathComponent(Self.local(path)).path, target.path) == 0
    }

    /// Writes a file into the incoming snapshot through a temporary file and a rename, so a file shared
    /// with the current snapshot by a hard link is replaced, never written into.
    func write(_ data: Data, at path: String) throws {
        let target = incoming.appendingPathComponent(Self.local(path))
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = target.deletingLastPathComponent().appendingPathComponent(".\(target.lastPathComponent)\(Self.partSuffix)")
        try data.write(to: temporary)
        guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
    }

    /// A folder of the mirror that a sync left in place of removing it, as it held files no sync wrote: a snapshot
    /// it replaced or found at its new snapshot's name, or an `incoming/` it did not journal.
    public struct KeptFolder: Sendable, Equatable {
        public var folder: String
        /// Those files, relative to it, sorted.
        public var strangers: [String]

        public var note: String {
            let shown = strangers.prefix(3).joined(separator: ", ") + (strangers.count > 3 ? " and \(strangers.count - 3) more" : "")
            return "\(folder) holds files that no sync wrote (\(shown)), so it was kept rather than removed; move out what you want and delete it"
        }
    }

    /// Removes what the incoming snapshot holds beyond the record's files that a sync put there (a file it did not
    /// note is moved aside, and returned), then writes the record, renames the snapshot into place and points `current` at it. The
    /// snapshot it replaces (whose record is `replaced`) is removed last, unless it holds files that record does not
    /// list: then it is kept, and returned, as is one found at the new snapshot's name (`clearName`).
    func commit(_ record: Record, replacing replaced: Record?, journal: PathJournal) throws -> [KeptFolder] {
        let wanted = Set(record.files.keys.map(Self.local)).union([Self.recordName, Self.incomingJournalName])
        let noted = PathJournal.paths(at: incomingJournal.path) ?? []
        for stray in FolderFiles.below(incoming.path) where !wanted.contains(stray) && noted.contains(Self.finalPath(of: stray)) {
            try FileManager.default.removeItem(at: incoming.appendingPathComponent(stray))
        }
        var kept = try setAsideStrangers(notIn: wanted).map { [$0] } ?? []
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try journal.note([Self.recordName])
        try write(try encoder.encode(record), at: Self.recordName)
        let name = "\(record.build)-\(record.root.prefix(16))"
        let snapshot = snapshots.appendingPathComponent(name)
        kept += try clearName(snapshot).map { [$0] } ?? []
        try FileManager.default.moveItem(at: incoming, to: snapshot)
        // Its journal goes with it, until now: a sync cut short before this finds it there, not a snapshot's stranger.
        try? FileManager.default.removeItem(at: snapshot.appendingPathComponent(Self.incomingJournalName))
        let previous = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path)
        let link = folder.appendingPathComponent(".current.new")
        try? FileManager.default.removeItem(at: link)
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "snapshots/\(name)")
        guard rename(link.path, current.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        // Only a snapshot this mirror made goes: `claim` checked the link, and checks it again here.
        guard let previous, let previousName = Self.snapshotName(linkedAs: previous), previousName != name else { return kept }
        kept += removeSnapshot(snapshots.appendingPathComponent(previousName), record: replaced).map { [$0] } ?? []
        return kept
    }

    /// Moves the files someone put in `incoming/` while a sync filled it (neither noted in its journal nor the
    /// record's) to `incoming.kept-<time>/`, at the same paths, so that they do not become part of the snapshot.
    private func setAsideStrangers(notIn wanted: Set<String>) throws -> KeptFolder? {
        let strangers = incomingStrangers().filter { !wanted.contains($0) }.sorted()
        guard !strangers.isEmpty else { return nil }
        let aside = Self.unusedName(folder.appendingPathComponent("incoming.kept"))
        for path in strangers {
            let target = aside.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.moveItem(at: incoming.appendingPathComponent(path), to: target)
        }
        return KeptFolder(folder: aside.path, strangers: strangers)
    }

    /// `<base>-<time>`, or with `-2`, `-3`… after it when a folder was kept aside under that name already this second.
    private static func unusedName(_ base: URL) -> URL {
        let stamped = base.path + "-\(Int(Date().timeIntervalSince1970))"
        var candidate = stamped, number = 1
        while entry(URL(fileURLWithPath: candidate)) != nil {
            number += 1
            candidate = stamped + "-\(number)"
        }
        return URL(fileURLWithPath: candidate)
    }

    /// Frees the new snapshot's name, where a sync killed after renaming its `incoming/` and before linking it left
    /// one: removed as `removeSnapshot` does, or, when something there is not that sync's (a file its record does
    /// not list, or not a folder), moved aside as `<name>.kept-<time>` and returned.
    private func clearName(_ snapshot: URL) throws -> KeptFolder? {
        guard let found = Self.entry(snapshot) else { return nil }
        let strangers: [String]
        if found == .folder {
            guard let kept = removeSnapshot(snapshot, record: Self.record(in: snapshot)) else { return nil }
            strangers = kept.strangers
        } else {
            strangers = [snapshot.lastPathComponent]
        }
        let aside = Self.unusedName(snapshots.appendingPathComponent("\(snapshot.lastPathComponent).kept"))
        try FileManager.default.moveItem(at: snapshot, to: aside)
        return KeptFolder(folder: aside.path, strangers: strangers)
    }

    /// Removes a snapshot, or keeps it when it holds files its record does not list (or there is no record).
    private func removeSnapshot(_ snapshot: URL, record: Record?) -> KeptFolder? {
        let listed = record.map { Set($0.files.keys.map(Self.local)) } ?? []
        let strangers = FolderFiles.below(snapshot.path).filter { ![Self.recordName, Self.incomingJournalName].contains($0) && !listed.contains($0) }
        guard strangers.isEmpty else { return KeptFolder(folder: snapshot.path, strangers: strangers.sorted()) }
        try? FileManager.default.removeItem(at: snapshot)
        return nil
    }
}
