import Dispatch
import OutputWriter
import SiteLoader
import SiteModel
import Support

/// A site kept in memory between builds into one output folder, as `serve` keeps it. When the only change
/// is to the content of existing listing files (a bio, a price: not what orders, groups or names a listing,
/// see `Catalogue.replacing`), the build runs the pipeline's stages with that change set, starting from what
/// the last one left in memory: it reads those files again, enriches them, renders the outputs that show
/// them and swaps in a staging folder with just those files changed, so its cost is the pages it touches
/// rather than the whole site. Any other change is an ordinary build, which still renders only pages whose
/// inputs changed; after one, the staging folder is brought level with the output in the background (see
/// `LevelledStaging`), so that the next edit is built in place too. A start that finds the output up to date
/// reads nothing, so the output is served at once; the site is read, and what the first edit starts from is
/// made, in the background (`prepareLater`). A listing read with a change saved meanwhile makes the next
/// build an ordinary one (`Noticeboard.UpToDateSite.showsTheOutput`).
///
/// One build at a time: `build` is not to be called from two threads at once.
public final class LiveSite: @unchecked Sendable {
    public let options: BuildOptions
    /// What the builds leave for the next one, which the background work after a build completes.
    private let kept = Kept()
    /// Saves the record of an in-place build after its output is in place, then makes ready the next edit's
    /// spare buffers; the next build waits for it.
    private let saving = DispatchQueue(label: "noticeboard.live-site.saving")
    /// Prepares the next edit in place after a build that was not in place; the next build waits for it.
    private let preparing = DispatchQueue(label: "noticeboard.live-site.preparing")

    /// Held by the work queued after a build rather than the site itself, so the site's `deinit`, which waits
    /// for that work, never runs on one of its queues. Only the build, or the work it queued and the next
    /// build waits for, touches it (and tests, after `waitUntilIdle`).
    private final class Kept: @unchecked Sendable {
        /// What the last good build left; nil before one, or after one failed.
        var built: Noticeboard.BuiltSite?
        /// The output's manifest as the last build left it; a different one means another build wrote there since.
        var manifestStamp: FileStamp?

        /// Brings the staging folder level with the output the last build left, under the output's lock (taken
        /// after the record of the build is saved, which holds it until then), unless another build wrote the
        /// output since. A levelling that fails half-way leaves a folder that is trusted no more: the next edit
        /// is an ordinary build.
        func levelStaging(outputPath: String) {
            guard let built, LevelledStaging.isNeeded(for: built.state) else { return }
            guard let lock = try? OutputLock(outputPath: outputPath, waiting: {}), FileStamp(ofManifestIn: outputPath) == manifestStamp else { return }
            let levelled = LevelledStaging.level(outputPath: outputPath, statePath: built.statePath, state: built.state)
            self.built?.state.staged = levelled?.staged
            if let record = levelled?.record { self.built?.record = record }
            // Linking the output's files changed their stamps, the manifest's among them.
            manifestStamp = FileStamp(ofManifestIn: outputPath)
            withExtendedLifetime(lock) {}
        }

        /// After an edit in place, leaves a buffer for each document it spliced, which the next edit, likeliest
        /// to be of the same kind, splices again: the one that held the document's version before last, or when
        /// that is missing or too small, a new one, faulted in now rather than during the edit. Any other spare
        /// is let go.
        func prepareSpares() {
            guard let spliced = built?.kept?.splicedDocuments else { return }
            let written = built!.writtenFiles
            var earlier = exchange(&built!.spareFiles, with: [:])
            for path in spliced {
                guard let size = written[path]?.count else { continue }
                let kept = earlier.removeValue(forKey: path).flatMap { $0.capacity >= size ? $0 : nil }
                built!.spareFiles[path] = kept ?? SpareBuffers.prefaulted(for: size)
            }
        }

        /// The buffers the next edit in place writes its spliced documents over, and the bytes of those it splices
        /// from, no longer kept here.
        func takeBuffers() -> (written: [String: [UInt8]], spares: [String: [UInt8]]) {
            guard built != nil else { return ([:], [:]) }
            return (exchange(&built!.writtenFiles, with: [:]), exchange(&built!.spareFiles, with: [:]))
        }

        /// Makes what the next edit in place starts from, as that edit would otherwise have to (`Noticeboard.primed`).
        func primeRender(outputPath: String) {
            guard let built, let primed = Noticeboard.primed(for: built, outputPath: outputPath, manifestStamp: manifestStamp) else { return }
            self.built?.kept = primed.kept
            self.built?.writtenFiles = primed.documents
        }
    }

    /// Told when a start that found the output up to date has read the site again in the background.
    private let log: @Sendable (String) -> Void
    /// Run in the background after a build, before anything for the next edit is prepared: a test changes the
    /// output there, between the build and what is read back from it.
    var beforePreparing: @Sendable () -> Void = {}

    public init(options: BuildOptions, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.options = options
        self.log = log
    }

