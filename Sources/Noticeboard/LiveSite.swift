import CatalogueIndex
import Dispatch
import Enrichment
import Foundation
import OutputWriter
import Rendering
import SiteLoader
import SiteModel
import Synchronization

/// A site kept in memory between builds into one output folder, as `serve` keeps it. When the only change
/// is to the content of existing listing files (a bio, a price: not what orders, groups or names a listing,
/// see `Catalogue.replacing`), the build starts from what the last one left in memory: it reads those
/// files again, enriches them, renders the files that show them and swaps in a staging folder with just
/// those files changed, so its cost is the pages it touches rather than the whole site. Any other change is
/// an ordinary build, which still renders only pages whose inputs changed.
///
/// One build at a time: `build` is not to be called from two threads at once.
public final class LiveSite: @unchecked Sendable {
    public let options: BuildOptions
    /// What the last good build left; nil before one, or after one failed.
    private var built: Noticeboard.BuiltSite?
    /// The last build's report, whose totals an in-place build adjusts rather than counts again.
    private var last: BuildReport?
    /// The output's manifest as the last build left it; a different one means another build wrote there since.
    private var manifestStamp: FileStamp?
    /// Saves the state of an in-place build after its output is in place; the next build waits for it.
    private let saving = DispatchQueue(label: "noticeboard.live-site.state")

    public init(options: BuildOptions) {
        self.options = options
    }

    deinit {
        saving.sync {}
    }

