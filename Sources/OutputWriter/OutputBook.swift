import Foundation
import Rendering
import SiteModel
import Support
import Synchronization

/// The bookkeeping of one build's output, for a build from scratch and for `serve`'s in-place edit alike:
/// the digest of every file as it is rendered, which files the output already holds, the sync documents and manifest, the
/// build record (`BuildState`) and its staging marker, and the totals the report gives.
///
/// A build from scratch stages every file (`restaging`): one whose bytes the last build already wrote is
/// kept rather than rewritten. An in-place edit (`inPlace`) starts from the last build's record: only the
/// files it renders are looked at, those whose bytes changed are written into the staging folder, which
/// holds the site before last, and the folder is swapped in.
public final class OutputBook: Sendable {
    let outputPath: String
    let statePath: String
    /// What the last build wrote, when its record describes the output folder.
    let recorded: BuildState?
    /// In place: the bytes of the files the last edit in place wrote (`Finished.writtenFiles`), of those this
    /// one may splice.
    public let lastWritten: [String: [UInt8]]
    /// In place: the spare buffers the spliced documents are written into, which `LiveSite` keeps from edit to edit.
    public let spares: SpareBuffers
    /// Whether the record keeps its layout, which the next record is spliced from; in place, the layout of the last.
    private let recordLayout: RecordLayoutUse
    private let mode: Mode
    private let outputs: Mutex<OutputTable>
    /// In place: the files whose bytes changed.
    private let changed = Mutex<[String: OutputFile]>([:])

    private enum RecordLayoutUse: Sendable {
        case none, keep
        case splice(RecordLayout)
    }

    private enum Mode: Sendable {
        case restaging(Staging)
        case inPlace(BuildState.Staged)
    }

    /// What a finished write left: the new record, and the totals for the report.
    public struct Finished: Sendable {
        public var state: BuildState
        public var written: Int
        /// Saves the record beside the site, and the marker that confirms its staging folder; returns the
        /// record's layout when it keeps one. The output is in place before; until it is saved, the caller
        /// holds the output's lock.
        public var save: @Sendable () -> RecordLayout?
        /// In place: the bytes of the files written (or, when none were, those it was given of the files the
        /// last edit wrote), which the next edit in place splices from without reading them back (`lastBytes`).
        public var writtenFiles: [String: [UInt8]] = [:]
        /// In place: the bytes of the files the last edit wrote, when this one wrote others in their place: the
        /// next edit's `spares`.
        public var spareFiles: [String: [UInt8]] = [:]
        /// In place: the outputs that differ from the last build's, written or removed; any other has its bytes.
        public var changedPaths: Set<String> = []
        /// Earlier outputs kept aside, not removed, for the files in them that no build wrote.
        public var keptAside: [KeptAside] = []
    }

    private init(
        outputPath: String, statePath: String, recorded: BuildState?, mode: Mode, outputs: OutputTable,
        lastWritten: [String: [UInt8]] = [:], spares: SpareBuffers = .none, recordLayout: RecordLayoutUse
    ) {
        self.outputPath = outputPath
        self.statePath = statePath
        self.recorded = recorded
        self.mode = mode
        self.outputs = Mutex(outputs)
        self.lastWritten = lastWritten
        self.spares = spares
        self.recordLayout = recordLayout
    }

    /// A write of every file into the staging folder. The staging folder beside the output still holds the
    /// site before last when the marker says so; it is brought up to date rather than staged anew. Its
    /// marker goes first: a write cut short leaves none. With `keepingRecordLayout` the record's layout is
    /// kept for an edit in place to splice the next record from (`serve`).
    public static func restaging(
        outputPath: String, statePath: String, recorded: BuildState?, keepingRecordLayout: Bool = false
    ) throws(BuildFailure) -> OutputBook {
        let staged = recorded?.confirmedStaged(statePath: statePath)
        unlink(BuildState.stagingMarker(for: statePath))
        let staging = try StagedOutput(outputPath: outputPath).begin(staged: staged, previousIsKnown: recorded != nil)
        return OutputBook(
            outputPath: outputPath, statePath: statePath, recorded: recorded, mode: .restaging(staging),
            outputs: OutputTable(minimumCapacity: recorded?.outputs.count ?? 0),
            recordLayout: keepingRecordLayout ? .keep : .none)
    }

    /// A write of the files an in-place edit renders over the last build's; nil when there is no staging
    /// folder the record vouches for (the first edit after a build that kept none). `lastWritten` holds the
    /// bytes of the files the last edit in place wrote (`Finished.writtenFiles`); `spares`, the buffers `LiveSite`
    /// kept for the documents to splice, taken to be written over (see `SpareBuffers`); `recordLayout`, the
    /// layout of the last record when it was kept (`Finished.save`), which the new record is spliced from.
    public static func inPlace(
        outputPath: String, statePath: String, last: BuildState, lastWritten: [String: [UInt8]], spares: consuming [String: [UInt8]] = [:],
        recordLayout: RecordLayout?
    ) -> OutputBook? {
        guard let staged = last.staged else { return nil }
        return OutputBook(
            outputPath: outputPath, statePath: statePath, recorded: last, mode: .inPlace(staged), outputs: last.outputs, lastWritten: lastWritten,
            spares: SpareBuffers(consume spares), recordLayout: recordLayout.map { .splice($0) } ?? .keep)
    }

