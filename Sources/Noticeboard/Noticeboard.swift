import CatalogueIndex
import Dispatch
import Enrichment
import Foundation
import OutputWriter
import Rendering
import SiteLoader
import SiteModel

/// The whole pipeline: load → parse → validate → enrich → index → render → write.
public enum Noticeboard {
    public static let version = "0.1.0"

    /// Reads and checks the site, and renders it in memory, without writing anything.
    public static func check(_ options: BuildOptions) throws(BuildFailure) -> [Diagnostic] {
        let site = try LoadedSite(files: SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes))
        _ = render(site, buildDate: options.now ?? CalendarDate.today())
        return site.warnings
    }

    /// Builds the site into the output folder, replacing it whole only when everything succeeded.
    public static func build(_ options: BuildOptions) throws(BuildFailure) -> BuildReport {
        let start = DispatchTime.now()
        try checkOutputPath(options)
        let site = try LoadedSite(files: SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes))
        let (catalogue, files) = render(site, buildDate: options.now ?? CalendarDate.today())
        let summary = try StagedOutput(outputPath: options.outputPath).write(files)
        return BuildReport(
            listings: catalogue.listingCount, pages: files.filter { $0.path.hasSuffix(".html") }.count, files: summary.files,
            bytes: summary.bytes, warnings: site.warnings,
            seconds: Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
    }

    static func render(_ site: LoadedSite, buildDate: CalendarDate) -> (Catalogue, [OutputFile]) {
        let markdown = MarkdownRenderer(allowRawHTML: site.config.allowRawHTML)
        let formatter = DisplayFormatter(language: site.config.language, currency: site.config.currency)
        var titles: [String: [String: String]] = [:]
        for schema in site.schemas {
            for listing in site.listings[schema.name] ?? [] {
                titles[schema.name, default: [:]][listing.slug] = listing.fields[schema.titleField]?.text ?? listing.slug
            }
        }
        var enriched: [String: [Listing]] = [:]
        for schema in site.schemas {
            let enricher = ListingEnricher(site: site.config, schema: schema, markdown: markdown, formatter: formatter, titles: titles)
            enriched[schema.name] = (site.listings[schema.name] ?? []).parallelMap(enricher.enrich)
        }
        let catalogue = Catalogue(site: site.config, schemas: site.schemas, listings: enriched, buildDate: buildDate, formatter: formatter)
        var files = SiteRenderer(catalogue: catalogue, templates: site.templates).render()
        files += staticFiles(site, listings: enriched.values.joined())
        files.append(Manifest.file(for: files, site: site.config))
        return (catalogue, files)
    }

    /// Theme assets, and the media files that public fields name (nothing else from `content/media/`).
    private static func staticFiles(_ site: LoadedSite, listings: some Sequence<Listing>) -> [OutputFile] {
        var files = site.files.files(under: "templates/assets").map { file in
            OutputFile(path: String(file.dropFirst("templates/".count)), contents: .copy(from: site.files.absolute(file)))
        }
        let media = Set(listings.flatMap(\.media)).sorted()
        files += media.map { path in
            OutputFile(path: "media/" + path, contents: .copy(from: site.files.absolute("content/media/" + path)))
        }
        return files
    }

    /// The output folder is replaced whole, so it must not hold the site's own sources.
    private static func checkOutputPath(_ options: BuildOptions) throws(BuildFailure) {
        let output = URL(fileURLWithPath: options.outputPath).standardizedFileURL.path
        let root = URL(fileURLWithPath: options.root).standardizedFileURL.path
        if output == root || root.hasPrefix(output.hasSuffix("/") ? output : output + "/") {
            throw BuildFailure([.error("the output folder \(options.outputPath) holds the site itself; choose a folder such as \(options.root)/public")])
        }
    }
}
