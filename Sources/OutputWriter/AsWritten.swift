import Foundation
import SiteModel
import Support

/// Tells whether files a build wrote in a folder are still as it wrote them, before a build removes or replaces
/// them: someone may have changed one in the output folder since (`echo >> public/about/index.html`), and a build
/// removes only what it made. A file's size is always compared; its bytes (by SHA-256) when it was modified at or
/// after the folder's manifest, which a build writes after its other files. Reading every file would cost as much
/// as a build's writing; a file a build wrote or linked keeps its earlier time.
struct AsWritten {
    /// When the manifest was last modified; nil when there is none, and then every file's bytes are compared.
    private let since: timespec?

    /// `manifest`: the manifest the build that wrote the files wrote last.
    init(manifest: String) {
        var info = stat()
        since = lstat(manifest, &info) == 0 ? info.st_mtim : nil
    }

    /// The files of the output in `folder`, by its own manifest.
    init(folder: String) {
        self.init(manifest: folder + "/" + OwnedFolders.manifestPath)
    }

    /// Refuses to go on when a file at `paths` below `root` is not as `staged` says a build wrote it.
    func check(_ paths: some Sequence<String>, in root: String, staged: WrittenDigests) throws(WriteError) {
        for path in paths {
            guard let digest = staged[path], !holds(root + "/" + path, digest) else { continue }
            throw WriteError(message: """
                \(root)/\(path) was changed since a build wrote it (in the output folder too, while the two folders \
                shared it), and a build removes or replaces only what it made (files to publish go in static/ or \
                templates/assets/); build again to write the site anew
                """)
        }
    }

    /// True when the file at `path` holds what `digest` describes, or is gone (nothing would be lost).
    func holds(_ path: String, _ digest: FileDigest) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return errno == ENOENT }
        guard (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == digest.size else { return false }
        // Written no later than the manifest (the manifest itself, among them) is a build's writing.
        if let since, (info.st_mtim.tv_sec, info.st_mtim.tv_nsec) <= (since.tv_sec, since.tv_nsec) { return true }
        guard let (bytes, _) = FileStamp.read(path, size: digest.size) else { return false }
        return SHA256.digest(bytes) == digest.sha256
    }
}
