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
    /// `incoming/`, whose folders stay open for the files that share them while a sync fills it (`FolderBeneath`);
    /// released when it is renamed into `snapshots/`, and as the sync ends.
    let incomingFolder: FolderBeneath

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
        incomingFolder = FolderBeneath(folder.appendingPathComponent("incoming").path)
    }

    /// Why a sync leaves a folder alone: it removes files only in what it made, so it writes only into a
    /// folder that is new, empty, or one it made.
    public enum Refusal: Error, CustomStringConvertible {
        case notAMirror(String)
        case unexpected(String, expected: String)
        /// Someone put files in `incoming/` while the sync filled it, or it could not be opened to be checked as the
        /// sync finished; it was kept aside, and nothing published.
        case filledMeanwhile(KeptFolder)

        public var description: String {
            switch self {
            case .notAMirror(let path):
                "\(path) holds files that noticeboard sync did not make; a sync removes what it no longer needs in its folder, so name a new or empty folder, or one an earlier sync made"
            case .unexpected(let path, let expected):
                "\(path) is not what noticeboard sync makes there (\(expected)); move it away and sync again"
            case .filledMeanwhile(let kept) where kept.unchecked != nil:
                "the mirror's incoming/ could not be checked as the sync finished: \(kept.note); sync again"
            case .filledMeanwhile(let kept):
                "files were put in the mirror's incoming/ while the sync filled it: \(kept.note); sync again"
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
    /// An `incoming/` holding anything no sync put there (`incomingStrangers(among:)`: someone's files, or all of an
    /// interrupted sync's of a version before the journal), or that cannot be opened to be listed, is moved aside
    /// whole, and returned.
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
        for link in [current, folder.appendingPathComponent(".current.new")] {
            if let target = try? manager.destinationOfSymbolicLink(atPath: link.path), Self.snapshotName(linkedAs: target) == nil {
                throw Refusal.unexpected(link.path, expected: Entry.link.description)
            }
        }
        if Self.entry(marker) != .file {
            try Data("A mirror made by noticeboard sync: current links to the last complete snapshot.\n".utf8).write(to: marker)
        }
        guard case .keptAside(let kept) = try checkIncoming() else { return nil }
        return kept
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
    var incomingJournal: URL { incoming.appendingPathComponent(Self.incomingJournalName) }
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
        do {
            return try PathJournal(at: incomingJournal.path)
        } catch {
            throw CocoaError(error)
        }
    }

    /// Notes in the incoming snapshot's journal the `paths` (relative to the snapshot) about to be put there.
    func note(_ paths: some Sequence<String>, in journal: PathJournal) throws {
        do {
            try journal.note(paths)
        } catch {
            throw CocoaError(error)
        }
    }

    private static let partSuffix = ".part"

    /// The path a file being written under its temporary name (`cleaners/.x.json.part`) will have; any other as it is.
    static func finalPath(of path: String) -> String {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? ""
        guard name.hasPrefix("."), name.hasSuffix(partSuffix), name.count > 1 + partSuffix.count else { return path }
        return String(path.dropLast(name.count)) + name.dropFirst().dropLast(partSuffix.count)
    }

    /// Whether the incoming snapshot already holds the file with this digest (left by an interrupted sync, or
    /// linked from the current one).
    func incomingHolds(_ path: String, _ entry: Record.Entry) -> Bool {
        // By its path in one `lstat`: a `URL` made with `appendingPathComponent` asks the disk whether it is a folder.
        let file = incoming.path + "/" + Self.local(path)
        var info = stat()
        guard lstat(file, &info) == 0, info.st_mode & S_IFMT == S_IFREG, Int(info.st_size) == entry.size,
            let data = FileManager.default.contents(atPath: file)
        else { return false }
        return Fetcher.sha256(data) == entry.sha256
    }

    /// The current snapshot, where `current` leads (`snapshots/<name>`, as a sync makes it); nil when there is none,
    /// or `current` leads anywhere else (then every file is fetched).
    var currentSnapshot: CurrentSnapshot? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path) else { return nil }
        let parts = target.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0] == "snapshots", !["", ".", ".."].contains(parts[1]) else { return nil }
        return CurrentSnapshot(mirror: FolderBeneath(folder.path), path: target)
    }

    /// The current snapshot's files, reached from the mirror's folder a folder at a time, `snapshots/` among them, so
    /// that no link on the way is followed.
    struct CurrentSnapshot: Sendable {
        let mirror: FolderBeneath
        /// `snapshots/<name>`, below the mirror's folder.
        let path: String
    }

    /// Hard-links the copy in `snapshot` (`currentSnapshot`) into the incoming snapshot; false when there is none to
    /// link, or it is not a plain file in that snapshot (then it is fetched).
    func linkFromCurrent(_ path: String, in snapshot: CurrentSnapshot) -> Bool {
        // Only a plain file reached with no link on the way (Linux links a link as a link, and follows a folder's),
        // linked from the folder that holds it. What is at the target goes first: an interrupted sync's file, noted.
        let local = Self.local(path)
        return (try? incomingFolder.link(local, toFileAt: snapshot.path + "/" + local, beneath: snapshot.mirror)) == true
    }

    /// Writes a file into the incoming snapshot through a temporary file and a rename, so a file shared
    /// with the current snapshot by a hard link is replaced, never written into. The file and the folders on its
    /// way are reached beneath `incoming/` without following a link (`FolderBeneath`): one met is refused.
    func write(_ data: Data, at path: String) throws {
        let local = Self.local(path)
        let name = local.split(separator: "/").last.map(String.init) ?? local
        do {
            try incomingFolder.write(data, at: local, temporary: ".\(name)\(Self.partSuffix)")
        } catch {
            guard error.code == ELOOP || error.code == ENOTDIR else { throw CocoaError(error) }
            throw Refusal.unexpected(error.path, expected: "a folder a sync made, not a link or a file")
        }
    }

    /// Writes the record into the incoming snapshot, renames the snapshot into place and points `current` at it.
    /// Refuses when `incoming/` holds anything no sync put there, or cannot be opened to be listed (moved aside
    /// first: `checkIncoming`), and removes what a sync put there that the record does not list. The snapshot it
    /// replaces (whose record is `replaced`) is removed last, unless it holds files that record does not list, or
    /// cannot be opened to be listed: then it is kept, and returned, as is one found at the new snapshot's name
    /// (`clearName`).
    func commit(_ record: Record, replacing replaced: Record?, journal: PathJournal) throws -> [KeptFolder] {
        let files: [String]
        switch try checkIncoming() {
        case .own(let own): files = own
        case .keptAside(let kept): throw Refusal.filledMeanwhile(kept)
        }
        let wanted = Set(record.files.keys.map(Self.local)).union([Self.recordName, Self.incomingJournalName])
        FolderFiles.remove(files.filter { !wanted.contains($0) }, below: incoming.path, emptiedFolders: false)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try note([Self.recordName], in: journal)
        try write(try encoder.encode(record), at: Self.recordName)
        let name = "\(record.build)-\(record.root.prefix(16))"
        let snapshot = snapshots.appendingPathComponent(name)
        var kept = try clearName(snapshot).map { [$0] } ?? []
        try FileManager.default.moveItem(at: incoming, to: snapshot)
        incomingFolder.release()
        // Its journal goes with it, until now: a sync cut short before this finds it there, not a snapshot's stranger.
        unlink(snapshot.appendingPathComponent(Self.incomingJournalName).path)
        let previous = try? FileManager.default.destinationOfSymbolicLink(atPath: current.path)
        let link = folder.appendingPathComponent(".current.new")
        if Self.entry(link) == .link { unlink(link.path) }
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "snapshots/\(name)")
        guard rename(link.path, current.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        // Only a snapshot this mirror made goes: `claim` checked the link, and checks it again here.
        guard let previous, let previousName = Self.snapshotName(linkedAs: previous), previousName != name else { return kept }
        kept += removeSnapshot(snapshots.appendingPathComponent(previousName), record: replaced).map { [$0] } ?? []
        return kept
    }
}
