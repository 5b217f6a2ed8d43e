import Dispatch
import Foundation
import PathJournal
import SiteModel
import Synchronization

/// One write of a site into the staging folder, begun by `StagedOutput.begin` and ended by `finish`, which
/// swaps the folder in. Files are added from any thread as they are rendered.
///
/// When the folder is staged anew, each added file is written at once by a writer thread, so writing
/// overlaps rendering instead of following it: on a large site creating tens of thousands of files costs
/// as much as rendering them. There are two writers, one for the JSON API (`api/`, about half the files)
/// and one for the rest: creating files is kernel time that threads creating them in the same folders
/// spend waiting on each other's locks, and these two never share a folder. When the folder is brought up
/// to date, the few files that differ are written at the end, after the files no longer wanted are removed.
/// A document made as a stream (a kind's JSON or CSV) is written by the thread that makes it (`stream`).
public final class Staging: Sendable {
    let output: StagedOutput
    /// The staging folder, held open.
    let folder: StagingFolder
    /// Where its files are written: beneath the open folder (`HeldFolder`).
    private var root: HeldFolder { folder.files }
    /// What the staging folder holds, by path, when it is brought up to date; nil when it was staged anew.
    let staged: WrittenDigests?
    /// Whether its files are still as `staged` says, before one is removed or replaced.
    let asWritten: AsWritten
    let previousIsKnown: Bool
    /// The earlier output `begin` found in the staging folder and kept aside rather than removed.
    let keptAside: KeptAside?
    /// The output folder, held open when the write began, which `.previous` files and files with the same bytes
    /// are linked from; nil when it was not there: then no new file can be linked to one of its files, and none is
    /// looked for.
    private let source: HeldFolder?
    /// In a folder staged anew, where each file's path is noted before it is written, so that a build killed
    /// half-way leaves what tells its files from any someone puts there after.
    private let journal: PathJournal?
    private let writers = [DispatchQueue(label: "noticeboard.output-writer.pages"), DispatchQueue(label: "noticeboard.output-writer.api")]
    /// Memory held by rendered bytes handed to the writers and not written yet. Rendering outruns writing on a
    /// large site, and without a bound the site's bytes piled up in memory until the writers caught up at the end.
    let queued = QueuedBytes(limit: Staging.maxQueuedBytes)

    /// How much memory rendered bytes may hold while they wait for the writers before `add` waits for them instead.
    public static let maxQueuedBytes = 64 << 20
    private let progress = Mutex(Progress())

    private struct Progress {
        /// How many files the new site has.
        var files = 0
        /// The size of the files whose digests came with them, and the paths of the others.
        var knownBytes = 0
        var unsized: [String] = []
        var kept = 0
        /// Files written anew or linked, not counting `.previous` ones.
        var new = 0
        /// Files to write when the folder is brought up to date.
        var pending: [OutputFile] = []
        /// Folders already made in a folder staged anew.
        var folders: Set<Substring> = []
        /// Folders made ahead of their files that no file has gone into yet.
        var prepared: Set<Substring> = []
        var failure: BuildFailure?
    }

    init(
        output: StagedOutput, source: HeldFolder?, folder: StagingFolder, staged: WrittenDigests?, journal: PathJournal? = nil,
        asWritten: AsWritten, previousIsKnown: Bool, keptAside: KeptAside? = nil
    ) {
        self.output = output
        self.folder = folder
        self.staged = staged
        self.asWritten = asWritten
        self.previousIsKnown = previousIsKnown
        self.keptAside = keptAside
        self.source = source
        self.journal = journal
    }

