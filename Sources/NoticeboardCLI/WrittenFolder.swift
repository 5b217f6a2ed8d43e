import Foundation
import SiteModel

/// Writes the files `schema` and `codegen` make into `folder`, made with the folders above it when missing.
/// A file in the folder's place is said in words (Foundation printed `NSCocoaErrorDomain Code=516 …`); any
/// other failure gives Foundation's description, after the folder's name.
func writeFiles(_ files: [OutputFile], into folder: String) throws(BuildFailure) {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), !isFolder.boolValue {
        throw BuildFailure([.error("cannot write to \(folder)/: \(folder) exists and is not a folder")])
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
}
