import Foundation
import Synchronization

/// Type, size and modification time of every entry below the folders a build reads, to tell cheaply whether
/// anything changed.
public struct InputStamps: Sendable, Equatable {
    /// Relative path → "type size mtime-nanoseconds", after "link <target>" for a symbolic link.
    public var stamps: [String: String] { table.stamps }
    /// How many entries there are.
    public let count: Int
    /// The stamps' digest, which the build record keeps to tell whether anything changed.
    public let digest: StampsDigest
    private let table: StampTable

    public init(stamps: [String: String]) {
        table = StampTable(stamps)
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
        table = StampTable(listed: scanned.entries)
        count = scanned.entries.count
        digest = scanned.digest
    }

    public static func == (left: InputStamps, right: InputStamps) -> Bool {
        left.digest == right.digest && left.stamps == right.stamps
    }

    /// The paths whose stamps differ from the `last` ones, or that it does not have (not those gone since).
    /// Two scans of the same folders list their entries in the same order while no name comes or goes, so
    /// each is compared with the one at its place in the last list, and looked up in its table only when the
    /// names differ: an edit in `serve` looked up all 430,000 in a third of a second.
    public func changedPaths(since last: InputStamps) -> [String] {
        let entries = table.entries, lastEntries = last.table.entries
        var changed: [String] = []
        for (index, (path, stamp)) in entries.enumerated() {
            if index < lastEntries.count, lastEntries[index].0 == path {
                if lastEntries[index].1 != stamp { changed.append(path) }
            } else if last.stamps[path] != stamp {
                changed.append(path)
            }
        }
        return changed
    }

    /// Every path and its stamp, sorted by path.
    public var sorted: [(path: String, stamp: String)] {
        table.entries.sorted { $0.0 < $1.0 }.map { (path: $0.0, stamp: $0.1) }
    }

    /// The stamps as scanned, put in a table the first time they are asked for: a no-change rebuild needs
    /// only their count and digest, and making the table was a tenth of the scan at 430,000 files.
    private final class StampTable: Sendable {
        /// In the order of the walk that listed them (of the table, for stamps given as one).
        let entries: [(String, String)]
        private let table: Mutex<[String: String]?>

        init(listed entries: [(String, String)]) {
            self.entries = entries
            table = Mutex(nil)
        }

        init(_ stamps: [String: String]) {
            entries = stamps.map { ($0.key, $0.value) }
            table = Mutex(stamps)
        }

        var stamps: [String: String] {
            table.withLock { table in
                if let table { return table }
                // Paths from one walk of the folders are unique.
                let stamps = Dictionary(entries, uniquingKeysWith: { $1 })
                table = stamps
                return stamps
            }
        }
    }

    /// The stamps and their digest, made together while scanning. The stamps are listed, then put in a table
    /// of the right size at once when asked for: growing it entry by entry took a quarter of the scan at
    /// 430,000 files.
    private struct Scanned {
        // Unlabelled, as `Dictionary(_:uniquingKeysWith:)` takes them: labels made it copy the list first.
        var entries: [(String, String)] = []
        var digest = StampsDigest()

        mutating func record(_ path: String, _ stamp: String) {
            entries.append((path, stamp))
            digest.add(path: path, stamp: stamp)
        }
    }

    /// One folder's entries and those below it, links not followed. Each folder is read once and each entry
    /// looked up relative to it: this runs before every build, over tens of thousands of files on a large
    /// site, and walking with FileManager and then stat-ing whole paths took a third of a no-change rebuild.
    private static func scan(_ path: String, relative: String, into scanned: inout Scanned) {
        // An entry that cannot be read still counts, so that making it readable (or not) starts a build, which
        // reports it; a folder is only read when it can also be entered.
        guard access(path, R_OK | X_OK) == 0, let folder = opendir(path) else {
            scanned.record(relative, "unreadable \(errno)")
            return
        }
        defer { closedir(folder) }
        while let entry = readdir(folder) {
            let name = SiteFiles.name(of: entry)
            if name == "." || name == ".." { continue }
            let entryRelative = relative + "/" + name
            var info = stat()
            guard fstatat(dirfd(folder), name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
                scanned.record(entryRelative, "unreadable \(errno)")
                continue
            }
            // The whole path only for what is followed: most entries are files.
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                scan(path + "/" + name, relative: entryRelative, into: &scanned)
            case S_IFLNK:
                let entryPath = path + "/" + name
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: entryPath)) ?? ""
                var resolved = stat()
                scanned.record(entryRelative, "link \(target) " + (stat(entryPath, &resolved) == 0 ? stamp(resolved) : "missing"))
            default:
                scanned.record(entryRelative, stamp(info))
            }
        }
    }

    /// Type, size, modification time and permissions (a file made unreadable must be read again, and fail),
    /// in decimal, written into one buffer: string interpolation took a tenth of the scan's own time.
    private static func stamp(_ info: stat) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 4 * 21) { text in
            var end = 0
            func write(_ field: Int) {
                if end > 0 { (text[end], end) = (UInt8(ascii: " "), end + 1) }
                end += writeDecimal(field, into: UnsafeMutableBufferPointer(rebasing: text[end...]))
            }
            write(Int(info.st_mode & S_IFMT))
            write(Int(info.st_size))
            write(info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec)
            write(Int(info.st_mode & 0o777))
            return String(decoding: text[..<end], as: UTF8.self)
        }
    }

    /// Writes `value`'s decimal digits (a minus sign first when negative) at the start of `text`; returns how many.
    private static func writeDecimal(_ value: Int, into text: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var magnitude = value.magnitude, count = 0
        repeat {
            text[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            (magnitude, count) = (magnitude / 10, count + 1)
        } while magnitude > 0
        if value < 0 { (text[count], count) = (UInt8(ascii: "-"), count + 1) }
        var digits = UnsafeMutableBufferPointer(rebasing: text[..<count])
        digits.reverse()
        return count
    }
}