    /// Adds files of the new site, with their digests where known (a file without one is always written).
    public func add(_ files: [(file: OutputFile, digest: FileDigest?)]) {
        let unsafe = files.first { !StagedOutput.isSafeRelativePath($0.file.path) }
        let fresh = files.filter { file in
            if case .previous = file.file.contents { return false }
            return true
        }.count
        if let unsafe { refuse(unsafe.file.path) }
        // Looked up before the lock that every rendering thread takes.
        let pending = staged.map { staged in files.filter { file in file.digest.map { staged[file.file.path] != $0 } ?? true }.map(\.file) }
        progress.withLock { progress in
            progress.new += fresh
            progress.files += files.count
            for (file, digest) in files {
                if let digest { progress.knownBytes += digest.size } else { progress.unsized.append(file.path) }
            }
            if let pending { progress.pending += pending }
        }
        guard staged == nil, unsafe == nil else { return }
        let api = files.filter { $0.file.path.hasPrefix("api/") }, pages = files.filter { !$0.file.path.hasPrefix("api/") }
        for (writer, files) in zip(writers, [pages, api]) where !files.isEmpty {
            let bytes = files.reduce(0) { $0 + $1.file.heldBytes }
            queued.wait(toAdd: bytes)
            writer.async { [self] in
                defer { queued.written(bytes) }
                guard progress.withLock({ $0.failure == nil }) else { return }
                do throws(WriteError) {
                    var kept = 0
                    try journal?.noteAdditions(files.lazy.map(\.file.path))
                    // The output's folders are only linked from: one moved meanwhile still holds the earlier build's files.
                    let linkedFrom = source.map(OpenFolders.init)
                    try OpenFolders.keeping(beneath: root) { staged throws(WriteError) in
                        for (file, _) in files {
                            try makeFolders(for: file.path, in: staged)
                            if try output.writeFile(file, in: staged, from: linkedFrom, linkingSameBytes: !previousIsKnown) { kept += 1 }
                        }
                    }
                    progress.withLock { $0.kept += kept }
                } catch {
                    fail(error)
                }
            }
        }
    }

    /// Writes a file made as it is written (`OutputFile.Contents.streamed`) at `path`, on the calling thread,
    /// and returns its digest; nil when it was not written (`finish` then throws). It does not wait for the
    /// writers: held whole, a kind's document was the largest allocation of a build. In a folder brought up
    /// to date it goes into place at once, which the files `finish` removes and writes never include.
    public func stream(_ write: (inout ByteStream) -> Void, at path: String) -> FileDigest? {
        guard StagedOutput.isSafeRelativePath(path) else {
            refuse(path)
            return nil
        }
        guard progress.withLock({ $0.failure == nil }) else { return nil }
        do throws(WriteError) {
            if let staged {
                try StagedOutput.checkReplaceable([path], in: root, staged: staged, asWritten: asWritten)
                if staged[path] == nil { try StagedOutput.recordAdditions([path], in: root) }
                try OpenFolders.keeping(beneath: root) { folders throws(WriteError) in try StagedOutput.makeFolders(for: [path], in: folders) }
            } else {
                try OpenFolders.keeping(beneath: root) { folders throws(WriteError) in try makeFolders(for: path, in: folders) }
                try StagedOutput.recordAdditions([path], in: root, journal: journal)
            }
            let written = try StreamedFile.write(write, at: path, in: root, sameAs: source)
            progress.withLock { progress in
                progress.files += 1
                progress.knownBytes += written.digest.size
                progress.new += 1
                if written.linked { progress.kept += 1 }
            }
            return written.digest
        } catch {
            fail(error)
            return nil
        }
    }

    private func refuse(_ path: String) {
        progress.withLock { progress in
            if progress.failure == nil {
                progress.failure = BuildFailure([.error("refusing to write '\(path)': output paths must stay inside \(output.outputPath)/")])
            }
        }
    }

    /// Makes folders that files will go into (`cleaners/ana/`, each ending in `/`) before the files are
    /// rendered, so that the writer does this share of its work while the site is still being enriched and
    /// indexed. One that no file ends up in is removed again by `finish`.
    public func prepareFolders(_ folders: [String]) {
        guard staged == nil else { return }
        writers[0].async { [self] in
            guard progress.withLock({ $0.failure == nil }) else { return }
            do throws(WriteError) {
                try OpenFolders.keeping(beneath: root) { staged throws(WriteError) in
                    for folder in folders { try makeFolders(for: folder, in: staged) }
                }
                progress.withLock { $0.prepared.formUnion(folders.map { $0.dropLast() }) }
            } catch {
                fail(error)
            }
        }
    }