    /// Folders that files will go into, made while the site is still being enriched (see `Staging`).
    public func prepareFolders(_ folders: [String]) {
        if case .restaging(let staging) = mode { staging.prepareFolders(folders) }
    }

    /// Ends a write that will not be swapped in (the input turned out bad after it began): a staging folder
    /// begun anew is removed; in place nothing was written yet.
    public func abandon() {
        if case .restaging(let staging) = mode { staging.abandon() }
    }

    /// The bytes the last build recorded for the output file at `path` (an in-place render splices the large
    /// documents from them); nil for a file the record does not list. Those the last edit in place wrote are
    /// still in memory; others are read back from the output folder and digested, and nil when the file is
    /// gone or changed since. At 430,000 listings the documents an edit splices are 650 MB, which took a
    /// third of a second to digest and as long again to read.
    @Sendable public func lastBytes(_ path: String) -> [UInt8]? {
        guard let digest = recorded?.outputs[path]?.digest else { return nil }
        if let bytes = lastWritten[path], bytes.count == digest.size { return bytes }
        return Self.recordedBytes(at: path, outputPath: outputPath, recorded: digest)?.bytes
    }

    /// The bytes of the file at `path` in the output folder, with the digest a splice of them resumes, when they
    /// are still those `recorded`; nil when the file is gone or changed since. Read into a buffer with the room
    /// of a spare (`SpareBuffers`), which the edit after next may write over.
    public static func recordedBytes(at path: String, outputPath: String, recorded: FileDigest) -> (bytes: [UInt8], digest: ResumableDigest)? {
        let read = FileStamp.read(outputPath + "/" + path, size: recorded.size, capacity: SpareBuffers.room(for: recorded.size))
        guard let (bytes, _) = read else { return nil }
        let digest = ResumableDigest(of: bytes)
        return digest.digest == recorded.sha256 ? (bytes, digest) : nil
    }

    /// Rendered files, from any thread: each is digested on the core that made it.
    public func add(_ batch: consuming [SiteRenderer.RenderedFile]) {
        switch mode {
        case .restaging(let staging):
            var queued: [(file: OutputFile, digest: FileDigest?)] = [], made: [(path: String, output: BuildState.Output)] = []
            // Taken, so that the batch is let go after the loop: a stream may read `outputs` (the manifest,
            // made in `finish`), which would be copied whole when they change below.
            for item in consume batch {
                if let digest = digest(of: item.file) {
                    queued.append((restaged(item.file, digest), digest))
                    made.append((item.file.path, BuildState.Output(digest: digest, renderKey: item.renderKey)))
                } else if case .streamed(let write) = item.file.contents, let digest = staging.stream(write, at: item.file.path) {
                    made.append((item.file.path, BuildState.Output(digest: digest, renderKey: item.renderKey)))
                }
            }
            staging.add(queued)
            outputs.withLock { outputs in
                for item in made { outputs[item.path] = item.output }
            }
        case .inPlace:
            // A page whose render key did not change comes as `.previous`, and stays as the record says. A
            // stream is made whole: in place, the files that changed are written at the end.
            let digested = batch.compactMap { item -> (file: OutputFile, output: BuildState.Output)? in
                guard let bytes = item.file.contents.inMemory else { return nil }
                let digest = item.file.digest ?? Manifest.digest(bytes)
                return (OutputFile(path: item.file.path, contents: .bytes(bytes)), BuildState.Output(digest: digest, renderKey: item.renderKey))
            }
            outputs.withLock { outputs in
                changed.withLock { changed in
                    for item in digested {
                        if outputs[item.file.path]?.digest != item.output.digest { changed[item.file.path] = item.file }
                        outputs[item.file.path] = item.output
                    }
                }
            }
        }
    }

    /// The digest of a file held whole, copied or kept, or of a stream made with it (a sync bucket, which the
    /// writers then make, or keep when the last build wrote the same); nil for another stream, which is
    /// digested as it is written.
    private func digest(of file: OutputFile) -> FileDigest? {
        switch file.contents {
        case .previous: recorded!.outputs[file.path]!.digest
        case .bytes(let bytes): file.digest ?? Manifest.digest(bytes)
        case .copy(let source): Manifest.digest(FileManager.default.contents(atPath: source).map { [UInt8]($0) } ?? [])
        case .streamed: file.digest
        }
    }

    /// The file to stage: one whose bytes the last build wrote is kept rather than rewritten.
    private func restaged(_ file: OutputFile, _ digest: FileDigest) -> OutputFile {
        recorded?.outputs[file.path]?.digest == digest ? OutputFile(path: file.path, contents: .previous) : file
    }

