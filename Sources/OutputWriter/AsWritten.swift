import Foundation
import SiteModel
import Support

/// Tells whether files a build wrote in a folder are still as it wrote them, before a build removes or replaces
/// them: someone may have changed one in the output folder since (`echo >> public/about/index.html`), and a build
/// removes only what it made. A file's size is always compared; its bytes (by SHA-256) when it was modified at or
/// after the folder's manifest, which a build writes after its other files. Reading every file would cost as much
/// as a build's writing; a file a build wrote or linked keeps its earlier time.
struct AsWritten {
    /// The folder the files are in, held open: they are reached beneath it (`HeldFolder`).
    private let folder: HeldFolder
    /// When the manifest was last modified; nil when there is none, and then every file's bytes are compared.
    private let since: timespec?

    /// The files in `folder`; `manifest`, there, is the manifest the build that wrote them wrote last.
    init(folder: HeldFolder, manifest: String = OwnedFolders.manifestPath) throws(WriteError) {
        self.folder = folder
        since = try folder.status(manifest)?.st_mtim
    }

    /// Refuses to go on when a file at `paths` is not as `staged` says a build wrote it.
    func check(_ paths: some Sequence<String>, staged: WrittenDigests) throws(WriteError) {
        for path in paths {
            guard let digest = staged[path], try !holds(path, digest) else { continue }
            throw WriteError(message: """
                \(folder.name)/\(path) was changed since a build wrote it (in the output folder too, while the two folders \
                shared it), and a build removes or replaces only what it made (files to publish go in static/ or \
                templates/assets/); build again to write the site anew
                """)
        }
    }

    /// True when the file at `path` holds what `digest` describes, or is gone (nothing would be lost).
    func holds(_ path: String, _ digest: FileDigest) throws(WriteError) -> Bool {
        guard let info = try folder.status(path) else { return true }
        guard (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == digest.size else { return false }
        // Written no later than the manifest (the manifest itself, among them) is a build's writing.
        if let since, (info.st_mtim.tv_sec, info.st_mtim.tv_nsec) <= (since.tv_sec, since.tv_nsec) { return true }
        let descriptor = try folder.open(path, O_RDONLY | O_NONBLOCK)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        guard let (bytes, _) = FileStamp.read(opened: descriptor, size: digest.size) else { return false }
        return SHA256.digest(bytes) == digest.sha256
    }
}