    /// Waits for the files to be written, then swaps the staging folder in as the output folder.
    /// `wanted` tells the new site's paths, those added and streamed: a folder brought up to date loses every
    /// other file. Asked of the caller, which holds them already: kept here as well, the paths were 61 MiB of a
    /// rebuild's peak at 430,000 listings.
    public func finish(wanted: (String) -> Bool) throws(BuildFailure) -> StagedOutput.Summary {
        for writer in writers { writer.sync {} }
        let result = progress.withLock { $0 }
        for prepared in result.prepared { StagedOutput.removeEmptyFolders(above: prepared + "/", in: root) }
        var replacedKeptAside: KeptAside?
        do throws(WriteError) {
            if result.failure == nil, let staged {
                try output.update(folder, from: staged, asWritten: asWritten, source: source, wanted: wanted, changed: result.pending)
            }
            if result.failure == nil { replacedKeptAside = try output.swapIn(folder, keepPrevious: previousIsKnown) }
        } catch {
            fail(error)
        }
        if let failure = progress.withLock({ $0.failure }) {
            let kept = [keptAside, folder.removeAfterFailure()].compactMap { $0 }
            throw BuildFailure(failure.diagnostics + kept.map(\.warning))
        }
        return StagedOutput.Summary(
            files: result.files, written: result.new - result.kept,
            bytes: result.unsized.reduce(result.knownBytes) { $0 + output.size(of: $1) }, keptAside: [keptAside, replacedKeptAside].compactMap { $0 })
    }

    /// Ends a write that will not be swapped in (the input turned out bad after writing began): waits for the
    /// writers and removes the staging folder, as a failed `finish` does.
    public func abandon() {
        progress.withLock { progress in
            if progress.failure == nil { progress.failure = BuildFailure([]) }
        }
        for writer in writers { writer.sync {} }
        folder.removeAfterFailure()
    }

    private func fail(_ error: WriteError) {
        progress.withLock { progress in
            if progress.failure == nil { progress.failure = output.failure(error) }
        }
    }

    /// The folders that hold `path` in the folder staged anew, made once each (on a writer thread; two
    /// writers making the same folder both succeed). Only those not made yet are asked for, shortest first.
    private func makeFolders(for path: String, in staged: OpenFolders) throws(WriteError) {
        guard let slash = path.lastIndex(of: "/") else { return }
        let missing = progress.withLock { progress in
            progress.prepared.remove(path[..<slash])
            return Self.unmade(above: path, in: progress.folders)
        }
        for folder in missing.reversed() { try StagedOutput.makeFolder(String(folder), in: staged) }
        progress.withLock { $0.folders.formUnion(missing) }
    }

    /// The folders that hold `path` and are not among those `made`, longest first.
    private static func unmade(above path: String, in made: Set<Substring>) -> [Substring] {
        var missing: [Substring] = []
        var folder = path[...]
        while let slash = folder.lastIndex(of: "/") {
            folder = folder[..<slash]
            if made.contains(folder) { break }
            missing.append(folder)
        }
        return missing
    }
}

/// A count of bytes in flight with a bound: producers wait while it is over the bound, except that one batch
/// may always go when nothing waits to be written (a batch larger than the bound is not held back forever).
final class QueuedBytes: @unchecked Sendable {
    let limit: Int
    // Guarded by `condition`.
    private var bytes = 0
    private let condition = NSCondition()

    init(limit: Int) {
        self.limit = limit
    }

    /// Waits until `count` more bytes fit, then counts them.
    func wait(toAdd count: Int) {
        condition.lock()
        while bytes > 0 && bytes + count > limit { condition.wait() }
        bytes += count
        condition.unlock()
    }

    func written(_ count: Int) {
        condition.lock()
        bytes -= count
        condition.broadcast()
        condition.unlock()
    }

    /// Bytes counted and not yet written.
    var inFlight: Int {
        condition.lock()
        defer { condition.unlock() }
        return bytes
    }
}
