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
    public static let inputFolders = ["content", "templates", "static"]

    /// The path part of the site's base URL (`/catalogue/`), from a checked configuration.
    public static func basePath(_ options: BuildOptions) throws(BuildFailure) -> String {
        try LoadedSite.config(SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes)).basePath
    }

    /// Reads and checks the site, and renders it in memory, without writing anything.
    public static func check(_ options: BuildOptions) throws(BuildFailure) -> [Diagnostic] {
        let site = try LoadedSite(files: SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes), baseURL: options.baseURL)
        var stages = StageTimes()
        let catalogue = try enrichAndIndex(site, buildDate: options.now ?? CalendarDate.day(in: site.config.timeZone), stages: &stages).catalogue
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
        /// What the render left for the next in place; nil when nothing was rendered, until `LiveSite` makes
        /// it in the background (`primedRender`), and after that too when what it made was not the output, or
        /// when another build replaced the output first (`primed`).
        var kept: KeptRender?
        var state: BuildState
        var statePath: String
        /// What its report says of its output, which an edit in place updates rather than walking every output.
        var summary: BuildState.Summary
        /// The bytes of the files the last edit in place wrote (`OutputBook.Finished.writtenFiles`), or
        /// the documents the first edit splices, made ready after the build before it (`PrimedRender`).
        var writtenFiles: [String: [UInt8]] = [:]
        /// Buffers the next edit writes its spliced documents over (`SpareBuffers`): the files the edit before
        /// the last wrote, until `LiveSite` leaves one for each document the last edit spliced
        /// (`prepareSpares`). `LiveSite` takes them out before the next build.
        var spareFiles: [String: [UInt8]] = [:]
        /// Where the lines of the build record lie, once it is saved; the next edit in place splices its record from it.
        var record: RecordLayout?
    }

    /// What a kept build leaves for the next one.
    enum KeptSite {
        /// The site it read and made.
        case built(BuiltSite)
        /// It found the output up to date, and read nothing: the site is read when wanted (`LiveSite` reads it
        /// while the output is already served).
        case upToDate(UpToDateSite)
    }

    /// A build from scratch, and with `keeping` what it leaves for the next one; from `scanned` inputs, or a
    /// scan made now.
    static func build(
        _ options: BuildOptions, waiting: () -> Void, keeping: Bool, scanned: InputStamps? = nil
    ) throws(BuildFailure) -> (report: BuildReport, kept: KeptSite?) {
        var run = try BuildRun(options, keepingSite: keeping, scanned: scanned, waiting: waiting)
        if let summary = run.unchangedSummary {
            let kept = keeping ? run.previous.map { KeptSite.upToDate(UpToDateSite(record: $0, summary: summary, run: run)) } : nil
            if options.processEndsAfter { LeftForExit.keep(run.inputs) }
            return (run.report(summary, imagesProcessed: 0), kept)
        }
        // Only an in-place edit stops short of its output.
        guard let built = try runStages(&run) else { preconditionFailure("a build from scratch always writes its output") }
        if options.processEndsAfter { LeftForExit.keep(built, run.recorded, run.inputs) }
        return (run.report(built.summary, imagesProcessed: built.site.images.processed), keeping ? .built(built) : nil)
    }

    /// A site whose output a build found up to date: what reading it again for the edits to come needs.
    struct UpToDateSite: Sendable {
        let record: BuildState
        let summary: BuildState.Summary
        let files: SiteFiles
        let baseURL: String?
        let buildDate: CalendarDate
        let statePath: String

        /// Taken while the build holds the output's lock: the staging folder is trusted only when its marker
        /// confirms it then.
        init(record: BuildState, summary: BuildState.Summary, run: BuildRun) {
            var record = record
            if !record.stagingIsConfirmed(statePath: run.statePath) { record.staged = nil }
            self.record = record
            self.summary = summary
            files = run.files
            baseURL = run.options.baseURL
            buildDate = run.buildDate
            statePath = run.statePath
        }

        /// The site read, enriched and indexed again, as the build that wrote the output left it; nil when it
        /// was read with a listing's change since (`showsTheOutput`).
        func read() throws(BuildFailure) -> BuiltSite? {
            let site = try LoadedSite(files: files, baseURL: baseURL)
            var stages = StageTimes()
            let (enrichment, catalogue) = try enrichAndIndex(site, buildDate: buildDate, stages: &stages)
            let built = BuiltSite(
                site: site, enrichment: enrichment, catalogue: catalogue, kept: nil, state: record, statePath: statePath, summary: summary)
            return showsTheOutput(built) ? built : nil
        }

        /// Whether the site as `built` read it is the one the output shows, its files scanned again after they
        /// were read. A listing file changed since the output was built is fine if it was read before the
        /// change (its published fields have the digest the record holds): the next build sees the change and
        /// compares with what was read. Read with its change, the next build would not see the listing move in
        /// its kind's order. Any other change makes the next build a whole one, which reads the site again.
        func showsTheOutput(_ built: BuiltSite) -> Bool {
            let now = InputStamps.scan(files, folders: Noticeboard.inputFolders)
            return now == record.inputs || now.changedPaths(since: record.inputs).allSatisfy { path in
                guard let read = built.site.listing(inFile: path) else { return true }
                let indexed = built.catalogue.collection(read.kind)?.listings.first { $0.slug == read.slug }
                return indexed.map(ListingVersions.digest) == record.versions[kind: read.kind, slug: read.slug]?.sha256
            }
        }
    }

    /// Markdown to HTML and derived values for every listing and page, then the catalogue's collections.
    static func enrichAndIndex(
        _ site: LoadedSite, buildDate: CalendarDate, stages: inout StageTimes
    ) throws(BuildFailure) -> (enrichment: SiteEnrichment, catalogue: Catalogue) {
        var loaded = Loaded(site: site)
        var enriched = enrich(&loaded, changes: nil, keepsSite: true, stages: &stages)
        return (enriched.enrichment, try index(&enriched, changes: nil, buildDate: buildDate, stages: &stages)!.catalogue)
    }
}
