import CatalogueIndex
import OrderedCollections
import SiteModel
import Support

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
        /// Top-level context fields as its render key takes them (see `RenderKey`).
        var keyStandIns: [String: Value] = [:]
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

    /// Every page and document, handed to `emit` in batches as they are made, from any thread. A page whose
    /// render key matches `previousKeys[path]` is not rendered again: it comes as `.previous`, the file the
    /// last build wrote. Everything is made in one pass across all cores, the large documents (a kind's JSON,
    /// the search index) first, so that they are made while the other cores describe and render pages.
    public func render(previousKeys: [String: String] = [:], emit: @Sendable ([RenderedFile]) -> Void) {
        var work: [Work] = []
        for collection in catalogue.kinds {
            work.append(.documents { apiDocuments(collection) + feeds(collection) })
        }
        work.append(.documents { [searchIndex()] + jsonSchemas() })
        work.append(.pages { [homePage()] })
        for collection in catalogue.kinds where collection.schema.hasPages {
            let listingCards = cardDigests(collection.listings, collection)
            let listsEntries = collection.facets.contains { collection.schema.facetIsOverEntries($0.field.name) }
            let entryCards = listsEntries ? cardDigests(collection.entries, collection) : [:]
            work.append(.pages { indexPages(collection, cardDigests: listingCards) })
            for facet in collection.facets {
                let cards = collection.schema.facetIsOverEntries(facet.field.name) ? entryCards : listingCards
                work.append(.pages { facetPages(facet, in: collection, cardDigests: cards) })
            }
            for start in stride(from: 0, to: collection.listings.count, by: Self.listingsPerWorkItem) {
                let listings = collection.listings[start..<min(start + Self.listingsPerWorkItem, collection.listings.count)]
                work.append(.pages { listings.map { listingPage($0, in: collection) } })
            }
        }
        work.append(.pages { catalogue.pages.map(freePage) })
        if templates.names.contains("search") { work.append(.pages { [searchPage()] }) }
        if templates.names.contains("404") { work.append(.pages { [notFoundPage()] }) }

        let sitemap = run(work, previousKey: { previousKeys[$0] }, emit: emit)
        emit(sitemapAndRobots(sitemap).map { RenderedFile(file: $0, renderKey: nil) })
    }

    /// The files that change when the given listings (slugs by kind) change in place (see
    /// `Catalogue.replacing`) and nothing else does: their pages and JSON, the list pages that show them,
    /// their kinds' documents and feeds, the home page and the search index. Every other file, the sitemap
    /// included, is as the last render made it.
    public func renderChanges(
        of changed: [String: Set<String>], previousKey: @Sendable (String) -> String?, emit: @Sendable ([RenderedFile]) -> Void
    ) {
        var work: [Work] = [.documents { [searchIndex()] }, .pages { [homePage()] }]
        for collection in catalogue.kinds {
            guard let slugs = changed[collection.schema.name] else { continue }
            work.append(.documents { apiDocuments(collection, onlyListings: slugs) + feeds(collection) })
            guard collection.schema.hasPages else { continue }
            work.append(.pages { indexPages(collection, showing: slugs) })
            for facet in collection.facets { work.append(.pages { facetPages(facet, in: collection, showing: slugs) }) }
            work.append(.pages { collection.listings.filter { slugs.contains($0.slug) }.map { listingPage($0, in: collection) } })
        }
        _ = run(work, previousKey: previousKey, emit: emit)
    }

    /// Makes the work across all cores and hands its files to `emit`; returns the pages' sitemap entries.
    private func run(_ work: [Work], previousKey: @Sendable (String) -> String?, emit: @Sendable ([RenderedFile]) -> Void) -> [SitemapEntry] {
        work.parallelMap { item -> [SitemapEntry] in
            switch item {
            case .documents(let make):
                emit(make().map { RenderedFile(file: $0, renderKey: nil) })
                return []
            case .pages(let make):
                let pages = make()
                emit(pages.map { page -> RenderedFile in
                    let key = renderKey(page)
                    if previousKey(page.path) == key { return RenderedFile(file: OutputFile(path: page.path, contents: .previous), renderKey: key) }
                    return RenderedFile(file: OutputFile(path: page.path, text: render(page)), renderKey: key)
                })
                return pages.filter(\.inSitemap).map { SitemapEntry(path: $0.path, lastModified: $0.lastModified) }
            }
        }.flatMap { $0 }
    }

    /// A share of the rendering: documents, or pages to describe and render.
    private enum Work: Sendable {
        case documents(@Sendable () -> [OutputFile])
        case pages(@Sendable () -> [Page])
    }

    /// Listing pages are described and rendered in groups of this many, so the cores share them evenly.
    static let listingsPerWorkItem = 256

    /// A page as the sitemap lists it.
    struct SitemapEntry: Sendable {
        let path: String
        let lastModified: CalendarDate?
    }

    /// The listings' card digests by slug, made once for the whole render rather than once per list page.
    /// A collection kind's entries go apart from its listings: an entry's slug (`proverbs-1`) may be a listing's.
    private func cardDigests(_ listings: [Listing], _ collection: KindCollection) -> [String: String] {
        Dictionary(uniqueKeysWithValues: zip(listings.map(\.slug), listings.parallelMap { contexts.cardDigest($0, schema: collection.schema) }))
    }

    /// Renders the page's own template, then the layout around it.
    func render(_ page: Page) -> String {
        let body = templates.render(page.context, with: page.template)
        guard case .object(var fields) = page.context else { return body }
        fields["content"] = .html(body)
        return templates.render(.object(fields), with: "layout")
    }

    private func renderKey(_ page: Page) -> String {
        RenderKey.of(fingerprint: templates.fingerprint, template: page.template, context: page.context, standIns: page.keyStandIns)
    }
}
