import Foundation
import PathJournal
import SiteModel

/// An earlier output that held files no build wrote, moved aside whole rather than removed. Someone put
/// them inside the output folder; a build's swap took them, with the tree they were in, into the staging
/// folder, which a later build may remove (`StagedOutput.removeStaging`).
public struct KeptAside: Sendable, Equatable {
    /// Where it now is, beside the output folder: `.public.kept-20261205T132000`.
    public var folder: String
    /// The files in it that no build wrote, relative to it, sorted.
    public var unrecorded: [String]
    /// It is a staging folder (one a killed build left, or this build's after it failed), not an earlier output.
    public var isStagingFolder: Bool
    /// Why it could not be looked at, when it could not: then `unrecorded` holds all its files, or none when they could
    /// not be listed either.
    public var unchecked: String? = nil

    /// What a build says of it: files to publish go in the site's sources, not in its output.
    public var warning: Diagnostic {
        Diagnostic(.warning, at: nil, """
            \(finding) (files to publish go in templates/assets/). That folder was kept whole in \(folder) instead of removed; \
            move out what you want and delete it
            """)
    }

    private var finding: String {
        let shown = unrecorded.prefix(3).joined(separator: ", ") + (unrecorded.count > 3 ? " and \(unrecorded.count - 3) more" : "")
        if let unchecked { return "\(isStagingFolder ? "a staging folder" : "an earlier output") could not be checked for files that no build wrote (\(unchecked))" }
        if isStagingFolder {
            return "a staging folder held files that no build wrote (\(shown)): they were put there while a build wrote it, or after one was killed"
        }
        return """
            an earlier output held files that no build wrote, or changed since a build wrote them (\(shown)): they were put \
            or edited in the output folder, which only builds write
            """
    }
}

extension StagedOutput {
    /// The folder at `path`, an earlier output or a staging folder a killed build left, moved aside when it holds a
    /// file no build wrote, or one changed since a build wrote it (`AsWritten`); nil when it holds none. When it
    /// cannot be moved it stays where it is, whole.
    static func keptAside(_ path: String) -> KeptAside? {
        let marker: [UInt8]?
        do throws(WriteError) {
            marker = try OwnedFolders.contents(of: path + "/" + OwnedFolders.stagingMarker)
        } catch {
            // Taken for none, a staging folder was judged as an earlier output by a manifest it has not got, and removed.
            return keptUnchecked(path, isStagingFolder: true, because: error.message)
        }
        if marker == Array(OwnedFolders.removingMark.utf8) { return nil }
        // A folder made anew is marked only so; an earlier output being brought up to date (levelled anew, too) also
        // has `updateMarker`, and is judged by its manifest and journal.
        let isStagedAnew = marker != nil && access(path + "/" + OwnedFolders.updateMarker, F_OK) != 0
        let unrecorded: [String]?
        do throws(WriteError) {
            unrecorded = try isStagedAnew ? unjournaled(in: path) : Self.unrecorded(inEarlierOutput: path)
        } catch {
            return keptUnchecked(path, isStagingFolder: isStagedAnew, because: error.message)
        }
        guard let unrecorded, !unrecorded.isEmpty else { return nil }
        return keepAside(path, unrecorded: unrecorded, isStagingFolder: isStagedAnew)
    }

    /// The folder at `path`, which could not be looked at (`reason`), moved aside whole unless it holds nothing: it
    /// holds, for all a build knows, nothing it wrote. One whose files cannot be listed either may hold anything, and
    /// is moved aside with none listed.
    private static func keptUnchecked(_ path: String, isStagingFolder: Bool, because reason: String) -> KeptAside? {
        do throws(FileFailure) {
            let files = try FolderFiles.below(path)
            return files.isEmpty ? nil : keepAside(path, unrecorded: files, isStagingFolder: isStagingFolder, unchecked: reason)
        } catch {
            return keepAside(path, unrecorded: [], isStagingFolder: isStagingFolder, unchecked: reason)
        }
    }

    /// Moves the folder at `path`, holding the `unrecorded` files, aside beside it; it stays where it is when it
    /// cannot be moved.
    static func keepAside(_ path: String, unrecorded: [String], isStagingFolder: Bool = false, unchecked: String? = nil) -> KeptAside {
        let aside = asidePath(for: path)
        return KeptAside(
            folder: rename(path, aside) == 0 ? aside : path, unrecorded: unrecorded.sorted(), isStagingFolder: isStagingFolder, unchecked: unchecked)
    }