    /// Adds the files made from every other file's digest (`derive`: the sync documents and the manifest;
    /// in place it is also given the files whose bytes changed), writes what is left and swaps the staging
    /// folder in. `record` is the new build record, given its outputs. Nil when an in-place edit rendered a
    /// file the last build did not write, or its staging folder is gone: then it needs a whole build.
    public func finish(
        derive: (WrittenDigests, Set<String>?) -> [OutputFile], record: (OutputTable) -> BuildState
    ) throws(BuildFailure) -> Finished? {
        switch mode {
        case .restaging(let staging):
            add(derive(outputs.withLock { $0 }.digests, nil).map { SiteRenderer.RenderedFile(file: $0, renderKey: nil) })
            let state = record(outputs.withLock { $0 })
            // The record is written while the last files are.
            let keepingLayout = if case .keep = recordLayout { true } else { false }
            let written = InBackground { [statePath] in state.write(besides: statePath, keepingLayout: keepingLayout) }
            let summary: StagedOutput.Summary
            do {
                let made = state.outputs
                summary = try staging.finish { made[$0] != nil }
            } catch {
                written.value?.discard()
                throw error
            }
            return Finished(state: state, written: summary.written, save: { [statePath] in
                let layout = written.value?.save()
                state.confirmStaged(statePath: statePath)
                return layout
            }, keptAside: summary.keptAside)
        case .inPlace(let staged):
            return try finishInPlace(staged: staged, derive: derive, record: record)
        }
    }

    private func finishInPlace(
        staged: BuildState.Staged, derive: (WrittenDigests, Set<String>?) -> [OutputFile], record: (OutputTable) -> BuildState
    ) throws(BuildFailure) -> Finished? {
        let last = recorded!
        // Taken rather than copied: the book is done with them, and a copy of 780,000 entries, made on
        // the first change below, cost a tenth of a second each.
        var files = changed.withLock { taken in exchange(&taken, with: [:]) }
        var outputs = outputs.withLock { taken in exchange(&taken, with: OutputTable()) }
        guard outputs.count == last.outputs.count else { return nil }
        var removed: Set<String> = []
        if !files.isEmpty {
            // The derived files are made anew: some may be added (this build's change list), some dropped.
            let lastDerived = last.outputs.paths(where: { SyncDocuments.isDerived($0) })
            for path in lastDerived { outputs[path] = nil }
            // Looked up where they are, and let go before `outputs` changes below (which would copy it).
            let derived = { [outputs, files] in
                derive(outputs.digests, Set(files.keys))
            }()
            for made in derived {
                guard let bytes = made.contents.inMemory else { return nil }
                outputs[made.path] = BuildState.Output(digest: Manifest.digest(bytes), renderKey: nil)
                if last.outputs[made.path]?.digest != outputs[made.path]!.digest { files[made.path] = OutputFile(path: made.path, contents: .bytes(bytes)) }
            }
            // Only derived files come and go in place (the count was checked above).
            removed = Set(lastDerived.filter { outputs[$0] == nil })
            guard try write(files, removing: removed, over: last, as: outputs, staged: staged) else { return nil }
        }
        var state = record(outputs)
        // The staging folder now holds the last site, which differs from this one at `files` and `removed`.
        var differing: [String: FileDigest] = [:]
        for path in removed.union(files.keys) { differing[path] = last.outputs[path]?.digest }
        state.staged = files.isEmpty ? last.staged : BuildState.Staged(
            id: UUID().uuidString, differing: differing, missing: Set(files.keys.filter { last.outputs[$0] == nil }))
        let saved = state
        // Nothing written, the last edit's files are still those recorded.
        let writtenFiles = files.isEmpty ? lastWritten : files.compactMapValues(\.contents.inMemory)
        return Finished(state: saved, written: files.count, save: { [statePath, recordLayout] in
            let written = if case .splice(let layout) = recordLayout {
                saved.write(besides: statePath, splicing: (last, layout))
            } else {
                saved.write(besides: statePath, keepingLayout: true)
            }
            let layout = written?.save()
            saved.confirmStaged(statePath: statePath)
            return layout
        }, writtenFiles: writtenFiles, spareFiles: files.isEmpty ? [:] : lastWritten, changedPaths: removed.union(files.keys))
    }

    /// The staging folder holds the site before last: brings the paths where it differs from the new site
    /// up to date, then swaps it in. False when the staging folder is gone.
    private func write(
        _ files: [String: OutputFile], removing removed: Set<String>, over last: BuildState, as outputs: OutputTable,
        staged: BuildState.Staged
    ) throws(BuildFailure) -> Bool {
        let paths = Set(staged.differing.keys).union(staged.missing).union(files.keys).union(removed)
        let held = staged.files(over: last.outputs)
        var stagedDigests: [String: FileDigest] = [:]
        for path in paths {
            if let digest = held[path] { stagedDigests[path] = digest }
        }
        let wanted = paths.filter { outputs[$0] != nil }
        let writes = wanted.filter { outputs[$0]!.digest != stagedDigests[$0] }.sorted().map { path in
            files[path] ?? OutputFile(path: path, contents: .previous)
        }
        unlink(BuildState.stagingMarker(for: statePath))
        return try StagedOutput(outputPath: outputPath).replace(staged: WrittenDigests(stagedDigests), wanted: wanted, changed: writes)
    }
}
