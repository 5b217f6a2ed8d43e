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

    /// An HTML page to render: its template and context, and the date it last changed, for the sitemap.
    struct Page: Sendable {
        let path: String
        let template: String
        let context: Value
        let lastModified: CalendarDate?
        let inSitemap: Bool
    }

    /// An output file with, for pages, the key of what it was rendered from.
    public struct RenderedFile: Sendable {
        public var file: OutputFile
        /// SHA-256 of the template set, the template's name and the context; nil for files that are not pages.
        public var renderKey: String?

        public init(file: OutputFile, renderKey: String?) {
            self.file = file
            self.renderKey = renderKey
        }
    }

    /// Every page and document. A page whose render key matches `previousKeys[path]` is not rendered
    /// again: it comes back as `.previous`, the file the last build wrote. Pages render across all cores.
    public func render(previousKeys: [String: String] = [:]) -> [RenderedFile] {
        var pages: [Page] = [homePage()]
        var files: [OutputFile] = []
        for collection in catalogue.kinds {
            if collection.schema.hasPages {
                pages += indexPages(collection)
                pages += collection.facets.flatMap { facetPages($0, in: collection) }
                pages += collection.listings.parallelMap { listingPage($0, in: collection) }
            }
            files += apiDocuments(collection)
            files += feeds(collection)
        }
        pages += catalogue.pages.map(freePage)
        if templates.names.contains("search") { pages.append(searchPage()) }
        if templates.names.contains("404") { pages.append(notFoundPage()) }
        files.append(searchIndex())
        files += jsonSchemas()
        files += sitemapAndRobots(pages.filter(\.inSitemap))
        let rendered = pages.parallelMap { page -> RenderedFile in
            let key = renderKey(page)
            if previousKeys[page.path] == key { return RenderedFile(file: OutputFile(path: page.path, contents: .previous), renderKey: key) }
            return RenderedFile(file: OutputFile(path: page.path, text: render(page)), renderKey: key)
        }
        return rendered + files.map { RenderedFile(file: $0, renderKey: nil) }
    }

    /// Renders the page's own template, then the layout around it.
    func render(_ page: Page) -> String {
        let body = templates.render(page.context, with: page.template)
        guard case .object(var fields) = page.context else { return body }
        fields["content"] = .html(body)
        return templates.render(.object(fields), with: "layout")
    }

    private func renderKey(_ page: Page) -> String {
        RenderKey.of(fingerprint: templates.fingerprint, template: page.template, context: page.context)
    }
}