    /// Builds the site after its input files changed; `inputs` is a scan of them (taken now when nil).
    public func build(inputs: InputStamps? = nil, waiting: () -> Void = {}) throws(BuildFailure) -> BuildReport {
        saving.sync {}
        let inputs = inputs ?? InputStamps.scan(SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes), folders: Noticeboard.inputFolders)
        if let built, let last, let report = try buildInPlace(from: built, last, inputs: inputs, waiting: waiting) {
            self.last = report
            return report
        }
        (built, last) = (nil, nil)
        let (report, kept) = try Noticeboard.build(options, waiting: waiting, keeping: true)
        (built, last) = (kept, report)
        manifestStamp = FileStamp(of: options.outputPath + "/" + Manifest.path)
        return report
    }

    /// The in-place build, or nil when this change needs an ordinary build. Bad input fails it as it
    /// would fail any build, and the last good build stays in memory and in the output folder.
    private func buildInPlace(
        from built: Noticeboard.BuiltSite, _ last: BuildReport, inputs: InputStamps, waiting: () -> Void
    ) throws(BuildFailure) -> BuildReport? {
        let start = DispatchTime.now()
        var stages = StageTimes()
        let previous = built.state
        // With as many inputs as before, a file added in place of another shows as changed, and is not a listing file of the site.
        let changed = inputs.stamps.filter { previous.inputs.stamps[$0.key] != $0.value }.keys
        let buildDate = options.now ?? CalendarDate.today()
        guard buildDate == built.catalogue.buildDate, inputs.stamps.count == previous.inputs.stamps.count else { return nil }
        var site = built.site
        let listings = changed.sorted().compactMap { site.listing(inFile: $0) }
        guard listings.count == changed.count else { return nil }
        let lock = try OutputLock(outputPath: options.outputPath, waiting: waiting)
        // Another build may have written the output since this one's last; then this one's record of it is stale.
        guard FileStamp(of: options.outputPath + "/" + Manifest.path) == manifestStamp else { return nil }
        if changed.isEmpty { return report(last, written: 0, bytes: 0, site: built.site, stages: stages, start: start) }
        guard let staged = previous.staged else { return nil }

        // Read, check and enrich the edited listings; put them in place in the catalogue.
        var catalogue = built.catalogue
        let enrichment = built.enrichment
        var slugs: [String: Set<String>] = [:]
        var enriched: [Listing] = []
        for old in listings {
            let listing = try site.reread(old)
            guard listing.media.map(\.path) == old.media.map(\.path), let schema = site.schemas.first(where: { $0.name == listing.kind }) else {
                return nil
            }
            enriched.append(enrichment.enricher(for: schema).enrich(listing))
        }
        stages.finish("read and enrich the edited listings")
        for listing in enriched {
            guard let replaced = try catalogue.replacing(listing, formatter: enrichment.formatter) else { return nil }
            catalogue = replaced
            slugs[listing.kind, default: []].insert(listing.slug)
        }
        stages.finish("index them in place")

        // Render what shows them; a file with the bytes the output already has is left alone.
        let renderer = SiteRenderer(catalogue: catalogue, templates: site.templates)
        let rendered = RenderedFiles()
        renderer.renderChanges(of: slugs, previousKey: { previous.outputs[$0]?.renderKey }, emit: rendered.add)
        stages.finish("render what shows them")
        var outputs = previous.outputs
        var files: [String: OutputFile] = [:]
        var growth = 0
        for item in rendered.files {
            guard case .bytes(let bytes) = item.file.contents else { continue }
            let output = BuildState.Output(digest: Manifest.digest(bytes), renderKey: item.renderKey)
            guard let old = outputs[item.file.path] else { return nil }
            outputs[item.file.path] = output
            if old.digest != output.digest {
                files[item.file.path] = item.file
                growth += output.digest.size - old.digest.size
            }
        }
        stages.finish("digest what changed")
        var state = previous
        state.inputs = inputs
        state.outputs = outputs
        state.warnings = site.warnings
        if !files.isEmpty {
            let manifest = Manifest.file(for: outputs.filter { $0.key != Manifest.path }.mapValues(\.digest), site: catalogue.site)
            if case .bytes(let bytes) = manifest.contents {
                state.outputs[Manifest.path] = BuildState.Output(digest: Manifest.digest(bytes), renderKey: nil)
                files[Manifest.path] = manifest
                growth += bytes.count - previous.outputs[Manifest.path]!.digest.size
            }
            stages.finish("manifest")
            guard try write(files, over: previous, as: state.outputs, staged: staged, statePath: built.statePath) else { return nil }
            stages.finish("write output")
            // The staging folder now holds the last site, which differs from this one at `files`.
            state.staged = BuildState.Staged(
                id: UUID().uuidString, differing: files.keys.reduce(into: [:]) { $0[$1] = previous.outputs[$1]!.digest }, missing: [])
            manifestStamp = FileStamp(of: options.outputPath + "/" + Manifest.path)
        }
        self.built = Noticeboard.BuiltSite(site: site, enrichment: enrichment, catalogue: catalogue, state: state, statePath: built.statePath)
        // The output is in place: the state that describes it is saved while the caller goes on (the lock
        // is held until then, so no other build reads the state before it).
        let statePath = built.statePath, saved = state
        saving.async {
            BuildState.save(saved.encoded(), to: statePath)
            saved.confirmStaged(statePath: statePath)
            withExtendedLifetime(lock) {}
        }
        return report(last, written: files.count, bytes: growth, site: site, stages: stages, start: start)
    }

    /// The staging folder holds the site before last: brings the paths where it differs from the new site
    /// up to date, then swaps it in. False when the staging folder is gone.
    private func write(
        _ files: [String: OutputFile], over previous: BuildState, as outputs: [String: BuildState.Output], staged: BuildState.Staged, statePath: String
    ) throws(BuildFailure) -> Bool {
        let paths = Set(staged.differing.keys).union(staged.missing).union(files.keys)
        var stagedDigests: [String: FileDigest] = [:]
        for path in paths where !staged.missing.contains(path) {
            if let digest = staged.differing[path] ?? previous.outputs[path]?.digest { stagedDigests[path] = digest }
        }
        let wanted = paths.filter { outputs[$0] != nil }
        let writes = wanted.filter { outputs[$0]!.digest != stagedDigests[$0] }.sorted().map { path in
            files[path] ?? OutputFile(path: path, contents: .previous)
        }
        unlink(BuildState.stagingMarker(for: statePath))
        return try StagedOutput(outputPath: options.outputPath).replace(staged: stagedDigests, wanted: wanted, changed: writes)
    }

    /// The last report's counts, with what this build wrote and how much the output grew.
    private func report(_ last: BuildReport, written: Int, bytes: Int, site: LoadedSite, stages: StageTimes, start: DispatchTime) -> BuildReport {
        BuildReport(
            listings: last.listings, pages: last.pages, files: last.files, written: written, bytes: last.bytes + bytes, imagesProcessed: 0,
            warnings: site.warnings, seconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9, stages: stages)
    }
}

/// Files handed over by the renderer's threads.
private final class RenderedFiles: Sendable {
    private let collected = Mutex<[SiteRenderer.RenderedFile]>([])

    @Sendable func add(_ batch: [SiteRenderer.RenderedFile]) {
        collected.withLock { $0 += batch }
    }

    var files: [SiteRenderer.RenderedFile] { collected.withLock { $0 } }
}

/// Identity, size and modification time of a file, to tell whether it was replaced.
struct FileStamp: Equatable {
    let device: UInt64, inode: UInt64, size: Int64, seconds: Int, nanoseconds: Int

    init?(of path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        size = Int64(info.st_size)
        seconds = info.st_mtim.tv_sec
        nanoseconds = info.st_mtim.tv_nsec
    }
}
