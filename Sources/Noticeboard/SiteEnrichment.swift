import Enrichment
import Markdown
import SiteModel
import SiteValidation

/// What enriching any of a site's listings needs: its Markdown settings, display formats, the titles of all
/// listings (which references show) and the published images.
struct SiteEnrichment {
    let config: SiteConfig
    /// The published images as listings show them (`ListingEnricher.imageValues`).
    let images: [String: Value]
    let markdown: MarkdownRenderer
    let formatter: DisplayFormatter
    private(set) var titles: [String: [String: String]]
    /// The kinds with pages; a listing of another kind has no URL to link to.
    let kindsWithPages: Set<String>

    init(_ site: LoadedSite) {
        config = site.config
        images = ListingEnricher.imageValues(site.images.images, site: site.config)
        markdown = MarkdownRenderer(allowRawHTML: site.config.allowRawHTML)
        formatter = DisplayFormatter(language: site.config.language, currency: site.config.currency)
        titles = site.titles
        kindsWithPages = Set(site.schemas.filter(\.hasPages).map(\.name))
    }

    /// Lets go of the titles, for a build that has enriched every listing and keeps nothing for the next one.
    mutating func releaseTitles() {
        titles = [:]
    }

    func enricher(for schema: KindSchema) -> ListingEnricher {
        ListingEnricher(site: config, schema: schema, markdown: markdown, formatter: formatter, titles: titles, images: images,
            kindsWithPages: kindsWithPages)
    }
}
