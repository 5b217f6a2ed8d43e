import CLinuxCalls
import Foundation
import PathJournal
import SiteModel
import Support
import Synchronization

/// Reads a site's files: everything the build consumes comes through here, named relative to the site root.
public struct SiteFiles: Sendable {
    /// The site root as the user gave it; diagnostics name files relative to it.
    public let root: String
    /// Files larger than this are refused before they are read.
    public let maxFileBytes: Int
    /// The top folders, resolved once each: every read checks the file against one.
    private let areas = Areas()

    public init(root: String, maxFileBytes: Int = 10 * 1024 * 1024) {
        self.root = root
        self.maxFileBytes = maxFileBytes
    }

    public func absolute(_ relative: String) -> String {
        SitePaths.path(relative, in: root)
    }

    /// The error when `root` is no folder (a mistyped `--root`); nil when it is one.
    public static func missingRoot(_ root: String) -> Diagnostic? {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: root, isDirectory: &isFolder), isFolder.boolValue { return nil }
        return .error("there is no folder '\(root)': --root names the site's folder, the one holding content/")
    }

    public func exists(_ relative: String) -> Bool {
        var info = stat()
        return stat(absolute(relative), &info) == 0
    }

    public func isDirectory(_ relative: String) -> Bool {
        var info = stat()
        return stat(absolute(relative), &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Reads a whole file, refusing it past `maxFileBytes` without reading it, and refusing a path that
    /// symbolic links lead out of its top folder (`content/` or `templates/`).
    public func read(_ relative: String) throws(Diagnostic) -> [UInt8] {
        let location = SourceLocation(file: relative)
        let descriptor = try openInsideArea(relative)
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw Self.cannotRead(location, errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw Self.notAFile(relative) }
        let size = Int(info.st_size)
        guard size <= maxFileBytes else { throw tooLarge(location, size: size) }
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            count = 0
            while count < size {
                let got = Foundation.read(descriptor, buffer.baseAddress! + count, size - count)
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                if got == 0 { return }  // the file shrank while we read it
                count += got
            }
        }
        guard failure == 0 else { throw Self.cannotRead(location, failure) }
        return bytes
    }

    /// Opens a file below a top folder for reading, once it is known to stay there. In one call where the kernel
    /// can check it (`nb_open_beneath`, relative to the top folder's descriptor); otherwise, or where that
    /// refuses (an absolute link, which may still lead inside), as `openByCheckedName` does, which also says
    /// why a path cannot be read. At L the one call took a third of the time of the three it replaces.
    private func openInsideArea(_ relative: String) throws(Diagnostic) -> Int32 {
        if let slash = relative.utf8.firstIndex(of: UInt8(ascii: "/")), let folder = area(of: relative)?.descriptor {
            let descriptor = nb_open_beneath(folder, String(relative[relative.utf8.index(after: slash)...]))
            if descriptor >= 0 { return descriptor }
        }
        return try openByCheckedName(relative)
    }

    /// The path is first only named (O_PATH, which opens nothing, not even a device), then checked where it
    /// leads, then opened through that same name: what is read is what was checked, even if a link changes
    /// in between.
    private func openByCheckedName(_ relative: String) throws(Diagnostic) -> Int32 {
        let location = SourceLocation(file: relative)
        let named = nb_open_path(absolute(relative))
        guard named >= 0 else { throw Self.cannotRead(location, errno) }
        defer { close(named) }
        if let resolved = Self.realPath(of: named, else: absolute(relative)), let area = area(of: relative), !Self.isInside(resolved, area.real) {
            throw .error(at: location, Self.outsideMessage(linkText: linkText(relative), area: area.name))
        }
        // Non-blocking, so that opening a named pipe does not wait for a writer; `read` refuses it.
        let descriptor = open(Self.hasProcFolder ? Self.procPath(of: named) : absolute(relative), O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw Self.cannotRead(location, errno) }
        return descriptor
    }

    /// The error for a file over `maxFileBytes`, when the file at `relative` is; for a file the build copies
    /// rather than reads (`static/`), as it would be read whole all the same.
    public func sizeProblem(_ relative: String) -> Diagnostic? {
        var info = stat()
        guard stat(absolute(relative), &info) == 0, Int(info.st_size) > maxFileBytes else { return nil }
        return tooLarge(SourceLocation(file: relative), size: Int(info.st_size))
    }

    private func tooLarge(_ location: SourceLocation, size: Int) -> Diagnostic {
        .error(at: location, "the file is \(size) bytes, over the limit of \(maxFileBytes) bytes for one input file; split it up, or raise the limit with --max-file-bytes")
    }

    /// Files below a folder, relative to the site root, sorted; hidden names are skipped.
    /// `extensions` keeps only names ending in one of them (without the dot).
    /// Symbolic links are followed while they stay inside the folder's top folder (`content/`, `templates/`);
    /// the others are left out, and `entryProblems(under:)` reports them, as it does named pipes and devices.
    public func files(under folder: String, extensions: Set<String>? = nil) -> [String] {
        contents(of: folder).files(under: folder, extensions: extensions)
    }

    /// One walk of a folder: its files and its entries' problems, so that a caller that needs both, and the
    /// files of several of its subfolders, walks a large `content/` once rather than once for each.
    public struct FolderContents: Sendable {
        public let files: [String]
        public let problems: [Diagnostic]
        /// The positions in `files` of the files below each folder two levels down (`content/cleaners`), in
        /// order: the files of such a folder are read from here rather than filtered from every file, which
        /// was nine passes over 430,000 paths at 10× L, one for each kind and each of `content/`'s own folders.
        /// Keyed by the folder's bytes, as two names that are equal Strings may be two folders.
        private let secondLevel: [[UInt8]: [Int]]

        init(files: [String], problems: [Diagnostic]) {
            self.files = files
            self.problems = problems
            secondLevel = Self.secondLevelFolders(of: files)
        }

        /// As `SiteFiles.files(under:extensions:)` gives them, for this folder or one below it.
        /// Paths are compared as the file system does, byte by byte: comparing Characters took seconds at
        /// 400,000 listings.
        public func files(under folder: String, extensions: Set<String>? = nil) -> [String] {
            let folder = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
            guard folder.utf8.count(where: { $0 == UInt8(ascii: "/") }) == 1 else {
                let prefix = Array((folder + "/").utf8)
                return files.filter { $0.utf8.starts(with: prefix) && Self.hasExtension($0, among: extensions) }
            }
            return (secondLevel[Array(folder.utf8)] ?? []).lazy.map { files[$0] }.filter { Self.hasExtension($0, among: extensions) }
        }

        private static func hasExtension(_ name: String, among extensions: Set<String>?) -> Bool {
            guard let extensions else { return true }
            let path = name.utf8
            guard let dot = path.lastIndex(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "/") }), path[dot] == UInt8(ascii: ".") else {
                return false
            }
            return extensions.contains(String(decoding: path[path.index(after: dot)...], as: UTF8.self).lowercased())
        }

        /// Each file's position under the folder its path's first two names make (`content/cleaners` for
        /// `content/cleaners/ana.yaml`); a file with fewer names is under none. The files of one folder come
        /// one after another when sorted, so the folder's name is made again only where it changes.
        private static func secondLevelFolders(of files: [String]) -> [[UInt8]: [Int]] {
            var folders: [[UInt8]: [Int]] = [:]
            var current: [UInt8] = []
            for (position, file) in files.enumerated() {
                let path = file.utf8
                guard let first = path.firstIndex(of: UInt8(ascii: "/")),
                    let second = path[path.index(after: first)...].firstIndex(of: UInt8(ascii: "/"))
                else { continue }
                let folder = path[..<second]
                if !current.elementsEqual(folder) { current = Array(folder) }
                folders[current, default: []].append(position)
            }
            return folders
        }
    }

    /// `includingHidden`: names starting with a dot are walked too (`static/.well-known/`), where they are
    /// published, but for a version-control folder and macOS's folder settings; elsewhere they are editors'
    /// and systems' files.
    public func contents(of folder: String, includingHidden: Bool = false) -> FolderContents {
        let (files, problems) = walk(folder, includingHidden: includingHidden)
        return FolderContents(files: files, problems: problems)
    }

    /// A located error for every entry below a folder that cannot be part of the site: a symbolic link that
    /// leads outside its top folder, points at nothing or loops back to a folder that holds it, and anything
    /// that is neither a file nor a folder (a named pipe would make the build wait forever on reading it).
    public func entryProblems(under folder: String) -> [Diagnostic] {
        walk(folder).problems
    }

    private func walk(_ folder: String, includingHidden: Bool = false) -> (files: [String], problems: [Diagnostic]) {
        let start: String
        switch Self.resolve(absolute(folder)) {
        case .real(let real): start = real
        // Absent is fine (loading says what is missing); any other failure (no permission, a link to itself, too
        // many files open) is an error, not an empty folder: `static/`'s CNAME would go unpublished.
        case .failed(errno: ENOENT): return ([], [])
        case .failed(let reason): return ([], [Self.unreadable(folder, reason, folder: true)])
        }
        let area: Area
        switch areaOrFailure(of: folder) {
        case .success(let resolved): area = resolved
        case .failure(let failure): return ([], [Self.unreadable(folder, failure.reason, folder: true)])
        }
        guard Self.isInside(start, area.real) else { return ([], []) }
        var files: [String] = []
        var problems: [Diagnostic] = []
        // Real paths of the folders being walked, so a link back to one of them is not followed forever.
        var walking: Set<String> = []
        func visit(_ relative: String, real: String) {
            walking.insert(real)
            defer { walking.remove(real) }
            // A folder that cannot be listed, or listed but not entered, would silently make a smaller site.
            guard Self.isReadable(absolute(relative), folder: true), let listing = opendir(absolute(relative)) else {
                problems.append(Self.unreadable(relative, errno, folder: true))
                return
            }
            defer { closedir(listing) }
            let listed: [String]
            do throws(FolderFailure) { listed = try Self.entryNames(of: listing) } catch {
                problems.append(Self.unreadable(relative, error.reason, folder: true))
                return
            }
            let names = listed.filter { name in
                !Self.isEditorsFile(name) && (includingHidden ? !Self.neverPublished.contains(name) : !name.hasPrefix("."))
            }
            for (name, type) in zip(names, Self.entryTypes(names, in: dirfd(listing))) {
                let path = relative + "/" + name
                switch type {
                case .file: files.append(path)
                case .folder: visit(path, real: real + "/" + name)
                case .link:
                    switch follow(path, area: area, walking: walking) {
                    case .problem(let problem): problems.append(problem)
                    case .file: files.append(path)
                    case .folder(let resolved): visit(path, real: resolved)
                    }
                case .unreadable(let reason): problems.append(Self.unreadable(path, reason, folder: false))
                case .notAFile: problems.append(Self.notAFile(path))
                }
            }
        }
        visit(folder, real: start)
        return (files.sorted(), problems)
    }

    /// Hidden names left out even where hidden files are published: a repository's history would be.
    private static let neverPublished: Set<String> = [".", "..", ".git", ".hg", ".svn", ".DS_Store"]

    /// Editors' working files beside the ones they edit, never part of a site: Emacs's lock links (`.#CNAME`,
    /// which point at nothing) and auto-saves (`#CNAME#`), Vim's swap files (`.CNAME.swp`, `.swo`…) and backups
    /// (`CNAME~`).
    static func isEditorsFile(_ name: String) -> Bool {
        let swap = name.hasPrefix(".") && name.dropLast().hasSuffix(".sw") && name.last.map { ("a"..."p").contains($0) } == true
        return swap || name.hasPrefix(".#") || name.hasSuffix("~") || (name.count > 2 && name.hasPrefix("#") && name.hasSuffix("#"))
    }

    /// What a folder entry is, by its own `lstat` (a link is not followed here), and whether a file can be read.
    private enum EntryType: Sendable {
        case file, folder, link, notAFile
        case unreadable(errno: Int32)
    }

    /// The types of a folder's entries, in order. They are looked up relative to the folder, not by whole
    /// path, and for a large folder (a kind's 200,000 listings) on every core, in runs: one after another
    /// they were a second of a 10× L build with the other core idle.
    private static func entryTypes(_ names: [String], in folder: Int32) -> [EntryType] {
        names.parallelRuns(of: entriesPerRun) { run in run.map { entryType($0, in: folder) } }
    }

    private static let entriesPerRun = 8192

    private static func entryType(_ name: String, in folder: Int32) -> EntryType {
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return .unreadable(errno: errno) }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .link
        case S_IFDIR: return .folder
        case S_IFREG: return faccessat(folder, name, R_OK, 0) == 0 ? .file : .unreadable(errno: errno)
        default: return .notAFile
        }
    }

    /// Where a symbolic link met while walking leads.
    private enum LinkTarget {
        case file
        case folder(real: String)
        case problem(Diagnostic)
    }

    /// A link is followed while it leads to a readable file or a folder inside the same top folder (`area`),
    /// and not back to a folder being walked.
    private func follow(_ path: String, area: Area, walking: Set<String>) -> LinkTarget {
        let text = linkText(path) ?? ""
        let location = SourceLocation(file: path)
        let resolved: String
        switch Self.resolve(absolute(path)) {
        case .real(let real): resolved = real
        case .failed(let reason): return .problem(.error(at: location, "this symbolic link points to '\(text)', \(Self.leadsNowhere(reason))"))
        }
        guard Self.isInside(resolved, area.real) else { return .problem(.error(at: location, Self.outsideMessage(linkText: text, area: area.name))) }
        guard isDirectory(path) else {
            if !isRegularFile(path) { return .problem(Self.notAFile(path)) }
            if !Self.isReadable(absolute(path), folder: false) { return .problem(Self.unreadable(path, errno, folder: false)) }
            return .file
        }
        guard !walking.contains(resolved) else {
            return .problem(.error(at: location, "this symbolic link points back to a folder that holds it ('\(text)'), so its files would never end"))
        }
        return .folder(real: resolved)
    }

    /// A top folder (`content`): its name, its real path, and, when it is a folder, a descriptor that names it
    /// (O_PATH) for `openInsideArea`.
    private struct Area: Sendable {
        let name: String
        let real: String
        let descriptor: Int32?
    }

    /// Why a top folder, or a folder's listing, could not be had: the `errno` of the call that failed.
    struct FolderFailure: Error {
        let reason: Int32
    }

    /// The top folder a path is below.
    private func area(of relative: String) -> Area? {
        try? areaOrFailure(of: relative).get()
    }

    /// The top folder a path is below, or why it cannot be resolved (ENOENT for a path with no top folder).
    private func areaOrFailure(of relative: String) -> Result<Area, FolderFailure> {
        let name = String(relative.prefix { $0 != "/" })
        guard !name.isEmpty else { return .failure(FolderFailure(reason: ENOENT)) }
        return areas.area(named: name) { Self.resolveArea(name, at: absolute(name)) }
    }

    /// The real path is read from the descriptor (through /proc), so that both name the same folder.
    private static func resolveArea(_ name: String, at path: String) -> Result<Area, FolderFailure> {
        let named = nb_open_path(path)
        guard named >= 0 else { return .failure(FolderFailure(reason: errno)) }
        var info = stat()
        guard let real = realPath(of: named, else: path), fstat(named, &info) == 0 else {
            let reason = errno
            close(named)
            return .failure(FolderFailure(reason: reason))
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            close(named)
            return .success(Area(name: name, real: real, descriptor: nil))
        }
        return .success(Area(name: name, real: real, descriptor: named))
    }

    /// Top folders by name, resolved once for the life of one `SiteFiles` (one build); one that names nothing
    /// is resolved again when asked again. Their descriptors are closed with it.
    private final class Areas: Sendable {
        private let resolved = Mutex<[String: Area]>([:])

        func area(named name: String, resolving resolve: () -> Result<Area, FolderFailure>) -> Result<Area, FolderFailure> {
            if let known = resolved.withLock({ $0[name] }) { return .success(known) }
            let made: Area
            switch resolve() {
            case .success(let area): made = area
            case .failure(let failure): return .failure(failure)
            }
            // Another thread may have resolved the same folder meanwhile: the first kept stays.
            let kept = resolved.withLock { areas in
                if let first = areas[name] { return first }
                areas[name] = made
                return made
            }
            if let descriptor = made.descriptor, kept.descriptor != descriptor { close(descriptor) }
            return .success(kept)
        }

        deinit {
            for area in resolved.withLock({ Array($0.values) }) {
                if let descriptor = area.descriptor { close(descriptor) }
            }
        }
    }

    private func isRegularFile(_ relative: String) -> Bool {
        var info = stat()
        return stat(absolute(relative), &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// The names of an open folder's entries, `.` and `..` left out, in `readdir`'s order; throws when reading it
    /// fails part way (EIO), which `readdir` tells from the folder's end only by `errno`: a partial listing would be
    /// a smaller site.
    static func entryNames(of listing: OpaquePointer) throws(FolderFailure) -> [String] {
        var names: [String] = []
        do throws(FileFailure) {
            try FolderFiles.forEachEntry(of: listing, in: "") { _, name in names.append(name) }
        } catch {
            throw FolderFailure(reason: error.code)
        }
        return names
    }

    /// Whether this process may read the file, or list and enter the folder (`access` sets errno when not).
    private static func isReadable(_ path: String, folder: Bool) -> Bool {
        access(path, folder ? R_OK | X_OK : R_OK) == 0
    }

    private static func unreadable(_ relative: String, _ reason: Int32, folder: Bool) -> Diagnostic {
        let what = folder ? "this folder cannot be read" : "this file cannot be read"
        return .error(
            at: SourceLocation(file: relative),
            "\(what) (\(String(cString: strerror(reason)))); the site would be built without it, so let the build read it or remove it")
    }

    private static func cannotRead(_ location: SourceLocation, _ reason: Int32) -> Diagnostic {
        .error(at: location, "cannot read file: \(String(cString: strerror(reason)))")
    }

    private static func notAFile(_ relative: String) -> Diagnostic {
        .error(at: SourceLocation(file: relative), "this is neither a file nor a folder (a named pipe or a device); remove it")
    }

    private func linkText(_ relative: String) -> String? {
        guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: absolute(relative)) else { return nil }
        return target
    }

    private static func outsideMessage(linkText: String?, area: String) -> String {
        let what = linkText.map { "this is a symbolic link to '\($0)', which is" } ?? "symbolic links lead this path"
        return "\(what) outside \(area)/; links may only point to files inside \(area)/"
    }

    private static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }

    /// The path with every symbolic link, `.` and `..` resolved; nil when it names nothing.
    /// Where a path leads, links followed, or the `errno` of why it leads nowhere.
    private enum Resolution {
        case real(String)
        case failed(errno: Int32)
    }

    private static func resolve(_ path: String) -> Resolution {
        let named = nb_open_path(path)
        guard named >= 0 else { return .failed(errno: errno) }
        defer { close(named) }
        guard let real = realPath(of: named, else: path) else { return .failed(errno: errno) }
        return .real(real)
    }

    /// Why a link's target cannot be reached, from the `errno` of following it.
    private static func leadsNowhere(_ reason: Int32) -> String {
        switch reason {
        case ENOENT, ENOTDIR: "which does not exist"
        case ELOOP: "which leads round a loop of links, or through more than 40, and never reaches a file"
        default: "which cannot be reached (\(String(cString: strerror(reason))))"
        }
    }

    /// Where a descriptor leads, as the kernel names it (one `readlink` of /proc/self/fd/…, where realpath(3)
    /// takes one per folder of the path, for every file of the site); realpath(3) of `path` without /proc.
    private static func realPath(of descriptor: Int32, else path: String) -> String? {
        if hasProcFolder {
            let resolved = withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(PATH_MAX)) { buffer -> String? in
                let count = readlink(procPath(of: descriptor), buffer.baseAddress!, buffer.count)
                guard count > 0, count < buffer.count else { return nil }
                return String(decoding: UnsafeRawBufferPointer(start: buffer.baseAddress!, count: count), as: UTF8.self)
            }
            if let resolved { return resolved }
        }
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func procPath(of descriptor: Int32) -> String { "/proc/self/fd/\(descriptor)" }

    private static let hasProcFolder = access("/proc/self/fd", X_OK) == 0
}
