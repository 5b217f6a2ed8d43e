import Foundation
import Support
import Synchronization

/// Type, size and modification time of every entry below the folders a build reads, to tell cheaply whether
/// anything changed.
public struct InputStamps: Sendable, Equatable {
    /// Relative path → its stamp's text (`InputStamp`).
    public var stamps: [String: String] { table.stamps.mapValues(\.description) }
    /// How many entries there are.
    public let count: Int
    /// The stamps' digest, which the build record keeps to tell whether anything changed.
    public let digest: StampsDigest
    private let table: StampTable

    /// Stamps as the build record writes them.
    public init(stamps: [String: String]) {
        let stamps = stamps.mapValues(InputStamp.init(text:))
        table = StampTable(keyed: stamps)
        count = stamps.count
        digest = stamps.reduce(into: StampsDigest()) { $0.add(path: $1.key, stamp: $1.value) }
    }

    /// Every entry below the given folders of the site. Symbolic links count by where they point and what
    /// they point at, and named pipes and devices count too: the build refuses those that lead outside or
    /// cannot be read, and adding one after a good build must make the next build run and say so.
    public static func scan(_ files: SiteFiles, folders: [String]) -> InputStamps {
        var scanned = Scanned()
        for folder in folders { scan(files.absolute(folder), relative: folder, into: &scanned) }
        return InputStamps(scanned)
    }

    private init(_ scanned: Scanned) {
        var entries = scanned.entries
        entries.shrinkToFit()
        table = StampTable(listed: entries)
        count = entries.count
        digest = scanned.digest
    }

    /// These stamps with the entries at `paths` (relative to the site; a file, or a folder and all below it)
    /// scanned again: serve's watcher does this with the entries inotify names, rather than a `stat` of every
    /// input (twice per edit, 2 to 4 seconds at 430,000 listings). A file that changed keeps its place in the
    /// walk order, so `changedPaths(since:)` still finds it in place; entries that come are listed last.
    public func rescanning(_ paths: Set<String>, in files: SiteFiles) -> InputStamps {
        // A path below another one given is scanned with it.
        let paths = paths.filter { path in !paths.contains { path.hasPrefix($0 + "/") } }
        var rescanned = Scanned()
        for path in paths { Self.scanEntry(files.absolute(path), relative: path, into: &rescanned) }
        var fresh = rescanned.entries.table
        var entries = table.entries, digest = self.digest, dropped: Set<Int> = []
        func rescan(at index: Int) {
            let (path, stamp) = entries[index]
            digest.remove(path: path, stamp: stamp)
            if let now = fresh.removeValue(forKey: path) {
                entries.setStamp(now, at: index)
                digest.add(path: path, stamp: now)
            } else {
                dropped.insert(index)
            }
        }
        var matched: Set<String> = []
        for index in entries.indices {
            let path = entries.paths[index]
            if paths.contains(path) {
                matched.insert(path)
                rescan(at: index)
            }
        }
        // A path that was no file may have been a folder, with entries below it.
        let folders = paths.subtracting(matched).map { $0 + "/" }
        if !folders.isEmpty {
            for index in entries.indices where folders.contains(where: entries.paths[index].hasPrefix) { rescan(at: index) }
        }
        if !dropped.isEmpty { entries = entries.removing(dropped) }
        for index in rescanned.entries.indices {
            let (path, stamp) = rescanned.entries[index]
            guard fresh[path] == stamp else { continue }
            entries.append(path, stamp)
            digest.add(path: path, stamp: stamp)
        }
        return InputStamps(entries: entries, digest: digest)
    }

    private init(entries: StampList, digest: StampsDigest) {
        var entries = entries
        entries.shrinkToFit()
        table = StampTable(listed: entries)
        count = entries.count
        self.digest = digest
    }

    /// Whether an entry is a symbolic link, whose target may change anywhere, where no folder event shows it.
    public var hasLinks: Bool {
        table.listed?.stamps.contains { $0.isLink } ?? table.stamps.values.contains { $0.isLink }
    }

    /// Two scans that listed the same bytes are equal without a table of either.
    public static func == (left: InputStamps, right: InputStamps) -> Bool {
        guard left.digest == right.digest else { return false }
        if let listed = left.table.listed, listed == right.table.listed { return true }
        return left.table.stamps == right.table.stamps
    }

    /// The paths whose stamps differ from the `last` ones, or that it does not have (not those gone since).
    /// Two scans of the same folders list their entries in the same order while no name comes or goes, so
    /// each is compared with the one at its place in the last list, and looked up in its table only when the
    /// bytes of the names differ, or the last stamps are a build record's: an edit in `serve` looked up all
    /// 430,000 in a third of a second.
    public func changedPaths(since last: InputStamps) -> [String] {
        changedEntries(since: last).map(\.path)
    }

    /// The entries whose stamps differ from the `last` ones, or that it does not have, with their stamps.
    public func changedEntries(since last: InputStamps) -> [(path: String, stamp: String)] {
        let entries = table.entries, lastEntries = last.table.listed ?? StampList()
        var changed: [(path: String, stamp: String)] = []
        for (index, stamp) in entries.stamps.enumerated() {
            if index < lastEntries.count, lastEntries.paths.hasSameBytes(at: index, as: entries.paths, at: index) {
                if lastEntries.stamps[index] != stamp { changed.append((entries.paths[index], stamp.description)) }
            } else {
                let path = entries.paths[index]
                if last.table.stamps[path] != stamp { changed.append((path, stamp.description)) }
            }
        }
        return changed
    }

