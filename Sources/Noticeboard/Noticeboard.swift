import CatalogueIndex
import Enrichment
import Foundation
import OutputWriter
import Rendering
import SiteLoader
import SiteModel
import SiteValidation

/// The whole pipeline: load → parse → validate → enrich → index → render → write; the stages are in
/// `Stages.swift`, the outputs in Rendering's `Outputs.swift`.
public enum Noticeboard {
    public static let version = "0.1.0"

    /// The folders whose files a build reads.
    public static let inputFolders = ["content", "templates"]

    /// The path part of the site's base URL (`/catalogue/`), from a checked configuration.
    public static func basePath(_ options: BuildOptions) throws(BuildFailure) -> String {
        try LoadedSite.config(SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes)).basePath
    }

    /// Reads and checks the site, and renders it in memory, without writing anything.
    public static func check(_ options: BuildOptions) throws(BuildFailure) -> [Diagnostic] {
        let site = try LoadedSite(files: SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes), baseURL: options.baseURL)
        var stages = StageTimes()
        let catalogue = try enrichAndIndex(site, buildDate: options.now ?? CalendarDate.today(), stages: &stages)
        SiteRenderer(catalogue: catalogue, templates: site.templates, staticFiles: staticFiles(site)).render { _ in }
        return site.warnings
    }

    /// Builds the site into the output folder, replacing it whole only when everything succeeded.
    /// With the record of the last build into the same folder, it renders only pages whose inputs changed,
    /// keeps unchanged files as they were, and does nothing at all when no input changed.
    /// Builds into the same place run one at a time: `waiting` is called when this one has to wait.
    public static func build(_ options: BuildOptions, waiting: () -> Void = {}) throws(BuildFailure) -> BuildReport {
        try build(options, waiting: waiting, keeping: false).report
    }

    /// What a build leaves in memory for the next one to start from (see `LiveSite`).
    struct BuiltSite {
        var site: LoadedSite
        /// Its enrichment settings and listings' titles (which an in-place build does not change).
        var enrichment: SiteEnrichment
        var catalogue: Catalogue
        /// What the render left for the next in place; nil when nothing was rendered (the next edit makes
        /// the search index and the documents with an item per listing anew).
        var kept: KeptRender?
        var state: BuildState
        var statePath: String
        /// The bytes of the files the last edit in place wrote (`OutputBook.Finished.writtenFiles`).
        var writtenFiles: [String: [UInt8]] = [:]
        /// Where the lines of the build record lie, once it is saved; the next edit in place splices its record from it.
        var record: RecordLayout?
    }

    /// A build from scratch, and with `keeping` what it read and made (also when nothing changed, so it
    /// still reads the site); from `scanned` inputs, or a scan made now.
    static func build(
        _ options: BuildOptions, waiting: () -> Void, keeping: Bool, scanned: InputStamps? = nil
    ) throws(BuildFailure) -> (report: BuildReport, built: BuiltSite?) {
        var run = try BuildRun(options, keepingSite: keeping, scanned: scanned, waiting: waiting)
        if let summary = run.unchangedSummary {
            var built: BuiltSite?
            if keeping, let previous = run.previous { built = try unchanged(previous, &run) }
            if options.processEndsAfter { LeftForExit.keep(run.inputs) }
            return (run.report(summary, imagesProcessed: 0), built)
        }
        // Only an in-place edit stops short of its output.
        guard let built = try runStages(&run) else { preconditionFailure("a build from scratch always writes its output") }
        if options.processEndsAfter { LeftForExit.keep(built, run.recorded, run.inputs) }
        return (run.report(built.state.summary, imagesProcessed: built.site.images.processed), keeping ? built : nil)
    }

    /// What a build that found nothing changed keeps in memory: the site read and indexed again.
    private static func unchanged(_ previous: BuildState, _ run: inout BuildRun) throws(BuildFailure) -> BuiltSite {
        let site = try LoadedSite(files: run.files, baseURL: run.options.baseURL)
        var state = previous
        if !state.stagingIsConfirmed(statePath: run.statePath) { state.staged = nil }
        var loaded = Loaded(site: site)
        var enriched = enrich(&loaded, changes: nil, keepsSite: true, stages: &run.stages)
        let catalogue = try index(&enriched, changes: nil, buildDate: run.buildDate, stages: &run.stages)!
        return BuiltSite(site: site, enrichment: enriched.enrichment, catalogue: catalogue, kept: nil, state: state, statePath: run.statePath)
    }

    /// Markdown to HTML and derived values for every listing and page, then the catalogue's collections.
    static func enrichAndIndex(_ site: LoadedSite, buildDate: CalendarDate, stages: inout StageTimes) throws(BuildFailure) -> Catalogue {
        var loaded = Loaded(site: site)
        var enriched = enrich(&loaded, changes: nil, keepsSite: true, stages: &stages)
        return try index(&enriched, changes: nil, buildDate: buildDate, stages: &stages)!
    }
}
