import Foundation
import Noticeboard
import PathJournal
import SiteModel

/// Writes the files `schema` and `codegen` make into `folder`, made with the folders above it when missing.
/// A file already at one of their names (in any case: a disk that ignores case takes `cleaner.swift` for
/// `Cleaner.swift`) is replaced only when a run of the same command wrote it (it bears one of `marks`); any
/// other is the user's, and nothing is written. Returns the files an earlier run wrote that
/// this one does not make (a kind renamed), which are left for the user: a copy of a generated file keeps
/// its mark. A file in the folder's place is said in words (Foundation printed `NSCocoaErrorDomain Code=516
/// …`); any other failure gives Foundation's description, after the folder's name.
func writeFiles(_ files: [OutputFile], into folder: String, markedBy marks: [GeneratedFileMark]) throws(BuildFailure) -> [String] {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
        throw BuildFailure([.error("cannot write to \(folder)/: \(folder) exists and is not a folder")])
    }
    let names = Set(files.map { $0.path.lowercased() })
    let present = try listing(of: folder)
    // Each file's own name is looked at too, so that what the listing missed is not taken for absent.
    var atTheirNames = Set(present.filter { names.contains($0.lowercased()) })
    for file in files where try isThere(folder + "/" + file.path) { atTheirNames.insert(file.path) }
    let theirs = atTheirNames.filter { !isMarked(folder + "/" + $0, by: marks) }.sorted()
    guard theirs.isEmpty else {
        throw BuildFailure(theirs.map { name in
            .error(at: SourceLocation(file: folder + "/" + name), "this file was not written by this command (it does not start with '\(marks[0].start)'), so it is left as it is and nothing was written; move it away or choose another folder")
        })
    }
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in files {
            guard case .bytes(let bytes) = file.contents else { continue }
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + file.path))
        }
    } catch {
        throw BuildFailure([.error("cannot write to \(folder)/: \((error as NSError).localizedDescription)")])
    }
    return present.filter { !names.contains($0.lowercased()) && isMarked(folder + "/" + $0, by: marks) }
}

/// The names in `folder`, sorted; none when it is absent. Any other failure (a link to itself, too many files open,
/// a listing failing part way) throws: read as empty, a file of the user's there would be taken for none and written
/// over.
private func listing(of folder: String) throws(BuildFailure) -> [String] {
    do throws(FileFailure) {
        return try FolderFiles.names(in: folder).sorted()
    } catch {
        throw cannotList(folder, error.code)
    }
}

private func cannotList(_ folder: String, _ reason: Int32) -> BuildFailure {
    BuildFailure([.error("cannot list \(folder)/ to check what is there (\(String(cString: strerror(reason)))), so nothing was written")])
}

/// Whether there is an entry at `path`, by its own `lstat`; only "no such file" is none, any other failure throws.
private func isThere(_ path: String) throws(BuildFailure) -> Bool {
    var info = stat()
    if lstat(path, &info) == 0 { return true }
    guard errno == ENOENT else {
        throw BuildFailure([.error(at: SourceLocation(file: path), "cannot check what is here (\(String(cString: strerror(errno)))), so nothing was written")])
    }
    return false
}

/// Whether the regular file at `path` bears one of `marks`, read in its first 512 bytes.
private func isMarked(_ path: String, by marks: [GeneratedFileMark]) -> Bool {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    guard let start = try? handle.read(upToCount: 512) else { return false }
    let text = String(decoding: start, as: UTF8.self)
    return marks.contains { $0.isOn(text) }
}

/// Tells of files an earlier run wrote that this one did not make, which stay.
func tellOfEarlierFiles(_ names: [String], in folder: String, madeBy command: String) {
    for name in names {
        FileHandle.standardError.write(Data(
            "note: \(folder)/\(name) was written by an earlier `\(command)` for a kind no longer in the site; delete it if nothing uses it\n".utf8))
    }
}
