import Enrichment
import Markdown
import SiteModel
import SiteValidation

/// What enriching any of a site's listings needs: its Markdown settings, display formats, what references show
/// and the published images.
struct SiteEnrichment {
    let config: SiteConfig
    /// The published images as listings show them (`ListingEnricher.imageValues`).
    let images: [String: Value]
    let markdown: MarkdownRenderer
    let formatter: DisplayFormatter
    private(set) var references: ReferenceValues
    /// The kinds with pages; a listing of another kind has no URL to link to.
    let kindsWithPages: Set<String>

    init(_ site: LoadedSite) {
        config = site.config
        images = ListingEnricher.imageValues(site.images.images, site: site.config)
        markdown = MarkdownRenderer(allowRawHTML: site.config.allowRawHTML)
        formatter = DisplayFormatter(language: site.config.language, currency: site.config.currency)
        kindsWithPages = Set(site.schemas.filter(\.hasPages).map(\.name))
        references = ReferenceValues(
            site: site.config, titles: site.titles, kindsWithPages: kindsWithPages,
            referenced: site.listings.values.joined().lazy.flatMap(\.references).filter { !$0.isPrivate })
    }

    /// Lets go of the references' values, for a build that has enriched every listing and keeps nothing for the next one.
    mutating func releaseReferences() {
        references = .none(site: config)
    }

    func enricher(for schema: KindSchema) -> ListingEnricher {
        ListingEnricher(site: config, schema: schema, markdown: markdown, formatter: formatter, references: references, images: images,
            kindsWithPages: kindsWithPages)
    }
}
