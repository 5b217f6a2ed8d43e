import CatalogueIndex
import Dispatch
import Enrichment
import Foundation
import ImageProcessing
import OutputWriter
import Rendering
import SiteLoader
import SiteModel
import Synchronization

/// The whole pipeline: load → parse → validate → enrich → index → render → write.
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
        let catalogue = try enrichAndIndex(site, SiteEnrichment(site), buildDate: options.now ?? CalendarDate.today(), stages: &stages)
        SiteRenderer(catalogue: catalogue, templates: site.templates).render { _ in }
        return site.warnings
    }

    /// Builds the site into the output folder, replacing it whole only when everything succeeded.
    /// With the state of the last build into the same folder, it renders only pages whose inputs changed,
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
        var state: BuildState
        var statePath: String
    }

    /// A build, and with `keeping` what it read and made (also when nothing changed, so it still reads the site).
    static func build(_ options: BuildOptions, waiting: () -> Void, keeping: Bool) throws(BuildFailure) -> (report: BuildReport, built: BuiltSite?) {
        let start = DispatchTime.now()
        func seconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9 }
        var stages = StageTimes()
        try OwnedFolders.checkPlace(output: options.outputPath, root: options.root, inputFolders: inputFolders)
        // Taken before the last build's state is read, so a build that waited sees what the other one wrote.
        let lock = try OutputLock(outputPath: options.outputPath, waiting: waiting)
        defer { withExtendedLifetime(lock) {} }
        try OwnedFolders.checkReplaceable(output: options.outputPath)
        let files = SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes)
        let buildDate = options.now ?? CalendarDate.today()
        let statePath = BuildState.file(for: options)
        let settings = BuildState.settings(for: options, buildDate: buildDate)
        // The last build's record describes the output folder (and the staging folder) while the folder is
        // intact; its inputs and render keys count only if it was built with the same settings. It is read
        // while the inputs are scanned: parsing it keeps one core busy, where the scan would use both.
        let outputPath = options.outputPath
        let recording = InBackground { BuildState.load(statePath).flatMap { state in state.outputsAreIntact(in: outputPath) ? state : nil } }
        let inputs = InputStamps.scan(files, folders: inputFolders)
        stages.finish("scan inputs")
        let recorded = recording.value
        let previous = recorded.flatMap { state in state.settings == settings ? state : nil }
        stages.finish("read last build's state")
        if let previous, previous.inputs == inputs {
            var built: BuiltSite?
            if keeping {
                let site = try LoadedSite(files: files, baseURL: options.baseURL)
                var state = previous
                if !state.stagingIsConfirmed(statePath: statePath) { state.staged = nil }
                let enrichment = SiteEnrichment(site)
                built = BuiltSite(
                    site: site, enrichment: enrichment, catalogue: try enrichAndIndex(site, enrichment, buildDate: buildDate, stages: &stages),
                    state: state, statePath: statePath)
            }
            if options.processEndsAfter { LeftForExit.keep(previous, inputs) }
            let report = BuildReport(
                listings: previous.listings, pages: previous.outputs.keys.filter { $0.hasSuffix(".html") }.count,
                files: previous.outputs.count, written: 0, bytes: previous.outputs.values.reduce(0) { $0 + $1.digest.size },
                imagesProcessed: 0, warnings: previous.warnings, seconds: seconds(), stages: stages)
            return (report, built)
        }

        options.progress?("Reading \(inputs.stamps.count) files")
        let site = try LoadedSite(files: files, baseURL: options.baseURL)
        stages.finish("load, parse, validate")
        // The staging folder beside the output still holds the site before last when the marker says so; it
        // is brought up to date rather than staged anew. Its marker goes first: a write cut short leaves none.
        let staged = recorded?.confirmedStaged(statePath: statePath)
        unlink(BuildState.stagingMarker(for: statePath))
        let staging = try StagedOutput(outputPath: options.outputPath).begin(staged: staged, previousIsKnown: recorded != nil)
        // Every file is digested as it is made, on the core that made it; one whose bytes the last build
        // already wrote is kept rather than rewritten.
        let recordedOutputs = recorded?.outputs
        let outputs = Mutex<[String: BuildState.Output]>([:])
        let add: @Sendable ([SiteRenderer.RenderedFile]) -> Void = { batch in
            let digested = batch.map { item -> (file: OutputFile, output: BuildState.Output) in
                var file = item.file
                let digest: FileDigest
                switch file.contents {
                case .previous: digest = recordedOutputs![file.path]!.digest
                case .bytes(let bytes): digest = Manifest.digest(bytes)
                case .copy(let source): digest = Manifest.digest(FileManager.default.contents(atPath: source).map { [UInt8]($0) } ?? [])
                }
                if recordedOutputs?[file.path]?.digest == digest { file.contents = .previous }
                return (file, BuildState.Output(digest: digest, renderKey: item.renderKey))
            }
            staging.add(digested.map { ($0.file, $0.output.digest) })
            outputs.withLock { outputs in
                for item in digested { outputs[item.file.path] = item.output }
            }
        }
        // What is known before rendering goes to the writer first: theme assets and images, and the listing
        // pages' folders, made while the listings are enriched and indexed.
        add(staticFiles(site).map { SiteRenderer.RenderedFile(file: $0, renderKey: nil) })
        staging.prepareFolders(site.schemas.filter(\.hasPages).flatMap { schema in (site.listings[schema.name] ?? []).map(\.outputPath) })
        let enrichment = SiteEnrichment(site)
        let catalogue: Catalogue
        do {
            catalogue = try enrichAndIndex(site, enrichment, buildDate: buildDate, stages: &stages)
        } catch {
            staging.abandon()
            throw error
        }
        options.progress?("Rendering \(catalogue.listingCount) listings")
        SiteRenderer(catalogue: catalogue, templates: site.templates)
            .render(previousKeys: previous?.outputs.compactMapValues(\.renderKey) ?? [:], emit: add)
        stages.finish("render")
        add([SiteRenderer.RenderedFile(file: Manifest.file(for: outputs.withLock { $0 }.mapValues(\.digest), site: site.config), renderKey: nil)])
        let finalOutputs = outputs.withLock { $0 }
        // After the swap the staging folder holds the previous output, which the previous state describes.
        let state = BuildState(
            settings: settings, inputs: inputs, outputs: finalOutputs, listings: catalogue.listingCount, warnings: site.warnings,
            staged: recorded.map { BuildState.Staged(id: UUID().uuidString, holding: $0.outputs, against: finalOutputs) })
        // The state is encoded while the last files are written, and saved only once they are in place.
        let encodedState = InBackground { state.encoded() }
        let summary = try staging.finish()
        stages.finish("finish writing output")
        BuildState.save(encodedState.value, to: statePath)
        state.confirmStaged(statePath: statePath)
        ImagePublisher(files: files, settings: site.config.images).pruneCache(keeping: site.images.cacheKeys)
        stages.finish("save state")
        if options.processEndsAfter { LeftForExit.keep(site, enrichment, catalogue, state, recorded, inputs) }
        let report = BuildReport(
            listings: catalogue.listingCount, pages: finalOutputs.keys.filter { $0.hasSuffix(".html") }.count, files: summary.files,
            written: summary.written, bytes: summary.bytes, imagesProcessed: site.images.processed, warnings: site.warnings,
            seconds: seconds(), stages: stages)
        return (report, keeping ? BuiltSite(site: site, enrichment: enrichment, catalogue: catalogue, state: state, statePath: statePath) : nil)
    }

    /// Markdown to HTML and derived values for every listing and page, then the catalogue's collections.
    static func enrichAndIndex(
        _ site: LoadedSite, _ enrichment: SiteEnrichment, buildDate: CalendarDate, stages: inout StageTimes
    ) throws(BuildFailure) -> Catalogue {
        var enriched: [String: [Listing]] = [:]
        for schema in site.schemas {
            enriched[schema.name] = (site.listings[schema.name] ?? []).parallelMap(enrichment.enricher(for: schema).enrich)
        }
        let pages = site.pages.map { page in
            var page = page
            page.html = enrichment.markdown.html(page.markdown)
            return page
        }
        stages.finish("enrich")
        let catalogue = try Catalogue(
            site: site.config, schemas: site.schemas, listings: enriched, pages: pages, buildDate: buildDate, formatter: enrichment.formatter)
        stages.finish("index")
        return catalogue
    }

    /// Theme assets, and the published images of the media files that public fields name: variants from the
    /// image cache, checked SVGs as they are (nothing else from `content/media/`).
    private static func staticFiles(_ site: LoadedSite) -> [OutputFile] {
        var files = site.files.files(under: "templates/assets").map { file in
            OutputFile(path: String(file.dropFirst("templates/".count)), contents: .copy(from: site.files.absolute(file)))
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
