import CLinuxCalls
import Foundation
import PathJournal
import SiteModel
import Support

/// Writes a whole site into a staging folder beside the output folder, then swaps the two in one
/// atomic rename, so readers (and a build killed half-way) only ever see the old or the new site.
/// The staging folder has a fixed name, `.<output>.staging`: the caller holds `OutputLock`, so no other
/// build uses it.
///
/// After the swap the staging folder holds the site before, and it can stay there: when the caller knows
/// what is in it (the digests its last build recorded, confirmed by a marker no half-finished write left
/// behind), the next write only brings that folder up to date — removing, linking and writing the files
/// that differ — instead of staging every file again. Unchanged files are hard links shared by both trees,
/// so keeping the previous site costs folders and changed files, not a copy; a file is never written in
/// place, so changing one tree cannot change the other.
public struct StagedOutput: Sendable {
    /// The output folder, e.g. `public`.
    public let outputPath: String

    public init(outputPath: String) {
        self.outputPath = outputPath.count > 1 && outputPath.hasSuffix("/") ? String(outputPath.dropLast()) : outputPath
    }

    public struct Summary: Sendable {
        public var files: Int
        /// Files written anew; `.previous` files are hard links to the last build's, so they keep their
        /// modification time and deploys that compare times send only what changed.
        public var written: Int
        public var bytes: Int
        /// Earlier outputs that held files no build wrote, moved aside whole instead of removed.
        public var keptAside: [KeptAside] = []
    }

    /// Starts writing the new output into the staging folder: files are added to the returned `Staging`,
    /// whose `finish` swaps the folder in.
    /// - Parameters:
    ///   - staged: what the staging folder holds, by path, when the caller knows it; nil to stage every file anew.
    ///   - previousIsKnown: the caller knows what the output folder holds (its last build's record matched it).
    ///     Then the site it replaces stays in the staging folder, for the next build to bring up to date.
    ///     Otherwise a new file with the same bytes as the output folder's (compared byte by byte) is linked to
    ///     it rather than written, so a rebuild from scratch keeps unchanged files as they were, and the
    ///     replaced site is removed.
    public func begin(staged: WrittenDigests? = nil, previousIsKnown: Bool = false) throws(BuildFailure) -> Staging {
        let staging = stagingPath
        var keptAside: KeptAside?
        do throws(WriteError) {
            if let staged, let folder = try StagingFolder(staging) {
                let asWritten = try AsWritten(folder: folder.files)
                // Streamed documents go into it as they are made, before `update` marks it.
                try Self.markUpdating(folder.files)
                return Staging(
                    output: self, source: try HeldFolder(opening: outputPath), folder: folder, staged: staged, asWritten: asWritten,
                    previousIsKnown: previousIsKnown)
            }
            keptAside = Self.removeStaging(staging)
            try? FileManager.default.createDirectory(atPath: Self.parentFolder(of: outputPath), withIntermediateDirectories: true)
            let folder = try Self.makeStagingFolder(staging)
            return Staging(
                output: self, source: try HeldFolder(opening: outputPath), folder: folder, staged: nil, journal: try PathJournal.additions(in: folder.files),
                asWritten: try AsWritten(folder: folder.files), previousIsKnown: previousIsKnown, keptAside: keptAside)
        } catch {
            // An earlier output moved aside before the failure is said, or it would be left unexplained.
            throw BuildFailure(failure(error).diagnostics + [keptAside?.warning].compactMap { $0 })
        }
    }

    /// Writes `files` (whose digests are `digests`, by path) as the new output, in one go.
    public func write(
        _ files: [OutputFile], digests: [String: FileDigest] = [:], staged: WrittenDigests? = nil, previousIsKnown: Bool = false
    ) throws(BuildFailure) -> Summary {
        let staging = try begin(staged: staged, previousIsKnown: previousIsKnown)
        staging.add(files.map { ($0, digests[$0.path]) })
        return try staging.finish(wanted: Set(files.map(\.path)).contains)
    }

