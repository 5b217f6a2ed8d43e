import Foundation

/// The folders beneath a held folder that files were last reached in, kept open for the files that follow in them.
/// A writer takes a folder's files one after another, and reaching the folder afresh from the held folder for each
/// (to link a file, or make a folder, in it) costs two calls more, its open and close. Made for one batch of files,
/// on one thread, and ended by `finish`.
///
/// A folder kept open was reached beneath the held folder without a link on the way; the files after the first go
/// into it without the path being resolved again. So before a folder that took more than one file is let go, the
/// path is resolved again, and must still lead to it: one moved, or swapped for a link, meanwhile is refused as a
/// file reaching it afresh would have refused it, and the build publishes nothing. Its files went into the folder
/// the build made, never where a link leads. Nothing removes a folder while a batch holds it open.
final class OpenFolders {
    let held: HeldFolder
    /// The folders kept open, by path below `held`, the one used last at the end.
    private var kept: [Kept] = []
    /// Enough for a page's folder, the kind's folder it is made in, and a folder of API documents. At least two:
    /// `link` holds the folder it links from (the one used last) while it reaches the one it links into.
    private static let capacity = 4

    private struct Kept {
        let path: String
        let descriptor: Int32
        /// How many files were reached through it: after the first, without the path resolved again.
        var uses = 1
    }

    init(beneath held: HeldFolder) {
        self.held = held
    }

    /// Runs `body` with the folders beneath `held` kept open, then `finish`es.
    static func keeping<Result>(beneath held: HeldFolder, _ body: (OpenFolders) throws(WriteError) -> Result) throws(WriteError) -> Result {
        let folders = OpenFolders(beneath: held)
        let result = try body(folders)
        try folders.finish()
        return result
    }

    deinit {
        for folder in kept { close(folder.descriptor) }
    }

    /// The folder that holds `path`, and `path`'s last part; nil when it cannot be opened, `errno` saying why.
    func parent(of path: String) throws(WriteError) -> HeldFolder.Parent? {
        try held.checkBeneath(path)
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return try held.parent(of: path) }
        let folder = String(path[..<slash]), last = String(path[path.utf8.index(after: slash)...])
        if let index = kept.firstIndex(where: { $0.path == folder }) {
            var found = kept.remove(at: index)
            found.uses += 1
            kept.append(found)
            return HeldFolder.Parent(descriptor: found.descriptor, last: last, isOpened: false)
        }
        guard let opened = try held.parent(of: path) else { return nil }
        // Kept before the oldest is let go, which can throw: then `deinit` closes it with the others.
        kept.append(Kept(path: folder, descriptor: opened.descriptor))
        if kept.count > Self.capacity { try letGo(kept.removeFirst()) }
        return HeldFolder.Parent(descriptor: opened.descriptor, last: last, isOpened: false)
    }

    /// `HeldFolder.link(_:to:in:)`, through the folders kept open.
    func link(_ path: String, to existing: String, in source: OpenFolders) throws(WriteError) -> Bool {
        guard let from = try source.parent(of: existing), let to = try parent(of: path) else { return false }
        return try HeldFolder.link(at: to, to: from, existing: existing, in: source.held)
    }

    /// `HeldFolder.makeFolder(_:)`, in the folder kept open.
    func makeFolder(_ path: String) throws(WriteError) -> Bool {
        guard let parent = try parent(of: path) else { return false }
        return mkdirat(parent.descriptor, parent.last, 0o755) == 0
    }

    /// Lets every folder go, each checked to be still at its path.
    func finish() throws(WriteError) {
        while !kept.isEmpty { try letGo(kept.removeFirst()) }
    }

    /// Closes `folder`; refuses when it took more than one file and its path no longer leads to it.
    private func letGo(_ folder: Kept) throws(WriteError) {
        defer { close(folder.descriptor) }
        guard folder.uses > 1 else { return }
        let atPath = try held.open(folder.path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
        defer { if atPath >= 0 { close(atPath) } }
        var found = stat(), written = stat()
        guard atPath >= 0, fstat(atPath, &found) == 0, fstat(folder.descriptor, &written) == 0,
            found.st_dev == written.st_dev, found.st_ino == written.st_ino
        else {
            throw WriteError(message: "\(held.name)/\(folder.path) was moved or replaced while the build wrote into it: \(held.whenLinkMet)")
        }
    }
}
