import CatalogueIndex
import Enrichment
import Foundation
import ImageProcessing
import OutputWriter
import Rendering
import SiteModel
import SiteValidation
import Support

/// The pipeline's stages, in order: each takes what the one before made and returns what it makes. A build
/// from scratch reads every input and considers every output; `serve`'s in-place edit (see `LiveSite`) runs
/// the same stages with a change set: only the edited listing files are read again, and only the outputs
/// that show them are rendered.
extension Noticeboard {
    /// The whole build, after `BuildRun` found something to do: load → enrich → index → plan outputs → render
    /// → write. Nil when an in-place edit turns out to need a whole build.
    static func runStages(_ run: inout BuildRun) throws(BuildFailure) -> BuiltSite? {
        guard var loaded = try load(&run) else { return nil }
        let book = try beginWriting(run, loaded)
        var enriched = enrich(&loaded, changes: run.changes, keepsSite: run.keepsSite, stages: &run.stages)
        var catalogue: Catalogue
        let edited: EditedPositions?
        do throws(BuildFailure) {
            guard let indexed = try index(&enriched, changes: run.changes, buildDate: run.buildDate, stages: &run.stages) else { return nil }
            (catalogue, edited) = indexed
        } catch {
            book.abandon()
            throw error
        }
        if !run.keepsSite {
            // Each listing held once from here on, by the catalogue, without what only reading and indexing needed.
            loaded.site.releaseListings()
            enriched.site.releaseListings()
            enriched.enrichment.releaseReferences()
            catalogue = catalogue.withoutSourceDetails()
        }
        let versions = track(catalogue, edited: edited, &run)
        let renderer = planOutputs(catalogue, versions, loaded, run)
        let kept = render(renderer, edited: edited, run, into: book, &run.stages)
        return try write(book, renderer, enriched, kept: kept, &run)
    }

    /// The site as checked input: read whole, or the last build's with the edited files read again.
    struct Loaded {
        var site: LoadedSite
        /// In place: the edited listings as read now.
        var edited: [Listing]?
    }

    static func load(_ run: inout BuildRun) throws(BuildFailure) -> Loaded? {
        guard let changes = run.changes else {
            run.options.progress?("Reading \(run.inputs.count) files")
            let site = try LoadedSite(files: run.files, baseURL: run.options.baseURL)
            run.stages.finish("load, parse, validate")
            return Loaded(site: site)
        }
        var site = changes.last.site
        var edited: [Listing] = []
        for old in changes.listings {
            let listing = try site.reread(old, from: run.files)
            // A listing that names other images needs them published: a whole build.
            guard listing.media.map(\.path) == old.media.map(\.path) else { return nil }
            edited.append(listing)
        }
        return Loaded(site: site, edited: edited)
    }

    static func beginWriting(_ run: BuildRun, _ loaded: Loaded) throws(BuildFailure) -> OutputBook {
        guard let changes = run.changes else {
            let book = try OutputBook.restaging(
                outputPath: run.options.outputPath, statePath: run.statePath, recorded: run.recorded, keepingRecordLayout: run.keepsSite)
            // The listing pages' folders are made while the listings are enriched and indexed.
            let site = loaded.site
            book.prepareFolders(site.schemas.filter(\.hasPages).flatMap { schema in (site.listings[schema.name] ?? []).map(\.outputPath) })
            return book
        }
        return changes.book
    }

    /// The site's listings and pages with their Markdown rendered and display text made.
    struct Enriched {
        var site: LoadedSite
        var enrichment: SiteEnrichment
        /// By kind: every listing, or in place the edited ones; indexing takes them.
        var listings: [String: [Listing]]
        var pages: [FreePage]
    }

    /// A build that does not keep the site takes each kind's listings out of it as they are enriched.
    static func enrich(_ loaded: inout Loaded, changes: ChangeSet?, keepsSite: Bool, stages: inout StageTimes) -> Enriched {
        let enrichment = changes?.last.enrichment ?? SiteEnrichment(loaded.site)
        var listings: [String: [Listing]] = [:]
        for schema in loaded.site.schemas {
            let toEnrich = loaded.edited.map { edited in edited.filter { $0.kind == schema.name } }
                ?? (keepsSite ? loaded.site.listings[schema.name] ?? [] : loaded.site.takeListings(of: schema.name))
            if loaded.edited == nil || !toEnrich.isEmpty {
                listings[schema.name] = toEnrich.parallelMap(enrichment.enricher(for: schema).enrich)
            }
        }
        let site = loaded.site
        let pages: [FreePage] = loaded.edited != nil ? [] : site.pages.map { page in
            var page = page
            page.html = enrichment.markdown.html(page.markdown)
            return page
        }
        stages.finish(changes == nil ? "enrich" : "read and enrich the edited listings")
        return Enriched(site: site, enrichment: enrichment, listings: listings, pages: pages)
    }

    /// The catalogue: made anew, or the last one with the edited listings in place, with where they stand
    /// (nil when an edit moves a listing, see `Catalogue.replacing`). Throws the problems only indexing finds
    /// (`Catalogue.init`). Takes the enriched listings, so a listing that gains derived fields gains them in place.
    static func index(
        _ enriched: inout Enriched, changes: ChangeSet?, buildDate: CalendarDate, stages: inout StageTimes
    ) throws(BuildFailure) -> (catalogue: Catalogue, edited: EditedPositions?)? {
        let listings = enriched.listings
        enriched.listings = [:]
        guard let changes else {
            let catalogue = try Catalogue(
                site: enriched.site.config, schemas: enriched.site.schemas, listings: consume listings, pages: enriched.pages,
                buildDate: buildDate, formatter: enriched.enrichment.formatter, locator: enriched.site.fieldLocator)
            stages.finish("index")
            return (catalogue, nil)
        }
        var catalogue = changes.last.catalogue
        var edited = EditedPositions()
        for listing in listings.values.joined() {
            guard let replaced = try catalogue.replacing(listing, formatter: enriched.enrichment.formatter, edited: &edited) else { return nil }
            catalogue = replaced
        }
        stages.finish("index them in place")
        return (catalogue, edited)
    }