    /// Replaces a few files of the output when the staging folder holds an earlier site the caller knows
    /// file by file: only the paths where that site and the new one may differ are looked at, then the
    /// folder is swapped in and keeps the replaced site. False, with nothing done, when there is no
    /// staging folder to bring up to date.
    /// - Parameters:
    ///   - staged: what the staging folder holds at those paths (a path it does not hold is absent).
    ///   - wanted: those paths that the new site has.
    ///   - changed: the new site's files where it differs from the staging folder; `.previous` for one the
    ///     output folder holds.
    public func replace(staged: WrittenDigests, wanted: Set<String>, changed: [OutputFile]) throws(BuildFailure) -> Bool {
        let found: StagingFolder?
        do throws(WriteError) {
            found = try StagingFolder(stagingPath)
        } catch {
            throw failure(error)
        }
        guard let folder = found else { return false }
        do throws(WriteError) {
            let source = try HeldFolder(opening: outputPath)
            try update(folder, from: staged, asWritten: try AsWritten(folder: folder.files), source: source, wanted: wanted.contains, changed: changed)
            try swapIn(folder, keepPrevious: true)
        } catch {
            let kept = folder.removeAfterFailure()
            throw BuildFailure(failure(error).diagnostics + [kept?.warning].compactMap { $0 })
        }
        return true
    }

    /// How a failed write is reported.
    func failure(_ error: WriteError) -> BuildFailure {
        BuildFailure([.error("cannot write the site to \(outputPath)/: \(error.message)")])
    }

    /// Beside the output folder: a rename only swaps folders on one file system.
    var stagingPath: String {
        Self.sibling(of: outputPath, named: ".\(Self.lastComponent(of: outputPath)).staging")
    }

    /// `name` in the folder that holds `path`: `site/.public.staging` for `site/public` and that name.
    static func sibling(of path: String, named name: String) -> String {
        let parent = parentFolder(of: path)
        return parent == "." ? name : parent == "/" ? "/" + name : parent + "/" + name
    }

