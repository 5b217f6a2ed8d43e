import Foundation
import PathJournal
import Rendering
import SiteLoader
import SiteModel
import Support

/// The one rule for every folder a command replaces or removes: only what Noticeboard made. A build
/// replaces its output folder whole and clears the staging folder beside it, so before either happens
/// both are checked here: absent, empty, or recognisably Noticeboard's (an output holds the manifest a
/// build writes and nothing it does not list; a staging folder holds the marker a build puts in first,
/// or is an earlier output). Anything else is refused with an error that says how to proceed; there is
/// no option to delete it anyway.
public enum OwnedFolders {
    /// The file a build puts in the staging folder before anything else and takes out just before the swap,
    /// so a staging folder left by a killed build is known as one.
    static let stagingMarker = ".noticeboard-staging"
    /// What `stagingMarker` holds in a folder a build checked and is removing (`StagedOutput.removeStaging`); it is
    /// empty in a folder a build writes.
    static let removingMark = "removing\n"
    /// Put in an earlier output kept in the staging folder as a build starts bringing it up to date: its
    /// change time is when that began. A build killed half-way so leaves what tells the files it wrote from
    /// any someone put in the output (`StagedOutput.keptAside`); `swapIn` and levelling take it out.
    static let updateMarker = ".noticeboard-updating"
    /// Beside `updateMarker`: a hard link to the manifest the folder held when the update began.
    static let updateManifest = ".noticeboard-updating.manifest"
    /// Beside `updateMarker`, or `stagingMarker` in a folder staged anew: the paths the build writes that the
    /// folder did not hold, each put here before its file is written (`PathJournal.additions`), so that a file someone
    /// puts in the folder after a killed build is not taken for one it wrote. A folder a build is removing says so in
    /// its `stagingMarker` instead (`removingMark`).
    static let additionsJournal = ".noticeboard-updating.added"
    /// What a build puts at the top of an earlier output it brings up to date, beside the site's files, in the
    /// order they are taken out: the marker first, so that a build killed while taking them out leaves a folder
    /// that `foreignStaging` still knows as a build's (the others are allowed beside an output's files).
    static let updateFiles = [updateMarker, additionsJournal, updateManifest]

    /// Before a build takes its lock: the output path must name a folder of its own, not the site, not a
    /// folder holding it, and not a place among the site's sources (`inputFolders`, relative to `root`);
    /// the same for the staging folder beside it.
    public static func checkPlace(output: String, root: String, inputFolders: [String]) throws(BuildFailure) {
        let name = StagedOutput.lastComponent(of: output)
        guard !name.isEmpty, name != ".", name != "..", name != "/" else {
            throw refusal(output, "name the output folder itself, not '\(output)'")
        }
        let staged = StagedOutput(outputPath: output)
        // Checked before anything is made: a mistyped root would otherwise be made, on the way to the output.
        if let missing = SiteFiles.missingRoot(root) { throw BuildFailure([missing]) }
        guard let rootPath = realPath(root) else { return }
        let inputs = inputFolders.map { canonical(rootPath + "/" + $0) }
        // The cache may be deleted at any time; `serve` builds there, at a place of its own.
        let cache = canonical(rootPath + "/" + SitePaths.cacheFolder), place = canonical(staged.outputPath)
        if isInside(place, cache), place != canonical(SitePaths.cache("serve", in: rootPath)) {
            throw refusal(
                output, "the output folder would be inside the site's cache (\(cache)), which may be deleted at any time; choose a folder such as \(SitePaths.path("public", in: root))")
        }
        for (path, what) in [(staged.outputPath, "the output folder"), (staged.stagingPath, "its staging folder \(staged.stagingPath)")] {
            let place = canonical(path)
            if isInside(rootPath, place) {
                throw refusal(output, "\(what) would hold the site itself; choose a folder such as \(SitePaths.path("public", in: root))")
            }
            if let input = inputs.first(where: { isInside(place, $0) }) {
                throw refusal(output, "\(what) would be inside the site's sources (\(input)); choose a folder outside content/, templates/ and static/")
            }
            if let holder = enclosingBuildFolder(of: place) {
                throw refusal(output, "\(what) would be inside \(holder), where builds write only what they list; choose a folder outside it")
            }
        }
    }

