import Foundation
import PathJournal

/// How a sync tells what it wrote in its mirror from what someone else put there, and leaves the latter alone: it
/// removes its own files one by one, never a folder whole, and keeps aside, with a note, a folder that holds
/// anything else.
extension MirrorFolder {
    /// A folder of the mirror that a sync left in place of removing it, as it held files no sync wrote: a snapshot
    /// it replaced or found at its new snapshot's name, or an `incoming/` holding files no sync noted. Or one it could
    /// not open to look in, which may hold anything.
    public struct KeptFolder: Sendable, Equatable {
        public var folder: String
        /// Those files, relative to it, sorted.
        public var strangers: [String]
        /// Why it could not be looked in, when it could not (the system's words: "Too many open files"); then
        /// `strangers` is empty.
        public var unchecked: String? = nil

        public var note: String {
            let names = strangers.prefix(3).map { Sync.shown(Substring($0)) }
            let shown = names.joined(separator: ", ") + (strangers.count > 3 ? " and \(strangers.count - 3) more" : "")
            let finding = unchecked.map { "could not be checked for files that no sync wrote (\($0))" } ?? "holds files that no sync wrote (\(shown))"
            return "\(Sync.shown(Substring(folder))) \(finding), so it was kept rather than removed; move out what you want and delete it"
        }
    }

    /// What `checkIncoming` found.
    enum IncomingCheck {
        /// The files below `incoming/`, none a stranger; none when there is no `incoming/`.
        case own([String])
        /// `incoming/`, moved aside.
        case keptAside(KeptFolder)
    }

    /// What of `files` (all below `incoming/`) no sync put there: a file not noted in its journal before it was
    /// written (every file when there is no journal, or one that cannot be read), and anything not a plain file (a
    /// sync makes no links).
    func incomingStrangers(among files: [String]) -> [String] {
        let noted = (try? PathJournal.paths(at: incomingJournal.path)) ?? []
        return files.filter { path in
            path != Self.incomingJournalName
                && (!noted.contains(Self.finalPath(of: path)) || Self.entry(incoming.appendingPathComponent(path)) != .file)
        }
    }

    /// Moves `incoming/` aside whole, as `incoming.kept-<time>`, when any of its files is a stranger
    /// (`incomingStrangers`), or when it cannot be opened to be listed (too many files open, no permission): it may
    /// hold anything. Anything at its name but a folder is refused.
    func checkIncoming() throws -> IncomingCheck {
        let files: [String]
        do throws(FileFailure) {
            files = try FolderFiles.below(incoming.path)
        } catch {
            guard Self.entry(incoming) == .folder else { throw Refusal.unexpected(incoming.path, expected: Entry.folder.description) }
            return .keptAside(try keepIncomingAside(KeptFolder(folder: incoming.path, strangers: [], unchecked: error.reason)))
        }
        let strangers = incomingStrangers(among: files)
        guard !strangers.isEmpty else { return .own(files) }
        return .keptAside(try keepIncomingAside(KeptFolder(folder: incoming.path, strangers: strangers.sorted())))
    }

    /// Moves `incoming/` aside, as `incoming.kept-<time>`; returns `kept` naming it there.
    private func keepIncomingAside(_ kept: KeptFolder) throws -> KeptFolder {
        let aside = Self.unusedName(folder.appendingPathComponent("incoming.kept"))
        try FileManager.default.moveItem(at: incoming, to: aside)
        var moved = kept
        moved.folder = aside.path
        return moved
    }