    deinit {
        waitUntilIdle()
    }

    /// Waits until the last build's record is saved.
    public func waitUntilSaved() {
        saving.sync {}
    }

    /// Waits until the last build's record is saved, and the next edit in place prepared (`prepareLater`).
    public func waitUntilIdle() {
        saving.sync {}
        preparing.sync {}
    }

    /// Whether the next edit in place starts from what a render kept (`Noticeboard.primedRender`).
    var keepsARender: Bool { kept.built?.kept != nil }

    /// The files the next edit in place splices from memory rather than reading them back.
    var filesInMemory: Set<String> { kept.built.map { Set($0.writtenFiles.keys) } ?? [] }

    /// Where the bytes of the files the next edit in place splices from start in memory, and those of the
    /// buffers it splices into, by path.
    var addressesInMemory: (written: [String: UInt], spare: [String: UInt]) {
        func addresses(_ files: [String: [UInt8]]) -> [String: UInt] {
            files.mapValues { bytes in bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        }
        return (addresses(kept.built?.writtenFiles ?? [:]), addresses(kept.built?.spareFiles ?? [:]))
    }

    /// Builds the site after its input files changed; `inputs` is a scan of them (taken now when nil).
    /// Bad input fails an in-place build as it would fail any build, and the last good build stays in
    /// memory and in the output folder.
    public func build(inputs: InputStamps? = nil, waiting: () -> Void = {}) throws(BuildFailure) -> BuildReport {
        waitUntilIdle()
        let inputs = inputs ?? InputStamps.scan(SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes), folders: Noticeboard.inputFolders)
        // Taken before `built` is copied, and handed on with `consume`, so that nothing else holds them (see
        // `SpareBuffers`): without it a build for debugging keeps a local's value until the end of its scope. A
        // scan that finds nothing changed builds nothing (`BuildRun.unchangedSummary`), and leaves them.
        let (written, spares) = kept.built?.state.inputs == inputs ? ([:], [:]) : kept.takeBuffers()
        if let built = kept.built,
            var run = try BuildRun(
                options, after: built, written: consume written, spares: consume spares, inputs: inputs, manifestStamp: kept.manifestStamp,
                waiting: waiting)
        {
            if let summary = run.unchangedSummary { return run.report(summary, imagesProcessed: 0) }
            let rebuilt: Noticeboard.BuiltSite?
            do throws(BuildFailure) {
                rebuilt = try Noticeboard.runStages(&run)
            } catch {
                // The last good build stays, and the next edit splices from the bytes this one was given.
                kept.built?.writtenFiles = run.changes?.book.lastWritten ?? [:]
                throw error
            }
            if let rebuilt {
                kept.built = rebuilt
                // A build that was not in place swapped a folder in, whose manifest may be a link to the last one's.
                if run.written > 0 || run.changes == nil { kept.manifestStamp = FileStamp(ofManifestIn: options.outputPath) }
                if let save = run.saveLater {
                    // The output is in place: its record is saved while the caller goes on (the lock is held
                    // until then, so no other build reads the record before it).
                    let (kept, lock) = (kept, run.lock)
                    saving.async {
                        kept.built?.record = save()
                        withExtendedLifetime(lock) {}
                    }
                }
                if run.changes == nil {
                    prepareLater()
                } else {
                    // After the record is saved, on the same queue: both change what `kept` holds.
                    saving.async { [kept] in kept.prepareSpares() }
                }
                return run.report(rebuilt.summary, imagesProcessed: 0)
            }
        }
        kept.built = nil
        let (report, keptSite) = try Noticeboard.build(options, waiting: waiting, keeping: true, scanned: inputs)
        kept.manifestStamp = FileStamp(ofManifestIn: options.outputPath)
        switch keptSite {
        case .built(let built)?:
            kept.built = built
            prepareLater()
        case .upToDate(let upToDate)?:
            prepareLater(reading: upToDate)
        case nil:
            break
        }
        return report
    }

    /// In the background, what the next edit in place starts from: the staging folder levelled with the
    /// output (`LevelledStaging`), and what the first edit would otherwise make (`Kept.primeRender`). A start
    /// that found the output up to date has read nothing: the site is read first, while the output is already
    /// served. One that cannot be read, or changed meanwhile, leaves no site, and the next build is a whole one
    /// (which reports why it could not be read).
    private func prepareLater(reading upToDate: Noticeboard.UpToDateSite? = nil) {
        let (kept, outputPath, log, beforePreparing) = (kept, options.outputPath, log, beforePreparing)
        preparing.async {
            beforePreparing()
            let start = DispatchTime.now()
            if let upToDate { kept.built = try? upToDate.read() }
            kept.levelStaging(outputPath: outputPath)
            kept.primeRender(outputPath: outputPath)
            guard upToDate != nil else { return }
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            log(kept.built == nil
                ? "The site changed while it was read again: the next build is a whole one."
                : String(format: "Read the site again in %.2f s: edits are built in place.", seconds))
        }
    }
}