    /// The nearest folder above `place` (a canonical path) that builds write, described: an output (it holds
    /// a build's manifest, known by its start) or the staging folder beside one, which may be empty.
    private static func enclosingBuildFolder(of place: String) -> String? {
        var folder = StagedOutput.parentFolder(of: place)
        while folder != "/" {
            if manifestPaths(in: folder) != nil { return "\(folder), a site's output (it holds \(manifestPath))" }
            if let output = outputStaged(in: folder) { return "\(folder), the staging folder of \(output)" }
            folder = StagedOutput.parentFolder(of: folder)
        }
        return nil
    }

    /// The output folder beside `folder` whose staging folder it is by name (`.public.staging` for `public`); nil
    /// for any other folder, or when there is no such output.
    private static func outputStaged(in folder: String) -> String? {
        let name = StagedOutput.lastComponent(of: folder)
        guard name.hasPrefix("."), name.hasSuffix(".staging") else { return nil }
        let output = StagedOutput.parentFolder(of: folder) + "/" + name.dropFirst().dropLast(".staging".count)
        var info = stat()
        guard StagedOutput(outputPath: output).stagingPath == folder, stat(output, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
        return output
    }

    /// Once the build holds its lock, before anything is removed: the output folder and the staging folder
    /// beside it may be replaced only when Noticeboard made them.
    public static func checkReplaceable(output: String) throws(BuildFailure) {
        let staged = StagedOutput(outputPath: output)
        if let reason = foreignOutput(staged.outputPath) {
            throw refusal(output, "\(reason); a build replaces that folder whole, so move it away or choose an empty or new folder")
        }
        if let reason = foreignStaging(staged.stagingPath) {
            throw refusal(
                output, "\(reason); a build replaces that folder beside its output, so move it away or choose another output folder")
        }
    }

    /// Before a build that writes, once the last build's record is known to describe the output: a file or
    /// folder someone added deeper in it since is not the site's, and is refused as one at its top is.
    /// Otherwise the swap would take it into the staging folder, and it would show in every other build.
    /// Adding an entry moves its folder's change time, which no program can set back (`tar` and `rsync -a`
    /// set modification times), so only `changedFolders` are listed: those changed since the record was put
    /// in place, or in the same clock tick (`SavedBuildState.foldersChanged`). Only then are the output's
    /// folders gathered, to tell a stray entry from a folder of outputs. `saved` is the record, put in place at `recordTime`.
    public static func checkNothingAdded(output: String, outputs: OutputTable, saved: SavedBuildState, since recordTime: timespec) throws(BuildFailure) {
        let changedFolders = try foldersChanged(in: output, saved: saved, since: recordTime, refusing: output)
        guard !changedFolders.isEmpty else { return }
        let entries = try entries(of: changedFolders, in: output, refusing: output)
        let strays = strays(among: entries, holds: { outputs[$0] != nil }, folders: outputFolders(outputs.keys))
        guard let stray = strays.min() else { return }
        throw refusal(output, "\(output)/\(stray)\(besides(strays)) is not the site's (no build wrote it) and was put there since the last build; "
            + "move it away (a file to publish goes in static/) and build again")
    }

    /// Before a whole build brings the earlier output kept in the staging folder up to date and swaps it in
    /// (`OutputBook.restaging`, when `recorded` confirms what the folder holds): a file or folder someone added
    /// or replaced in it since would be published, as one added to the output would be; an update looks only at
    /// the files it removes or writes. The same rule: only folders changed since the confirmation are read, its
    /// top among them, with the outputs' (`SavedBuildState.foldersChanged`) and those of the files it holds beside
    /// them (few). A name added at its top is refused by `foreignStaging`; one replaced there, or deeper, is found
    /// here: a link or a folder where a file was, or a file no longer as its build wrote it (`AsWritten`: a rename
    /// over a file, as `sed -i` makes, moves its folder's change time).
    public static func checkNothingAdded(toStagingOf output: String, saved: SavedBuildState, recorded: BuildState, statePath: String) throws(BuildFailure) {
        guard let staged = recorded.confirmedStaged(statePath: statePath),
            let confirmed = FileStamp(of: BuildState.stagingMarker(for: statePath))?.changeTime
        else { return }
        let staging = StagedOutput(outputPath: output).stagingPath
        let beside = outputFolders(recorded.staged?.differing.keys.filter { recorded.outputs[$0] == nil } ?? []).filter { folder in
            StagedOutput.changed(staging + "/" + folder, since: confirmed)
        }
        var changed = try foldersChanged(in: staging, saved: saved, since: confirmed, refusing: output).union(beside)
        if StagedOutput.changed(staging, since: confirmed) { changed.insert("") }
        guard !changed.isEmpty else { return }
        let asWritten: AsWritten
        do throws(WriteError) {
            // Gone is nothing to check; a folder that cannot be looked at is not taken for one unchanged.
            guard let held = try HeldFolder(opening: staging) else { return }
            asWritten = try AsWritten(folder: held)
        } catch {
            throw refusal(output, "\(error.message); the earlier output kept there could not be checked before a build brings it up to date")
        }
        let folders = outputFolders(staged.paths)
        let entries = try entries(of: changed, in: staging, refusing: output)
        let strays = strays(among: entries, holds: { staged[$0] != nil }, folders: folders).filter {
            !OwnedFolders.updateFiles.contains($0) && $0 != stagingMarker
        }
        let replaced = entries.filter { path in
            guard let kind = entryKind(staging + "/" + path) else { return false }
            if let digest = staged[path] { return kind != S_IFREG || (try? asWritten.holds(path, digest)) != true }
            return folders.contains(path) && kind != S_IFDIR
        }
        if let stray = strays.min() {
            throw refusal(output, "\(staging)/\(stray)\(besides(strays)) is not the site's (no build wrote it) and was put there since the last build; "
                + "a build would publish it with that folder, so move it away (a file to publish goes in static/) and build again")
        }
        if let changed = replaced.min() {
            let kept = StagedOutput.keepAside(staging, unrecorded: replaced)
            throw refusal(output, "\(staging)/\(changed)\(besides(replaced)) was changed since the last build wrote it; a build would publish it "
                + "with that folder, which was kept whole in \(kept.folder) instead (a file to publish goes in static/): build again to write the site anew")
        }
    }

    /// `saved.foldersChanged` in `folder`; one that is there but cannot be opened refuses the build to `output`: taken
    /// for one where nothing changed, as it was, nothing in it was looked at.
    private static func foldersChanged(in folder: String, saved: SavedBuildState, since time: timespec, refusing output: String) throws(BuildFailure) -> Set<String> {
        do throws(FileFailure) {
            return try saved.foldersChanged(since: time, in: folder)
        } catch {
            throw refusal(output, "\(error); it could not be opened to check that nothing was put in it since the last build")
        }
    }

    /// The entries of `changedFolders` (relative to `root`; empty for its top), as paths relative to `root`. A folder
    /// that is there but cannot be listed (too many files open, a failing disk) refuses the build to `output`: what it
    /// holds is not known, and may be a file someone put there.
    private static func entries(of changedFolders: Set<String>, in root: String, refusing output: String) throws(BuildFailure) -> [String] {
        var entries: [String] = []
        for folder in changedFolders {
            do throws(FileFailure) {
                let names = try FolderFiles.names(in: folder.isEmpty ? root : root + "/" + folder)
                entries += names.map { folder.isEmpty ? $0 : folder + "/" + $0 }
            } catch {
                throw refusal(output, "\(error); it changed since the last build and could not be listed to check that nothing was put there")
            }
        }
        return entries
    }

    /// What kind of entry is at `path` (`S_IFREG`, `S_IFDIR`, `S_IFLNK`…), links not followed; nil when none.
    private static func entryKind(_ path: String) -> mode_t? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    /// The `entries` that are neither files `holds` nor `folders`.
    private static func strays(among entries: [String], holds: (String) -> Bool, folders: Set<String>) -> [String] {
        entries.filter { !holds($0) && !folders.contains($0) }
    }

    private static func besides(_ strays: [String]) -> String {
        strays.count > 1 ? " (and \(strays.count - 1) more beside it)" : ""
    }

    /// Every folder below the top that holds an output, as a path relative to the output.
    private static func outputFolders(_ paths: some Sequence<String>) -> Set<String> {
        var folders = Set<String>()
        for path in paths {
            var folder = Substring(path)
            while let slash = folder.lastIndex(of: "/") {
                folder = folder[..<slash]
                guard folders.insert(String(folder)).inserted else { break }
            }
        }
        return folders
    }

    /// For `noticeboard new`: it only writes into a folder that is absent or empty.
    public static func checkNewSite(_ folder: String) -> String? {
        guard !folder.isEmpty else { return "name the folder to make the site in" }
        var info = stat()
        if lstat(folder, &info) != 0, errno == ENOTDIR { return OutputLock.missingFolderBeforeUp(folder) }
        switch entry(folder) {
        case .absent: return OutputLock.missingFolderBeforeUp(folder)
        case .emptyFolder: return nil
        case .folder: return "\(folder) is not empty; noticeboard new only writes into a new or empty folder"
        case .link: return "\(folder) is a symbolic link; name a new or empty folder itself"
        case .other: return "\(folder) exists and is not a folder; name a new or empty folder"
        }
    }

    /// Why the output folder is not Noticeboard's to replace, or nil when it is. `besides`: names at its top that a
    /// build leaves there beside what its manifest lists.
    static func foreignOutput(_ path: String, besides: Set<String> = []) -> String? {
        switch entry(path) {
        case .absent, .emptyFolder: return nil
        case .link: return "\(path) is a symbolic link, not a folder of its own"
        case .other: return "\(path) exists and is not a folder"
        case .folder(let names):
            guard let manifest = manifestPaths(in: path) else {
                return "\(path) holds files that Noticeboard did not write (it has no \(manifestPath) from an earlier build)"
            }
            if let stray = names.sorted().first(where: { $0 != "api" && !besides.contains($0) && !manifest.contains($0) }) {
                return "\(path) holds \(stray), which Noticeboard did not write (its \(manifestPath) does not list it; a file to publish at the site's top goes in static/)"
            }
            return nil
        }
    }

    /// Why the staging folder is not Noticeboard's to remove, or nil when it is (a build's leftover, or an
    /// earlier output that a build kept there).
    static func foreignStaging(_ path: String) -> String? {
        switch entry(path) {
        case .absent, .emptyFolder: return nil
        case .link: return "\(path) is a symbolic link"
        case .other: return "\(path) exists and is not a folder"
        case .folder(let names):
            if names.contains(stagingMarker) { return nil }
            // An earlier output a build was bringing up to date: its top level may already hold what the
            // manifest it started from does not list. Removing it keeps aside any file no build wrote.
            if names.contains(updateMarker), names.contains(updateManifest) || manifestPaths(in: path) != nil { return nil }
            // A build killed between linking the manifest and putting the marker in (`StagedOutput.markUpdating`),
            // or between taking the two out, left the link alone.
            guard foreignOutput(path, besides: [additionsJournal, updateManifest]) != nil else { return nil }
            let listed = manifestPaths(in: path) ?? []
            let strays = names.filter { !listed.contains($0) && !updateFiles.contains($0) }.sorted()
            return "\(path) holds \(strays.first.map { $0 + besides(strays) } ?? "files"), which Noticeboard did not write"
        }
    }

    static let manifestPath = Manifest.path

    /// Every file the manifest `file` lists, with its size and SHA-256; none when it is not a manifest, nil when
    /// there is no such file. Throws when it is there but cannot be read: taken for none, the earlier output was taken
    /// for no build's and removed whole. Read whole, for the rare removal of an earlier output
    /// (`StagedOutput.removeStaging`).
    static func listedFiles(inManifest file: String) throws(WriteError) -> [String: FileDigest]? {
        struct Listed: Decodable {
            struct File: Decodable { let path: String, size: Int, sha256: String }
            let files: [File]
        }
        guard let bytes = try contents(of: file) else { return nil }
        let files = (try? JSONDecoder().decode(Listed.self, from: Data(bytes)))?.files ?? []
        return Dictionary(files.compactMap { file in
            SHA256.Digest(hex: file.sha256.utf8).map { (file.path, FileDigest(size: file.size, sha256: $0)) }
        }) { first, _ in first }
    }

    /// The bytes of the file a build wrote at `file`, which a link never is; nil when nothing is there. Throws when
    /// something is there but cannot be read (a link, too many files open).
    static func contents(of file: String) throws(WriteError) -> [UInt8]? {
        let descriptor = open(file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            guard errno == ENOENT else { throw WriteError(path: file) }
            return nil
        }
        defer { close(descriptor) }
        guard let bytes = Descriptor.readAll(descriptor) else { throw WriteError(path: file) }
        return bytes
    }

    /// The first segments of the paths a Noticeboard manifest in `folder` lists, or nil when there is none.
    /// Only the top level is compared: it tells a folder of someone else's files (or one they added a file
    /// to) from an output, without reading tens of thousands of entries. The manifest is scanned as the bytes
    /// a build writes (`{"$schema":"….json","files":[{"path":"…",…`), not parsed: on a large site it is megabytes.
    private static func manifestPaths(in folder: String) -> Set<String>? {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: folder + "/" + manifestPath), options: .alwaysMapped) else { return nil }
        return data.withUnsafeBytes { firstSegments(ofManifest: $0.bindMemory(to: UInt8.self)) }
    }

    /// The entries come sorted by path, so a segment becomes a String only where it differs from the one
    /// before (at 430,000 listings, 800,000 entries have 15 first segments).
    private static func firstSegments(ofManifest bytes: UnsafeBufferPointer<UInt8>) -> Set<String>? {
        let opening = Array(#"{"$schema":""#.utf8), key = Array(#""path":""#.utf8)
        guard bytes.starts(with: opening), let end = firstIndex(of: Array(#"","files":["#.utf8), in: bytes, from: 0),
            bytes[..<end].reversed().starts(with: "api/schema/manifest.json".utf8.reversed())
        else { return nil }
        var names = Set<String>(), index = end
        var last: Slice<UnsafeBufferPointer<UInt8>>?
        while let found = firstIndex(of: key, in: bytes, from: index) {
            var stop = found + key.count
            while stop < bytes.count, bytes[stop] != UInt8(ascii: "/"), bytes[stop] != UInt8(ascii: "\""), bytes[stop] != UInt8(ascii: "\\") { stop += 1 }
            let segment = bytes[(found + key.count)..<stop]
            if last.map({ !$0.elementsEqual(segment) }) ?? true {
                names.insert(String(decoding: segment, as: UTF8.self))
                last = segment
            }
            index = stop
        }
        return names
    }

    private static func firstIndex(of needle: [UInt8], in haystack: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = haystack.baseAddress else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            guard let hit = memchr(base + index, Int32(needle[0]), haystack.count - index) else { return nil }
            let first = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if first + needle.count <= haystack.count, memcmp(base + first, needle, needle.count) == 0 { return first }
            index = first + 1
        }
        return nil
    }

    private enum Entry {
        case absent, emptyFolder, folder([String]), link, other
    }

    /// What is at `path`, links not followed; a folder that cannot be listed counts as holding something.
    private static func entry(_ path: String) -> Entry {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT ? .absent : .other }
        switch info.st_mode & S_IFMT {
        case S_IFLNK: return .link
        case S_IFDIR:
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return .folder(["?"]) }
            return names.isEmpty ? .emptyFolder : .folder(names)
        default: return .other
        }
    }

    /// `output` as given, with one slash after it (`public/`, `./`, `/`); '' when empty.
    private static func refusal(_ output: String, _ reason: String) -> BuildFailure {
        let place = output.isEmpty ? "''" : output.hasSuffix("/") ? output : output + "/"
        return BuildFailure([.error("refusing to write the site to \(place): \(reason)")])
    }

    /// `path` with links, `.` and `..` resolved as far as it exists, and the rest taken as written.
    static func canonical(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var existing = absolute, rest: [String] = []
        while realPath(existing) == nil, existing != "/" {
            rest.insert(StagedOutput.lastComponent(of: existing), at: 0)
            existing = StagedOutput.parentFolder(of: existing)
        }
        var parts = (realPath(existing) ?? "/").split(separator: "/").map(String.init)
        for part in rest where part != "." && !part.isEmpty {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Whether `path` is `folder` or below it.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || folder == "/" || path.hasPrefix(folder + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
