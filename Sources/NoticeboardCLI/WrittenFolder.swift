import Foundation
import SiteModel

/// Writes the files `schema` and `codegen` make into `folder`, made with the folders above it when missing.
/// A file already at one of their names is replaced only when a run of the same command wrote it (it says
/// so, with `mark`, near its start); any other is the user's, and nothing is written. Files an earlier run
/// wrote that this one does not make (a kind renamed) are removed. A file in the folder's place is said in
/// words (Foundation printed `NSCocoaErrorDomain Code=516 …`); any other failure gives Foundation's
/// description, after the folder's name.
func writeFiles(_ files: [OutputFile], into folder: String, markedBy mark: String) throws(BuildFailure) {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
        throw BuildFailure([.error("cannot write to \(folder)/: \(folder) exists and is not a folder")])
    }
    let names = Set(files.map(\.path))
    let present = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
    let theirs = present.filter { names.contains($0) && !isMarked(folder + "/" + $0, by: mark) }.sorted()
    guard theirs.isEmpty else {
        throw BuildFailure(theirs.map { name in
            .error(at: SourceLocation(file: folder + "/" + name), "this file was not written by this command (it lacks '\(mark)'), so it is left as it is and nothing was written; move it away or choose another folder")
        })
    }
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for file in files {
            guard case .bytes(let bytes) = file.contents else { continue }
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + file.path))
        }
        for stale in present where !names.contains(stale) && isMarked(folder + "/" + stale, by: mark) {
            try FileManager.default.removeItem(atPath: folder + "/" + stale)
        }
    } catch {
        throw BuildFailure([.error("cannot write to \(folder)/: \((error as NSError).localizedDescription)")])
    }
}

/// Whether the regular file at `path` holds `mark` in its first 512 bytes.
private func isMarked(_ path: String, by mark: String) -> Bool {
    guard let handle = FileHandle(forReadingAtPath: path) else { return false }
    defer { try? handle.close() }
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG, let start = try? handle.read(upToCount: 512) else { return false }
    return String(decoding: start, as: UTF8.self).contains(mark)
}