    /// Each listing's fields encoded, and dated by the last record: every listing, or in place the edited ones.
    static func track(_ catalogue: Catalogue, edited: EditedPositions?, _ run: inout BuildRun) -> ListingVersions {
        let versions = ListingVersions(catalogue: catalogue, previous: run.takeLastVersions(), edited: edited)
        run.stages.finish("encode and date listings")
        return versions
    }

    /// The renderer of the declared outputs; theme assets and images only when every output is made. The
    /// last record's sync history and digests give this build's change list.
    static func planOutputs(_ catalogue: Catalogue, _ versions: ListingVersions, _ loaded: Loaded, _ run: BuildRun) -> SiteRenderer {
        SiteRenderer(
            catalogue: catalogue, templates: loaded.site.templates, staticFiles: run.changes == nil ? staticFiles(loaded.site) : [],
            versions: versions, lastSync: run.lastRecord?.sync ?? .none, lastFiles: run.lastRecord?.outputs.digests ?? WrittenDigests([:]))
    }

    /// Every declared output, or in place those that show the edited listings; a page whose render key is
    /// the one the last build recorded is not rendered again. Returns what the next render in place starts
    /// from, when the site is kept.
    static func render(
        _ renderer: SiteRenderer, edited: EditedPositions?, _ run: BuildRun, into book: OutputBook, _ stages: inout StageTimes
    ) -> KeptRender? {
        run.options.progress?("Rendering \(renderer.catalogue.listingCount) listings")
        let previousKeys = run.previous?.outputs
        let last = run.changes?.last.kept
        let keeper = run.keepsSite ? RenderKeeper(startingFrom: last) : nil
        renderer.render(
            changes: edited, last: last, lastBytes: book.lastBytes, spares: book.spares, keeper: keeper,
            previousKey: { previousKeys?[$0]?.renderKey }, emit: book.add)
        stages.finish(run.changes == nil ? "render" : "render what shows them")
        return keeper?.kept
    }

    /// The sync documents and manifest, the swap, and the build record; the image cache loses what no build
    /// used for an hour.
    static func write(
        _ book: OutputBook, _ renderer: SiteRenderer, _ enriched: Enriched, kept: KeptRender?, _ run: inout BuildRun
    ) throws(BuildFailure) -> BuiltSite? {
        let site = enriched.site, catalogue = renderer.catalogue
        let settings = run.settings, inputs = run.inputs
        let recorded = run.recorded, inPlace = run.changes != nil
        // The sync history as the derived files leave it (the last one when nothing was written).
        var history = run.lastRecord?.sync ?? .none
        var kept = kept
        let derived = { (digests: WrittenDigests, changed: Set<String>?) -> [OutputFile] in
            let made = renderer.derivedFiles(digests: digests, changed: changed, lastBytes: book.lastBytes, spares: book.spares, kept: &kept)
            history = made.history
            return made.files
        }
        guard let finished = try book.finish(derive: derived, record: { outputs in
            // After the swap the staging folder holds the previous output, which the previous record describes.
            BuildState(
                settings: settings, inputs: inputs, outputs: outputs, listings: catalogue.listingCount, warnings: site.warnings,
                staged: inPlace ? nil : recorded.map { BuildState.Staged(id: UUID().uuidString, holding: $0.outputs, against: outputs) },
                versions: renderer.versions.table, sync: history)
        }) else { return nil }
        run.stages.finish(inPlace ? "write output" : "finish writing output")
        run.written = finished.written
        var record: RecordLayout?
        if inPlace {
            run.saveLater = finished.save
        } else {
            record = finished.save()
            ImagePublisher(files: run.files, settings: site.config.images).pruneCache(keeping: site.images.cacheKeys)
            run.stages.finish("save state")
        }
        var summary = run.changes.map { changes in
            finished.state.summary(updating: changes.last.summary, from: changes.last.state, at: finished.changedPaths)
        } ?? finished.state.summary
        summary.warnings += finished.keptAside.map(\.warning)
        return BuiltSite(
            site: site, enrichment: enriched.enrichment, catalogue: catalogue, kept: kept, state: finished.state, statePath: run.statePath,
            summary: summary, writtenFiles: finished.writtenFiles, spareFiles: finished.spareFiles, record: record)
    }

    /// Theme assets, the site's `static/` files, and the published images of the media files that public
    /// fields name: variants from the image cache, checked SVGs as they are (nothing else from `content/media/`).
    static func staticFiles(_ site: LoadedSite) -> [OutputFile] {
        var files = site.files.files(under: "templates/assets").map { file in
            OutputFile(path: String(file.dropFirst("templates/".count)), contents: .copy(from: site.files.absolute(file)))
        }
        files += site.staticFiles.map { file in
            OutputFile(path: String(file.dropFirst("static/".count)), contents: .copy(from: site.files.absolute(file)))
        }
        // Two source files with the same bytes and name (kayak.jpg, kayak.jpeg) share their variants.
        var variants: [String: ImageVariant] = [:]
        for image in site.images.images.values {
            for variant in image.variants { variants[variant.outputPath] = variant }
        }
        files += variants.values.sorted { $0.outputPath < $1.outputPath }.map { OutputFile(path: $0.outputPath, contents: .copy(from: $0.file)) }
        return files
    }
}
