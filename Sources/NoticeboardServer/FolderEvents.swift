import Foundation

/// What happened in a site's folders since last asked, from Linux's inotify: which entries changed, so
/// the watcher looks at those (`InputStamps.rescanning`) rather than scanning every input, a `stat` per
/// file (one to two seconds at 430,000 listings). Folders made later are watched as they come. Nil when
/// inotify is not available; the watcher then scans on every poll.
final class FolderEvents: @unchecked Sendable {
    private let descriptor: Int32
    private let root: String
    /// Each watch's folder, relative to the root.
    private var folders: [Int32: String] = [:]
    /// Where an event queue that overflowed, or a watch that could not be added, leaves the caller unsure.
    private var missedSome = false
    /// The root's own watch, for the watched folders it does not hold yet (`static/` made while serving), and
    /// their names: its other entries (the output, the build's cache) are not inputs.
    private var rootWatch: Int32 = -1
    private var rootFolders: Set<String> = []

    static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF)

    /// More entries than this in one go (a folder copied in, a checkout) are found by a whole scan instead.
    static let mostEntries = 256

    enum Changes: Equatable {
        case none
        /// The entries named, relative to the root: files, and folders that came, went or changed.
        case entries(Set<String>)
        /// Events were missed, or too many came: only a whole scan tells.
        case unknown
    }

    init?(root: String) {
        descriptor = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        if descriptor < 0 { return nil }
        self.root = root
    }

    deinit {
        close(descriptor)
    }

    /// Watches each folder below the given ones (relative to the root), and the ones themselves
    /// (watching one twice is harmless).
    func watch(below folders: [String]) {
        rootFolders = Set(folders)
        if rootWatch < 0 { rootWatch = inotify_add_watch(descriptor, root, UInt32(IN_CREATE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM | IN_ONLYDIR)) }
        if rootWatch < 0 { missedSome = true }
        for folder in folders { watchTree(folder) }
    }

    private func watchTree(_ relative: String) {
        let path = root + "/" + relative
        guard let folder = opendir(path) else { return }
        defer { closedir(folder) }
        let watch = inotify_add_watch(descriptor, path, Self.mask)
        if watch < 0 { missedSome = true } else { folders[watch] = relative }
        while let entry = readdir(folder) {
            guard entry.pointee.d_type == UInt8(DT_DIR) else { continue }
            let name = withUnsafePointer(to: &entry.pointee.d_name) { name in
                name.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name != "." && name != ".." { watchTree(relative + "/" + name) }
        }
    }

    /// The changes since the last call; reads every event waiting.
    func drain() -> Changes {
        var entries: Set<String> = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            buffer.withUnsafeBytes { events in collect(UnsafeRawBufferPointer(rebasing: events[..<count]), into: &entries) }
        }
        defer { missedSome = false }
        if missedSome || entries.count > Self.mostEntries { return .unknown }
        return entries.isEmpty ? .none : .entries(entries)
    }

    /// Each event's entry (its watch's folder, and the name when it has one); a folder that came is watched.
    private func collect(_ events: UnsafeRawBufferPointer, into entries: inout Set<String>) {
        let headerSize = MemoryLayout<inotify_event>.size
        var offset = 0
        while offset + headerSize <= events.count {
            let event = events.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
            let nameBytes = UnsafeRawBufferPointer(rebasing: events[(offset + headerSize)..<(offset + headerSize + Int(event.len))])
            offset += headerSize + Int(event.len)
            if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { missedSome = true }
            let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
            if event.wd == rootWatch {
                guard rootFolders.contains(name) else { continue }
                entries.insert(name)
                if event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watchTree(name) }
                continue
            }
            guard let folder = folders[event.wd] else { continue }
            if event.mask & UInt32(IN_IGNORED | IN_MOVE_SELF) != 0 {
                // The folder went (its parent's event names it); a watch left on a folder moved elsewhere would
                // name entries that are not there.
                inotify_rm_watch(descriptor, event.wd)
                folders[event.wd] = nil
            }
            let entry = name.isEmpty ? folder : folder + "/" + name
            entries.insert(entry)
            if event.mask & UInt32(IN_ISDIR) != 0, event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 { watchTree(entry) }
        }
    }
}
