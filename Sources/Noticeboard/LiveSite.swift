import Dispatch
import OutputWriter
import Rendering
import SiteLoader
import SiteModel

/// A site kept in memory between builds into one output folder, as `serve` keeps it. When the only change
/// is to the content of existing listing files (a bio, a price: not what orders, groups or names a listing,
/// see `Catalogue.replacing`), the build runs the pipeline's stages with that change set, starting from what
/// the last one left in memory: it reads those files again, enriches them, renders the outputs that show
/// them and swaps in a staging folder with just those files changed, so its cost is the pages it touches
/// rather than the whole site. Any other change is an ordinary build, which still renders only pages whose
/// inputs changed; after one, the staging folder is brought level with the output in the background (see
/// `LevelledStaging`), so that the next edit is built in place too.
///
/// One build at a time: `build` is not to be called from two threads at once.
public final class LiveSite: @unchecked Sendable {
    public let options: BuildOptions
    /// What the last good build left; nil before one, or after one failed.
    private var built: Noticeboard.BuiltSite?
    /// The output's manifest as the last build left it; a different one means another build wrote there since.
    private var manifestStamp: FileStamp?
    /// Saves the record of an in-place build after its output is in place; the next build waits for it.
    private let saving = DispatchQueue(label: "noticeboard.live-site.state")
    /// Levels the staging folder after a build that was not in place; the next build waits for it.
    private let levelling = DispatchQueue(label: "noticeboard.live-site.staging")

    public init(options: BuildOptions) {
        self.options = options
    }

    deinit {
        saving.sync {}
        levelling.sync {}
    }

    /// Builds the site after its input files changed; `inputs` is a scan of them (taken now when nil).
    /// Bad input fails an in-place build as it would fail any build, and the last good build stays in
    /// memory and in the output folder.
    /// Waits until the last build's record is saved.
    public func waitUntilSaved() {
        saving.sync {}
    }

    /// Waits until the last build's record is saved and the staging folder levelled after it.
    public func waitUntilIdle() {
        saving.sync {}
        levelling.sync {}
    }

    public func build(inputs: InputStamps? = nil, waiting: () -> Void = {}) throws(BuildFailure) -> BuildReport {
        waitUntilIdle()
        let inputs = inputs ?? InputStamps.scan(SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes), folders: Noticeboard.inputFolders)
        if let built, var run = try BuildRun(options, after: built, inputs: inputs, manifestStamp: manifestStamp, waiting: waiting) {
            if let summary = run.unchangedSummary { return run.report(summary, imagesProcessed: 0) }
            if let rebuilt = try Noticeboard.runStages(&run) {
                self.built = rebuilt
                if run.written > 0 { manifestStamp = FileStamp(of: options.outputPath + "/" + Manifest.path) }
                // The output is in place: its record is saved while the caller goes on (the lock is held
                // until then, so no other build reads the record before it).
                let save = run.saveLater, lock = run.lock
                // Weakly: the last reference let go here would run `deinit`, which waits for this queue, on it.
                saving.async { [weak self] in
                    // The next build waits for this (`saving.sync`) before it reads `built`.
                    let record = save?()
                    self?.built?.record = record
                    withExtendedLifetime(lock) {}
                }
                if run.changes == nil { levelStagingLater() }
                return run.report(rebuilt.state.summary, imagesProcessed: 0)
            }
        }
        built = nil
        let (report, kept) = try Noticeboard.build(options, waiting: waiting, keeping: true, scanned: inputs)
        built = kept
        manifestStamp = FileStamp(of: options.outputPath + "/" + Manifest.path)
        levelStagingLater()
        return report
    }

    /// Brings the staging folder level with the output the last build left, in the background, under the
    /// output's lock (taken after the record of the build is saved, which holds it until then), unless
    /// another build wrote the output since.
    private func levelStagingLater() {
        guard let built, LevelledStaging.isNeeded(for: built.state) else { return }
        let (outputPath, statePath, state, stamp) = (options.outputPath, built.statePath, built.state, manifestStamp)
        let manifest = outputPath + "/" + Manifest.path
        levelling.async { [weak self] in
            guard let lock = try? OutputLock(outputPath: outputPath, waiting: {}), FileStamp(of: manifest) == stamp,
                let levelled = LevelledStaging.level(outputPath: outputPath, statePath: statePath, state: state)
            else { return }
            // The next build waits for this queue before it reads `built`. Linking the output's files
            // changed their stamps, the manifest's among them.
            self?.built?.state.staged = levelled.staged
            self?.built?.record = levelled.record
            self?.manifestStamp = FileStamp(of: manifest)
            withExtendedLifetime(lock) {}
        }
    }
}
