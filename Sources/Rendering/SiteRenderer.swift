import CatalogueIndex
import OrderedCollections
import SiteModel

/// Turns the catalogue into output files: HTML pages through the templates, and JSON, feeds, a sitemap
/// and a search index for apps and crawlers.
public struct SiteRenderer: Sendable {
    public let catalogue: Catalogue
    public let templates: TemplateSet
    let contexts: PageContexts

    /// Entries per JSON and Atom feed.
    public static let feedLength = 50

    public init(catalogue: Catalogue, templates: TemplateSet) {
        self.catalogue = catalogue
        self.templates = templates
        self.contexts = PageContexts(catalogue: catalogue)
    }

    var site: SiteConfig { catalogue.site }

    /// An HTML page with the date it last changed, for the sitemap.
    struct Page: Sendable {
        let file: OutputFile
        let lastModified: CalendarDate?
    }

    /// Every page and document. Listing pages are independent of each other and render across all cores.
    public func render() -> [OutputFile] {
        var pages: [Page] = [renderHome()]
        var files: [OutputFile] = []
        for collection in catalogue.kinds {
            if collection.schema.hasPages {
                pages += renderIndexPages(collection)
                pages += collection.facets.flatMap { renderFacetPages($0, in: collection) }
                pages += collection.listings.parallelMap { renderListing($0, in: collection) }
            }
            files += apiDocuments(collection)
            files += feeds(collection)
        }
        if templates.names.contains("search") { pages.append(renderSearchPage()) }
        files.append(searchIndex())
        files += jsonSchemas()
        files += sitemapAndRobots(pages)
        if templates.names.contains("404") { files.append(renderNotFound()) }
        return pages.map(\.file) + files
    }
}