    /// The files in a staging folder made anew that its build did not note before writing (`PathJournal.additions`); nil
    /// when it has no journal, as one a build of a version before the journal left. Throws when the folder cannot be
    /// listed.
    private static func unjournaled(in path: String) throws(WriteError) -> [String]? {
        guard let noted = try PathJournal.additions(notedIn: path) else { return nil }
        return try files(below: path).filter { file in
            // A file a killed build was writing under a temporary name is the build's, as its file is.
            file != OwnedFolders.stagingMarker && !OwnedFolders.updateFiles.contains(file) && !noted.contains(StreamedFile.finalPath(of: file))
        }
    }

    /// The files of an earlier output that no build wrote, or changed since. A build wrote the files its manifest
    /// lists, as the manifest describes them; when a build was bringing it up to date (`markUpdating`), those the
    /// manifest it started from lists (as it describes them, or changed since the update began), and those the
    /// update noted it was adding (its own new manifest may already list a path it had not yet written, where
    /// someone's file still is). Nil for a folder with neither a manifest nor that mark, which is no build's to
    /// judge: `OwnedFolders` refused one before the build began, unless it was written through this type alone,
    /// which lists nothing. Throws when the folder cannot be looked at.
    private static func unrecorded(inEarlierOutput path: String) throws(WriteError) -> [String]? {
        let updateBegan = changeTime(path + "/" + OwnedFolders.updateMarker)
        let manifest = path + "/" + (updateBegan == nil ? OwnedFolders.manifestPath : OwnedFolders.updateManifest)
        let listed = try OwnedFolders.listedFiles(inManifest: manifest)
        guard listed != nil || updateBegan != nil else { return nil }
        let added = updateBegan == nil ? [] : try PathJournal.additions(notedIn: path) ?? []
        guard let folder = try HeldFolder(opening: path) else { throw WriteError(message: "\(path) is no longer a folder") }
        let asWritten = try AsWritten(folder: folder, manifest: updateBegan == nil ? OwnedFolders.manifestPath : OwnedFolders.updateManifest)
        return try files(below: path).filter { file in
            // A file a killed update was writing under a temporary name is the update's, as its file is.
            let final = StreamedFile.finalPath(of: file)
            if file == OwnedFolders.manifestPath || OwnedFolders.updateFiles.contains(file) || added.contains(final) { return false }
            if final != file, listed?[final] != nil { return false }
            guard let digest = listed?[file] else { return true }
            return !changed(path + "/" + file, since: updateBegan) && (try? asWritten.holds(file, digest)) != true
        }
    }

    /// `FolderFiles.below`, failing as the writer does.
    private static func files(below path: String) throws(WriteError) -> [String] {
        do throws(FileFailure) {
            return try FolderFiles.below(path)
        } catch {
            throw WriteError(error)
        }
    }

    /// Marks an earlier output in the staging folder as being brought up to date (`OwnedFolders.updateMarker`),
    /// before anything in it changes: a hard link to its manifest, then the marker, whose change time is when
    /// the update began. A mark a killed build left stays, with its earlier time and manifest.
    static func markUpdating(_ root: HeldFolder) throws(WriteError) {
        guard try root.status(OwnedFolders.updateMarker) == nil else { return }
        // One a build killed before its marker left: not the manifest this update starts from.
        _ = try root.unlink(OwnedFolders.updateManifest)
        _ = try root.link(OwnedFolders.updateManifest, to: OwnedFolders.manifestPath, in: root)
        let marker = try root.open(OwnedFolders.updateMarker, O_WRONLY | O_CREAT | O_EXCL, mode: 0o644)
        if marker >= 0 { close(marker) }
    }

    /// Whether the entry at `path` changed (was written, linked or renamed) at or after `time`; false without one.
    static func changed(_ path: String, since time: timespec?) -> Bool {
        guard let time, let changed = changeTime(path) else { return false }
        return (changed.tv_sec, changed.tv_nsec) >= (time.tv_sec, time.tv_nsec)
    }

    /// When the entry at `path` last changed (its inode's change time), links not followed.
    private static func changeTime(_ path: String) -> timespec? {
        var info = stat()
        return lstat(path, &info) == 0 ? info.st_ctim : nil
    }

    /// A new name beside the output folder for an earlier output kept aside: `.public.kept-20261205T132000`.
    private static func asidePath(for path: String) -> String {
        let name = lastComponent(of: path)
        let output = name.hasPrefix(".") && name.hasSuffix(".staging") ? String(name.dropFirst().dropLast(".staging".count)) : name
        let stamp = ISO8601DateFormatter.string(from: Date(), timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withYear, .withMonth, .withDay, .withTime])
        let base = sibling(of: path, named: ".\(output).kept-\(stamp)")
        var candidate = base, number = 1
        while access(candidate, F_OK) == 0 {
            number += 1
            candidate = base + "-\(number)"
        }
        return candidate
    }
}
