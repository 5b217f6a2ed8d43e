import Foundation

/// The folders beneath a held folder that files were last reached in, kept open for the files that follow in them.
/// A writer takes a folder's files one after another, and reaching the folder afresh from the held folder for each
/// (to link a file, or make a folder, in it) costs two calls more, its open and close. Made for one batch of files,
/// on one thread.
///
/// A folder kept open was reached beneath the held folder without a link on the way. Moved, or swapped for a link,
/// afterwards, it still takes the batch's next files for it: they go into the folder the build made, never where the
/// link leads. A file that reaches the path afresh refuses the link, as the next build does when none does.
final class OpenFolders {
    let held: HeldFolder
    /// The folders kept open, by path below `held`, the one used last at the end.
    private var kept: [(path: String, descriptor: Int32)] = []
    /// Enough for a page's folder, the kind's folder it is made in, and a folder of API documents.
    private static let capacity = 4

    init(beneath held: HeldFolder) {
        self.held = held
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
            kept.append(kept.remove(at: index))
            return HeldFolder.Parent(descriptor: kept[kept.count - 1].descriptor, last: last, isOpened: false)
        }
        guard let opened = try held.parent(of: path) else { return nil }
        if kept.count == Self.capacity { close(kept.removeFirst().descriptor) }
        kept.append((folder, opened.descriptor))
        return HeldFolder.Parent(descriptor: opened.descriptor, last: last, isOpened: false)
    }

    /// `HeldFolder.link(_:to:in:)`, through the folders kept open.
    func link(_ path: String, to existing: String, in source: OpenFolders) throws(WriteError) -> Bool {
        guard let from = try source.parent(of: existing), let to = try parent(of: path) else { return false }
        return try HeldFolder.link(to, to: from, existing: existing, in: source.held)
    }

    /// `HeldFolder.makeFolder(_:)`, in the folder kept open.
    func makeFolder(_ path: String) throws(WriteError) -> Bool {
        guard let parent = try parent(of: path) else { return false }
        return mkdirat(parent.descriptor, parent.last, 0o755) == 0
    }
}