    /// The folder that holds `path`: `site` for `site/public`, `.` for `public`, `/` for `/public`.
    /// (Not NSString's `deletingLastPathComponent`, which crashes on a one-letter name in this Foundation.)
    static func parentFolder(of path: String) -> String {
        let trimmed = trimmingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "." }
        let parent = trimmingSlashes(String(trimmed[..<slash]))
        return parent.isEmpty ? "/" : parent
    }

    /// The last part of `path`: `public` for `site/public/`.
    static func lastComponent(of path: String) -> String {
        let trimmed = trimmingSlashes(path)
        return trimmed.split(separator: "/").last.map(String.init) ?? trimmed
    }

    private static func trimmingSlashes(_ path: String) -> String {
        var path = path[...]
        while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
        return String(path)
    }

    /// Output paths are made by the pipeline from validated slugs; this is the last guard that none escapes.
    static func isSafeRelativePath(_ path: String) -> Bool {
        !path.utf8.contains(0) && !RelativePath.hasEmptyOrDotSegment(path)
    }

    /// The first thing written: when this fails, the output's folder cannot be written at all. Marked through
    /// the folder made, so a link put at its name meanwhile is not written through.
    static func makeStagingFolder(_ path: String) throws(WriteError) -> StagingFolder {
        let folder = try StagingFolder.make(path)
        try markStaging(folder.files)
        return folder
    }

    /// Removes a staging folder (or the site it holds after a swap), marker last: a build killed half-way
    /// through leaves a folder the next one still knows as its own. A folder without the marker is an
    /// earlier output, which may hold files someone put in the output folder; one with it may hold files put there
    /// after its build was killed: either is kept aside instead when it does (`keptAside`), and returned.
    @discardableResult
    static func removeStaging(_ path: String) -> KeptAside? {
        guard isFolder(path) else { return nil }
        if let kept = keptAside(path) { return kept }
        // Checked: a build killed while it removes the rest finds the mark, and removes it without looking again.
        guard let folder = try? StagingFolder(path), (try? markStaging(folder.files, removing: true)) != nil else { return nil }
        // Through the folder held open, each entry beneath it: a link put at its name, or at a folder's inside it,
        // while it is removed leads nowhere that is removed.
        // One that cannot be listed whole stays as it is, marked.
        let files = folder.files
        guard let entries = try? files.entries() else { return nil }
        for entry in entries where entry != OwnedFolders.stagingMarker {
            if (try? files.unlink(entry)) != true { _ = try? files.removeTree(entry) }
        }
        // What could not be removed (a folder without write permission) stays marked, for the next build to remove.
        guard (try? files.entries()) == [OwnedFolders.stagingMarker], (try? files.unlink(OwnedFolders.stagingMarker)) == true, folder.isAtItsName
        else { return nil }
        rmdir(path)
        return nil
    }

    /// Puts the marker that tells a staging folder left by a killed build from someone else's folder
    /// (see `OwnedFolders`); `swapIn` takes it out again. `removing`: the folder was checked and is being removed
    /// (`OwnedFolders.removingMark`).
    private static func markStaging(_ folder: HeldFolder, removing: Bool = false) throws(WriteError) {
        let marker = OwnedFolders.stagingMarker
        let descriptor = try folder.open(marker, O_WRONLY | O_CREAT | O_TRUNC, mode: 0o644)
        guard descriptor >= 0 else { throw WriteError(path: folder.name + "/" + marker) }
        defer { close(descriptor) }
        let mark = removing ? Array(OwnedFolders.removingMark.utf8) : []
        guard mark.withUnsafeBytes({ Descriptor.writeAll($0, to: descriptor) }) else { throw WriteError(path: folder.name + "/" + marker) }
    }

    /// Makes the staging folder, which holds `staged`, hold the `wanted` paths: marks it as being brought up
    /// to date (`markUpdating`), removes what is no longer wanted, and replaces the `changed` files (a file is
    /// unlinked first, never overwritten: it may be a hard link shared with the output folder), linking a `.previous`
    /// one from `source`, the output folder. Refuses when a file it would remove or replace is not as its build wrote
    /// it (`asWritten`, made before anything changed).
    func update(
        _ folder: StagingFolder, from staged: WrittenDigests, asWritten: AsWritten, source: HeldFolder?, wanted: (String) -> Bool, changed: [OutputFile]
    ) throws(WriteError) {
        let root = folder.files
        try Self.markUpdating(root)
        var unwanted: [String] = []
        staged.forEach { path, _ in if !wanted(path) { unwanted.append(path) } }
        try Self.checkReplaceable(unwanted + changed.map(\.path), in: root, staged: staged, asWritten: asWritten)
        for path in unwanted {
            try Self.remove(path, in: root)
            Self.removeEmptyFolders(above: path, in: root)
        }
        for file in changed where staged[file.path] != nil { try Self.remove(file.path, in: root) }
        try OpenFolders.keeping(beneath: root) { folders throws(WriteError) in try Self.makeFolders(for: changed.map(\.path), in: folders) }
        // In a folder made anew (levelling), links are all it gets, and `link` refuses a path something is at.
        let isMadeAnew = try root.status(OwnedFolders.stagingMarker) != nil
        try Self.recordAdditions(changed.map(\.path).filter { staged[$0] == nil }, in: root, checkingInTheWay: !isMadeAnew)
        // The manifest last, so that every file it lists is as old as it or older (`AsWritten`).
        let (manifest, others) = (changed.filter { $0.path == OwnedFolders.manifestPath }, changed.filter { $0.path != OwnedFolders.manifestPath })
        for files in [others, manifest] {
            let results = files.parallelMap { file -> WriteError? in
                do throws(WriteError) {
                    // Folders kept open for one file: the files go to any thread, a few of them.
                    _ = try OpenFolders.keeping(beneath: root) { folders throws(WriteError) in
                        try writeFile(file, in: folders, from: source.map(OpenFolders.init), linkingSameBytes: false)
                    }
                    return nil
                } catch {
                    return error
                }
            }
            if let error = results.lazy.compactMap({ $0 }).first { throw error }
        }
    }

    /// Notes in a folder being written the paths of files about to be written that it did not hold, in `journal`
    /// or the folder's own (`PathJournal.additions`). Refuses, `checkingInTheWay`, when something is at one already: no
    /// build wrote it, and writing the file (a streamed one by a rename) would replace it.
    static func recordAdditions(
        _ paths: [String], in root: HeldFolder, journal: PathJournal? = nil, checkingInTheWay: Bool = true
    ) throws(WriteError) {
        guard !paths.isEmpty else { return }
        for path in paths where checkingInTheWay {
            guard try root.status(path) != nil else { continue }
            throw WriteError(message: """
                \(root.name)/\(path) is in the way: no build wrote it, and a build replaces only what it made (files to \
                publish go in static/ or templates/assets/); build again to write the site anew
                """)
        }
        if let journal { return try journal.noteAdditions(paths) }
        try PathJournal.additions(in: root).noteAdditions(paths)
    }

    /// Before anything at `paths` of an earlier output being brought up to date is removed or written: no folder
    /// above one is a link, and each file there is as its build wrote it (`asWritten`).
    static func checkReplaceable(_ paths: [String], in root: HeldFolder, staged: WrittenDigests, asWritten: AsWritten) throws(WriteError) {
        try checkNoLinks(above: paths, in: root)
        try asWritten.check(paths, staged: staged)
    }

    /// Refuses paths below an earlier output being brought up to date when a folder above one is a symbolic
    /// link. No build makes one: someone put it in the output folder (`public/assets -> ~/files`) and it went
    /// with its tree into the staging folder at a swap. Removing or writing through it would change files
    /// outside the output. Each folder is looked at once.
    private static func checkNoLinks(above paths: some Sequence<String>, in root: HeldFolder) throws(WriteError) {
        var looked = Set<Substring>()
        for path in paths {
            var folder = path[...]
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                guard looked.insert(folder).inserted else { break }
                if let info = try root.status(String(folder)), (info.st_mode & S_IFMT) == S_IFLNK {
                    throw WriteError(message: "\(root.name)/\(folder) is a symbolic link, which no build makes; move it out of the output folder")
                }
            }
        }
    }

    /// The folders that hold the files at `paths`, shortest first; those already there are fine.
    static func makeFolders(for paths: [String], in root: OpenFolders) throws(WriteError) {
        var folders = Set<Substring>()
        for filePath in paths {
            var path = filePath[...]
            while let slash = path.lastIndex(of: "/") {
                path = path[..<slash]
                if !folders.insert(path).inserted { break }
            }
        }
        for folder in folders.sorted(by: { $0.count < $1.count }) { try makeFolder(String(folder), in: root) }
    }

    /// A folder in a folder that is there; one already there is fine.
    static func makeFolder(_ path: String, in folders: OpenFolders) throws(WriteError) {
        let root = folders.held
        if try folders.makeFolder(path) { return }
        guard errno == EEXIST else { throw WriteError(path: root.name + "/" + path) }
        if try root.status(path).map({ ($0.st_mode & S_IFMT) != S_IFDIR }) ?? true {
            // A file the previous site had where this site has a folder.
            try remove(path, in: root)
            guard try folders.makeFolder(path) || errno == EEXIST else { throw WriteError(path: root.name + "/" + path) }
        }
    }

    /// Removes a file, or a folder the previous site had where this one has a file; absent is fine.
    static func remove(_ path: String, in root: HeldFolder) throws(WriteError) {
        if try root.unlink(path) || errno == ENOENT { return }
        guard errno == EISDIR || errno == EPERM, try root.removeTree(path) else { throw WriteError(path: root.name + "/" + path) }
    }

    /// After removing `path`, the folders above it that it leaves empty, as a clean build would not have them.
    static func removeEmptyFolders(above path: String, in root: HeldFolder) {
        var folder = path[...]
        while let slash = folder.lastIndex(of: "/") {
            folder = folder[..<slash]
            if (try? root.removeFolder(String(folder))) != true { return }
        }
    }

    static func isFolder(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// The size of the file written into the output folder.
    func size(of path: String) -> Int {
        var info = stat()
        return stat(outputPath + "/" + path, &info) == 0 ? Int(info.st_size) : 0
    }

    /// Swaps the staging folder in, if its name still leads to it. Without `keepPrevious`, the site it replaces
    /// is removed; returned when it was kept aside instead.
    @discardableResult
    func swapIn(_ folder: StagingFolder, keepPrevious: Bool) throws(WriteError) -> KeptAside? {
        let staging = folder.name
        try folder.checkAtItsName()
        try folder.unmark()
        var info = stat()
        if lstat(outputPath, &info) != 0 {
            guard errno == ENOENT else { throw WriteError(path: outputPath) }
            guard rename(staging, outputPath) == 0 else { throw WriteError(path: outputPath) }
            try checkSwapped(folder) { rename(outputPath, staging) }
            return nil
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw WriteError(message: "\(outputPath) exists and is not a folder")
        }
        guard nb_rename_exchange(staging, outputPath) == 0 else { throw WriteError(path: outputPath) }
        try checkSwapped(folder) { nb_rename_exchange(staging, outputPath) }
        // The staging path now holds the previous site.
        return keepPrevious ? nil : Self.removeStaging(staging)
    }

    /// After the rename that swaps the staging folder in by name: the output is that folder, or what was put at
    /// the staging folder's name just before the rename, which `undo` renames back.
    private func checkSwapped(_ folder: StagingFolder, undo: () -> Int32) throws(WriteError) {
        guard !folder.isAt(outputPath) else { return }
        _ = undo()
        throw WriteError(message: "\(folder.name) was replaced as the build swapped it in; nothing was published")
    }

    /// Writes `file` at its path in `root`. True when a new file was linked to `source`'s file (the output folder's)
    /// with the same bytes instead of written.
    func writeFile(_ file: OutputFile, in root: OpenFolders, from source: OpenFolders?, linkingSameBytes: Bool) throws(WriteError) -> Bool {
        let bytes: [UInt8]
        switch file.contents {
        case .previous:
            guard let source else { throw WriteError(message: "\(outputPath)/\(file.path): \(String(cString: strerror(ENOENT)))") }
            if try !root.link(file.path, to: file.path, in: source) {
                // Another file system, or one without hard links: copy the bytes instead.
                guard let data = try source.held.contents(of: file.path) else { throw WriteError(path: source.held.name + "/" + file.path) }
                try Self.writeBytes(data, at: file.path, in: root.held)
            }
            return false
        case .bytes(let contents):
            bytes = contents
        case .copy(let source):
            guard let data = FileManager.default.contents(atPath: source) else { throw WriteError(message: "cannot read \(source)") }
            bytes = [UInt8](data)
        case .streamed(let write):
            return try StreamedFile.write(write, at: file.path, in: root.held, sameAs: linkingSameBytes ? source?.held : nil).linked
        }
        if linkingSameBytes, let source, try Self.holds(file.path, in: source.held, bytes), try root.link(file.path, to: file.path, in: source) { return true }
        try Self.writeBytes(bytes, at: file.path, in: root.held)
        return false
    }

    /// Whether the regular file at `path` in `folder` holds exactly `bytes` (its size is checked before it is read).
    private static func holds(_ path: String, in folder: HeldFolder, _ bytes: [UInt8]) throws(WriteError) -> Bool {
        let descriptor = try folder.open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard let (stored, _) = FileStamp.read(opened: descriptor, size: bytes.count) else { return false }
        return stored == bytes
    }

    /// Into a new file only (O_EXCL): an existing one may be a hard link that the output folder shares.
    static func writeBytes(_ bytes: [UInt8], at path: String, in root: HeldFolder) throws(WriteError) {
        let descriptor = try root.makeFile(path)
        defer { close(descriptor) }
        guard bytes.withUnsafeBytes({ Descriptor.writeAll($0, to: descriptor) }) else { throw WriteError(path: root.name + "/" + path) }
    }

    /// The same by name, for files outside the staging folder (the build's record).
    static func writeBytes(_ bytes: [UInt8], at path: String) throws(WriteError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(path: path) }
        defer { close(descriptor) }
        guard bytes.withUnsafeBytes({ Descriptor.writeAll($0, to: descriptor) }) else { throw WriteError(path: path) }
    }
}

struct WriteError: Error {
    let message: String

    init(message: String) {
        self.message = message
    }

    /// From `errno`, naming the path that failed.
    init(path: String) {
        message = "\(path): \(String(cString: strerror(errno)))"
    }
}
