import CatalogueIndex
import OrderedCollections
import SiteModel
import Support

/// Turns the catalogue into the output files `Outputs` declares: HTML pages through the templates, and
/// JSON, feeds, a sitemap and a search index for apps and crawlers.
public struct SiteRenderer: Sendable {
    public let catalogue: Catalogue
    public let templates: TemplateSet
    /// Theme assets and published images, copied as they are.
    public let staticFiles: [OutputFile]
    let contexts: PageContexts
    /// Each listing's encoded fields and `updated` date.
    public let versions: ListingVersions
    /// The sync history the last build's record kept, and the digests of the files that build wrote: this
    /// build's change list is the difference. The digests are read where the last record holds them: a copy
    /// of them was 800,000 entries at 430,000 listings.
    let lastSync: SyncHistory
    let lastFiles: WrittenDigests

    /// Entries per JSON and Atom feed.
    public static let feedLength = 50

    public init(
        catalogue: Catalogue, templates: TemplateSet, staticFiles: [OutputFile] = [], versions: ListingVersions? = nil,
        lastSync: SyncHistory = .none, lastFiles: WrittenDigests = WrittenDigests([:])
    ) {
        self.catalogue = catalogue
        self.templates = templates
        self.staticFiles = staticFiles
        let mapKinds = catalogue.kinds.filter { $0.schema.geo != nil && templates.hasMap(forKind: $0.schema.name) }
        self.contexts = PageContexts(catalogue: catalogue, mapKinds: Set(mapKinds.map(\.schema.name)))
        self.versions = versions ?? ListingVersions(catalogue: catalogue, previous: VersionTable())
        self.lastSync = lastSync
        self.lastFiles = lastFiles
    }

    var site: SiteConfig { catalogue.site }

    /// An HTML page to render: its template and context, and the date it last changed, for the sitemap.
    struct Page: Sendable {
        let path: String
        let template: String
        let context: PageContext
        let lastModified: CalendarDate?
        let inSitemap: Bool
    }

    /// An output file with, for pages, the key of what it was rendered from.
    public struct RenderedFile: Sendable {
        public var file: OutputFile
        /// SHA-256 of the template set, the template's name and the context; nil for files that are not pages.
        public var renderKey: SHA256.Digest?

        public init(file: OutputFile, renderKey: SHA256.Digest?) {
            self.file = file
            self.renderKey = renderKey
        }
    }

    /// The outputs `Outputs.all` declares, handed to `emit` in batches as they are made, from any thread.
    /// With `changes` (where the listings edited in place stand: see `Catalogue.replacing`), only those
    /// that show them; every other file is as the last render made it. A page whose render key is
    /// `previousKey(path)` is not rendered again: it comes as `.previous`, the file the last build wrote.
    /// Everything is made in one pass across all cores. The sync documents and the manifest are not made here
    /// but by the writer, from every other file's digest (`derivedFiles`). In place, the search
    /// index and the documents with an item per listing start from what the `last` render kept, and those
    /// documents from their `lastBytes`, spliced into `spares`; what this render makes for the next is left
    /// with `keeper`.
    public func render(
        changes: EditedPositions? = nil, last: KeptRender? = nil, lastBytes: @escaping @Sendable (String) -> [UInt8]? = { _ in nil },
        spares: SpareBuffers = .none, keeper: RenderKeeper? = nil, previousKey: @Sendable (String) -> SHA256.Digest? = { _ in nil },
        emit: @Sendable ([RenderedFile]) -> Void
    ) {
        let pass = RenderPass(renderer: self, changes: changes, last: last, lastBytes: lastBytes, spares: spares, keeper: keeper)
        let (work, fromPages) = plan(pass)
        let pages = run(work, previousKey: previousKey, emit: emit)
        for make in fromPages { emit(make(self, pages).map { RenderedFile(file: $0, renderKey: nil) }) }
    }

    /// The pass's shares of the work, in the order of `Outputs.all`, and what is made from the pages after them.
    func plan(_ pass: RenderPass) -> (work: [RenderWork], fromPages: [@Sendable (SiteRenderer, [SitemapEntry]) -> [OutputFile]]) {
        var work: [RenderWork] = []
        var fromPages: [@Sendable (SiteRenderer, [SitemapEntry]) -> [OutputFile]] = []
        for declaration in Outputs.all {
            switch declaration.made {
            case .site(let make):
                if pass.includes(declaration) { work += make(pass) }
            case .eachKind(let withPagesOnly, let make):
                for collection in catalogue.kinds where (!withPagesOnly || collection.schema.hasPages) && pass.includes(declaration, kind: collection.schema.name) {
                    work += make(pass, collection)
                }
            case .fromPages(let make):
                if pass.includes(declaration) { fromPages.append(make) }
            case .fromDigests:
                break
            }
        }
        return (work, fromPages)
    }

    /// Makes the work across all cores and hands its files to `emit`; returns the pages' sitemap entries.
    private func run(_ work: [RenderWork], previousKey: @Sendable (String) -> SHA256.Digest?, emit: @Sendable ([RenderedFile]) -> Void) -> [SitemapEntry] {
        work.parallelMap { item -> [SitemapEntry] in
            switch item {
            case .documents(let make):
                emit(make().map { RenderedFile(file: $0, renderKey: nil) })
                return []
            case .documentBatches(let make):
                make { files in emit(files.map { RenderedFile(file: $0, renderKey: nil) }) }
                return []
            case .pages(let make):
                let pages = make()
                emit(pages.map { page -> RenderedFile in
                    let key = page.context.renderKey(fingerprint: templates.fingerprint, template: page.template)
                    if previousKey(page.path) == key { return RenderedFile(file: OutputFile(path: page.path, contents: .previous), renderKey: key) }
                    return RenderedFile(file: OutputFile(path: page.path, contents: .bytes(render(page))), renderKey: key)
                })
                return pages.filter(\.inSitemap).map { SitemapEntry(path: $0.path, lastModified: $0.lastModified) }
            }
        }.flatMap { $0 }
    }

    /// A page as the sitemap lists it.
    struct SitemapEntry: Sendable {
        let path: String
        let lastModified: CalendarDate?
    }

    /// Renders the page's own template, then the layout around it, into the file's bytes.
    func render(_ page: Page) -> [UInt8] {
        var context = page.context
        let content = templates.render(context, with: page.template)
        context["content"] = .html(content)
        return templates.renderedBytes(context, with: "layout", room: content.utf8.count)
    }
}