    /// Removes what syncs made in the folder when none of them completed (no `current` snapshot), for a sync that
    /// failed in a folder it made. An `incoming/` or a snapshot that holds files no sync wrote stays, and so does
    /// the marker beside it.
    func removeUnfinished() {
        guard Self.entry(current) == nil else { return }
        // One that cannot be opened to be listed may hold anything, and stays.
        if Self.entry(incoming) == .folder, let files = try? FolderFiles.below(incoming.path), incomingStrangers(among: files).isEmpty {
            FolderFiles.remove(files, below: incoming.path)
        }
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

    /// Frees the new snapshot's name, where a sync killed after renaming its `incoming/` and before linking it left
    /// one: removed as `removeSnapshot` does, or, when it holds a file its record does not list, moved aside as
    /// `<name>.kept-<time>` and returned. Anything there but a folder is refused.
    func clearName(_ snapshot: URL) throws -> KeptFolder? {
        guard let found = Self.entry(snapshot) else { return nil }
        guard found == .folder else { throw Refusal.unexpected(snapshot.path, expected: Entry.folder.description) }
        guard let kept = removeSnapshot(snapshot, record: Self.record(in: snapshot)) else { return nil }
        let aside = Self.unusedName(snapshots.appendingPathComponent("\(snapshot.lastPathComponent).kept"))
        try FileManager.default.moveItem(at: snapshot, to: aside)
        var moved = kept
        moved.folder = aside.path
        return moved
    }

    /// Removes a snapshot's files and folders, or keeps it whole when it holds anything its record does not list
    /// (everything, when it has no record), anything not a plain file, or a file edited since the sync wrote it; or
    /// when it cannot be opened to be listed (a link or a file at its name, too many files open): it may hold anything.
    func removeSnapshot(_ snapshot: URL, record: Record?) -> KeptFolder? {
        let recorded = Dictionary(uniqueKeysWithValues: (record?.files ?? [:]).map { (Self.local($0.key), $0.value) })
        let own: Set<String> = [Self.recordName, Self.incomingJournalName]
        let files: [String]
        do throws(FileFailure) {
            files = try FolderFiles.below(snapshot.path)
        } catch {
            return KeptFolder(folder: snapshot.path, strangers: [], unchecked: error.reason)
        }
        let strangers = files.filter { path in
            if own.contains(path) { return false }
            guard let entry = recorded[path] else { return true }
            return !Self.holdsAsSynced(snapshot.appendingPathComponent(path), entry)
        }
        guard strangers.isEmpty else { return KeptFolder(folder: snapshot.path, strangers: strangers.sorted()) }
        FolderFiles.remove(files, below: snapshot.path)
        return nil
    }

    /// Whether the file at `file` is a plain file as the sync wrote it. One the next snapshot shares (a hard link,
    /// for a file the build left unchanged) is not lost with this one, so only its kind is looked at; one it does
    /// not share goes from the disk, so it must still hold the record's bytes, or it is someone's edit. Reading
    /// only those keeps the cost to what changed.
    private static func holdsAsSynced(_ file: URL, _ entry: Record.Entry) -> Bool {
        var info = stat()
        guard lstat(file.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        guard info.st_nlink == 1 else { return true }
        guard Int(info.st_size) == entry.size, let data = FileManager.default.contents(atPath: file.path) else { return false }
        return Fetcher.sha256(data) == entry.sha256
    }

    /// `<base>-<time>`, or with `-2`, `-3`… after it when a folder was kept aside under that name already this second.
    static func unusedName(_ base: URL) -> URL {
        let stamped = base.path + "-\(Int(Date().timeIntervalSince1970))"
        var candidate = stamped, number = 1
        while entry(URL(fileURLWithPath: candidate)) != nil {
            number += 1
            candidate = stamped + "-\(number)"
        }
        return URL(fileURLWithPath: candidate)
    }
}

extension CocoaError {
    /// The journal's failure as the client's other file errors are: a Cocoa error naming the file, with the
    /// system's own beneath it.
    init(_ failure: FileFailure) {
        let code: CocoaError.Code = switch failure.code {
        case EACCES, EPERM: .fileWriteNoPermission
        case ENOSPC, EDQUOT: .fileWriteOutOfSpace
        case EROFS: .fileWriteVolumeReadOnly
        case ENOENT, ENOTDIR: .fileNoSuchFile
        default: .fileWriteUnknown
        }
        var info: [String: Any] = [NSFilePathErrorKey: failure.path]
        if let posix = POSIXErrorCode(rawValue: failure.code) { info[NSUnderlyingErrorKey] = POSIXError(posix) }
        self.init(code, userInfo: info)
    }
}