    /// Calls `body` with every path's bytes and its stamp, in the order `String` sorts the paths, as the build
    /// record lists them. The record is written at the build's peak, where a string made for each path was
    /// 35 MB more at 430,000 inputs.
    public func forEachSorted(_ body: (ArraySlice<UInt8>, InputStamp) -> Void) {
        let entries = table.entries
        for index in entries.paths.sortedIndices() { body(entries.paths.bytes(at: index), entries.stamps[index]) }
    }

    /// The stamps as scanned, put in a table the first time they are asked for: a no-change rebuild needs
    /// only their count and digest, and making the table was a tenth of the scan at 430,000 files.
    private final class StampTable: Sendable {
        /// In the order of the walk that listed them; nil for stamps given as a table (a build record's).
        let listed: StampList?
        private let table: Mutex<[String: InputStamp]?>

        init(listed entries: StampList) {
            listed = entries
            table = Mutex(nil)
        }

        init(keyed stamps: [String: InputStamp]) {
            listed = nil
            table = Mutex(stamps)
        }

        /// In the walk's order when listed; otherwise in the table's.
        var entries: StampList {
            listed ?? StampList(stamps)
        }

        var stamps: [String: InputStamp] {
            table.withLock { table in
                if let table { return table }
                // Without a table, the stamps are listed.
                let stamps = (listed ?? StampList()).table
                table = stamps
                return stamps
            }
        }
    }

    /// The stamps and their digest, made together while scanning. The stamps are listed, then put in a table
    /// of the right size at once when asked for: growing it entry by entry took a quarter of the scan at
    /// 430,000 files.
    private struct Scanned {
        var entries = StampList()
        var digest = StampsDigest()

        mutating func record(_ path: String, _ stamp: InputStamp) {
            entries.append(path, stamp)
            digest.add(path: path, stamp: stamp)
        }

        /// Those of `other`, listed after these.
        mutating func append(_ other: Scanned) {
            entries.append(contentsOf: other.entries)
            digest.add(other.digest)
        }
    }

    /// One folder's entries and those below it, links not followed. Each folder is read once and each entry
    /// looked up relative to it: this runs before every build, over tens of thousands of files on a large
    /// site, and walking with FileManager and then stat-ing whole paths took a third of a no-change rebuild.
    private static func scan(_ path: String, relative: String, into scanned: inout Scanned) {
        // An entry that cannot be read still counts, so that making it readable (or not) starts a build, which
        // reports it; a folder is only read when it can also be entered.
        guard access(path, R_OK | X_OK) == 0, let folder = opendir(path) else {
            scanned.record(relative, InputStamp(text: "unreadable \(errno)"))
            return
        }
        defer { closedir(folder) }
        let names: [String]
        // A listing that fails part way counts as unreadable, not as the entries before the failure: those may be
        // what the last build saw, and the build would be skipped.
        do throws(SiteFiles.FolderFailure) { names = try SiteFiles.entryNames(of: folder) } catch {
            scanned.record(relative, InputStamp(text: "unreadable \(error.reason)"))
            return
        }
        let descriptor = dirfd(folder)
        @Sendable func scanEntries(_ names: ArraySlice<String>, into scanned: inout Scanned) {
            for name in names {
                var info = stat()
                let found = fstatat(descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0
                record(path + "/" + name, relative: relative + "/" + name, info: found ? info : nil, into: &scanned)
            }
        }
        // A kind's folder may hold 200,000 listings: their entries are looked up on every core, in runs
        // listed in the order read.
        guard names.count > Self.entriesPerRun else { return scanEntries(names[...], into: &scanned) }
        let runs = names.indices.runs(of: Self.entriesPerRun).parallelMap { run in
            var part = Scanned()
            scanEntries(names[run], into: &part)
            return part
        }
        for part in runs { scanned.append(part) }
    }

    private static let entriesPerRun = 8192

    /// One entry as a scan of its folder would list it; nothing when it is not there.
    private static func scanEntry(_ path: String, relative: String, into scanned: inout Scanned) {
        var info = stat()
        let found = lstat(path, &info) == 0
        if found || errno != ENOENT { record(path, relative: relative, info: found ? info : nil, into: &scanned) }
    }

    /// An entry whose `lstat` gave `info` (nil when it failed, `errno` says why); a folder's entries below it.
    /// `path` is made only for a folder or a link: most entries are files, and a scan meets each one.
    private static func record(_ path: @autoclosure () -> String, relative: String, info: stat?, into scanned: inout Scanned) {
        guard let info else {
            scanned.record(relative, InputStamp(text: "unreadable \(errno)"))
            return
        }
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            scan(path(), relative: relative, into: &scanned)
        case S_IFLNK:
            let path = path()
            let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? ""
            var resolved = stat()
            let pointedAt = stat(path, &resolved) == 0 ? InputStamp(resolved).description : "missing"
            scanned.record(relative, InputStamp(text: "link \(target) \(pointedAt)"))
        default:
            scanned.record(relative, InputStamp(info))
        }
    }
}
