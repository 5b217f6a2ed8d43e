import CatalogueIndex
import SiteModel
import Support

/// Every file a build writes, declared once: where it goes, how it is made, and which listings it shows.
/// `SiteRenderer.render` makes them all, or, after an in-place edit, only those that show the edited
/// listings; the sitemap lists the pages made here, and the reserved slugs keep pages and listings off
/// these paths. To add an output, add it to `Outputs.all`.
public enum Outputs {
    public static let all: [OutputDeclaration] = [
        // A kind's documents for apps, the large ones first, so that they are made while the other cores
        // describe and render pages.
        .eachKind("kind and listing JSON", ["api/<kind>.json", "api/<kind>/<slug>.json"], shows: .itsListings) { pass, collection in
            [.documents { [pass.kindDocument(collection)] }]
                + pass.positionGroups(collection) { positions in .documents { pass.renderer.listingDocuments(collection, at: positions) } }
        },
        // A facet's document shows its values' counts, which an in-place edit does not change.
        .eachKind("paged and sliced documents", ["api/<kind>/page/<n>.json", "api/<kind>/<facet>.json", "api/<kind>/<facet>/<value>.json", "api/<kind>/<facet>/<value>/page/<n>.json"], shows: .itsListings) { pass, collection in
            let edited = pass.edited(in: collection)
            let kindPages = pass.listPageGroups(count: collection.listings.count, shown: edited?.kindListPages, of: RenderPass.documentPagesPerGroup) { pages in
                .documents { pass.renderer.kindPageDocuments(collection, pages: pages) }
            }
            return kindPages + collection.facets.flatMap { facet in
                let isEntries = collection.schema.facetIsOverEntries(facet.field.name)
                let valuePages = facet.values.flatMap { value in
                    pass.listPageGroups(count: value.listings.count, shown: edited?.pages(of: value, overEntries: isEntries), of: RenderPass.documentPagesPerGroup) { pages in
                        .documents { pass.renderer.facetValueDocuments(value, of: facet, in: collection, pages: pages) }
                    }
                }
                return (edited == nil ? [.documents { [pass.renderer.facetDocument(facet, in: collection)] }] : []) + valuePages
            }
        },
        // The search index, split into small files (SearchIndex.swift).
        .site(
            "search index", ["api/search/meta.json", "api/search/terms/<n>.json", "api/search/facets/<n>.json", "api/search/cards/<n>.json",
            "api/search/range/<kind>.json", "api/search/sort/<kind>.<field>.json", "api/search/order/<kind>.json"], shows: .everyListing
        ) { pass in [.documentBatches { emit in pass.searchIndex(emit: emit) }] },
        // Kinds with `geo`: their places on a map, and as a list (MapPages.swift). A map page is one page of
        // 25 MB at 100,000 places, made early: at the end of the render it was the peak of a build's memory.
        .eachKindWithPages("map pages", ["<kind>/map/"], shows: .itsListings) { pass, collection in
            [.pages { pass.renderer.mapPage(collection, cardDigests: pass.cardDigests(collection)).map { [$0] } ?? [] }]
        },
        .eachKind("feeds", ["feeds/<kind>.json", "feeds/<kind>.atom"], shows: .itsListings) { pass, collection in
            [.documents { pass.renderer.feeds(collection) }]
        },
        .eachKind("daily picks", ["api/<kind>/daily/<date>.json"], shows: .itsListings) { pass, collection in
            [.documents { pass.renderer.dailyPicks(collection) }]
        },
        .eachKind("GeoJSON", ["api/<kind>.geojson"], shows: .itsListings) { pass, collection in
            [.documents { pass.renderer.geoJSONDocument(collection) }]
        },
        .eachKind("CSV download", ["api/<kind>.csv"], shows: .itsListings) { pass, collection in
            [.documents { [pass.csvDownload(collection)] }]
        },
        .site("JSON Schemas", ["api/schema/<name>.json"], shows: .noListing) { pass in [.documents { pass.renderer.jsonSchemas() }] },
        // `static/` as it is, at the top: `CNAME`, `.well-known/…` (LoadedSite keeps it off every other path here).
        .site("theme assets, images and the site's static files", ["assets/<file>", "media/<file>", Outputs.staticFile], shows: .noListing) { pass in
            [.documents { pass.renderer.staticFiles }]
        },

        // HTML pages. A path ending in `/` is a page's folder, written as its `index.html`.
        .site("home page", [""], shows: .everyListing) { pass in [.pages { [pass.renderer.homePage()] }] },
        .eachKindWithPages("index pages", ["<kind>/", "<kind>/page/<n>/"], shows: .itsListings) { pass, collection in
            let links = MadeByFirstReader<PaginationLinks>()
            return pass.listPageGroups(count: collection.listings.count, shown: pass.edited(in: collection)?.kindListPages) { pages in
                .pages { pass.renderer.indexPages(collection, pages: pages, links: links, cardDigests: pass.cardDigests(collection)) }
            }
        },
        // The facet's page shows its values and their counts, which an in-place edit does not change.
        .eachKindWithPages("facet pages", ["<kind>/<facet>/"], shows: .noListing) { pass, collection in
            collection.facets.map { facet in .pages { [pass.renderer.facetPage(facet, in: collection)] } }
        },
        .eachKindWithPages("facet value pages", ["<kind>/<facet>/<value>/", "<kind>/<facet>/<value>/page/<n>/"], shows: .itsListings) {
            pass, collection in
            collection.facets.flatMap { facet in
                facet.values.flatMap { value in
                    // Every page of the value shows the same combined filters, made from all its listings.
                    let combined = Once { pass.renderer.combinedFilters(value, of: facet, in: collection) }
                    let links = MadeByFirstReader<PaginationLinks>()
                    let shown = pass.edited(in: collection)?.pages(of: value, overEntries: collection.schema.facetIsOverEntries(facet.field.name))
                    return pass.listPageGroups(count: value.listings.count, shown: shown) { pages in
                        .pages {
                            pass.renderer.facetValuePages(
                                value, of: facet, in: collection, pages: pages, links: links, combined: combined.value,
                                cardDigests: pass.cardDigests(collection, facet: facet))
                        }
                    }
                }
            }
        },
        .eachKindWithPages("listing pages", ["<kind>/<slug>/"], shows: .itsListings) { pass, collection in
            pass.positionGroups(collection) { positions in
                .pages { positions.map { pass.renderer.listingPage(collection.listings[$0], in: collection, cardDigests: { pass.cardDigests($0) }) } }
            }
        },
        // Kinds with `daily`: a page per day of the archive and its index (DailyPages.swift).
        .eachKindWithPages("daily archive", ["<kind>/daily/", "<kind>/daily/<date>/"], shows: .itsListings) { pass, collection in
            [.pages { pass.renderer.dailyPages(collection) + (pass.renderer.dailyIndexPage(collection).map { [$0] } ?? []) }]
        },
        .site("free pages", ["<page>/"], shows: .noListing) { pass in [.pages { pass.renderer.catalogue.pages.map(pass.renderer.freePage) }] },
        .site("search page", ["search/"], shows: .noListing) { pass in
            pass.renderer.templates.names.contains("search") ? [.pages { [pass.renderer.searchPage()] }] : []
        },
        .site("404 page", ["404.html"], shows: .noListing) { pass in
            pass.renderer.templates.names.contains("404") ? [.pages { [pass.renderer.notFoundPage()] }] : []
        },

        // Made from the others. An in-place edit (serve's) leaves the sitemap as it was, its edited listing's
        // `lastmod` included, until the next whole build.
        .fromPages("sitemap and robots.txt", ["sitemap.xml", "sitemap-<n>.xml", "robots.txt"]) { renderer, pages in renderer.sitemapAndRobots(pages) },
        .fromDigests("API root, sync documents and manifest", [SiteRenderer.apiRootPath, SyncDocuments.headPath, SyncDocuments.treePath, "api/sync/tree/<bucket>.json", "api/sync/changes/<build>.json", Manifest.path]),
    ]

    /// A file of the site's `static/` folder, at its path there.
    public static let staticFile = "<static file>"

    /// Whether the site writes a file of this name at the top of the output (`robots.txt`, `sitemap-2.xml`,
    /// the home page's `index.html`), where a file of `static/` might go.
    public static func writesAtTop(_ name: String) -> Bool {
        all.flatMap(\.paths).contains { pattern in topLevelFile(pattern).map { fits(name, $0) } ?? false }
    }

    /// The file a declared path names at the top (`robots.txt`, `sitemap-<n>.xml`, the home page's
    /// `index.html`); nil for a path in a folder.
    private static func topLevelFile(_ pattern: String) -> String? {
        if pattern.isEmpty { return "index.html" }
        return pattern.contains("/") || pattern.hasPrefix("<") ? nil : pattern
    }

    /// Whether `name` fits `pattern`, whose one `<…>` stands for any text.
    private static func fits(_ name: String, _ pattern: String) -> Bool {
        guard let open = pattern.firstIndex(of: "<"), let close = pattern[open...].firstIndex(of: ">") else { return name == pattern }
        let head = pattern[..<open], tail = pattern[pattern.index(after: close)...]
        return name.count > head.count + tail.count && name.hasPrefix(head) && name.hasSuffix(tail)
    }

    /// The names a free page (`<page>/`) may not take: the first folder of every declared path, and the name
    /// of a page written as `<name>.html` (hosts serve `/404` from `404.html`).
    public static let siteFolders: Set<String> = Set(all.flatMap(\.paths).compactMap { path in
        let first = String(path.prefix { $0 != "/" })
        guard !first.isEmpty, !first.hasPrefix("<") else { return nil }
        if first.count < path.count { return first }
        return path.hasSuffix(".html") ? String(path.dropLast(".html".count)) : nil
    })

    /// Names a facet may not have, each with why: its pages would take the folder of the kind's own pages
    /// (`<kind>/page/`), or the search page would read its filter as a parameter of its own (`sort`).
    /// `<kind>` stands for the kind's name.
    public static var reservedFacetNames: [String: String] {
        var reserved: [String: String] = [:]
        for folder in kindFolders(facets: []) { reserved[folder] = "the kind's own pages are at /<kind>/\(folder)/" }
        for parameter in SearchPageQuery.ownParameters {
            reserved[parameter] = "the search page reads '\(parameter)' in its address (/search/?\(parameter)=…) for itself"
        }
        return reserved
    }

    /// The folders below a kind's own that its listings' pages (`<kind>/<slug>/`) may not take: `page`, `map`,
    /// `daily`, and the kind's facets.
    public static func kindFolders(facets: [String]) -> Set<String> {
        Set(all.flatMap(\.paths).flatMap { path -> [String] in
            let parts = path.split(separator: "/").map(String.init)
            guard parts.count >= 2, parts[0] == "<kind>" else { return [] }
            return parts[1] == "<facet>" ? facets : parts[1].hasPrefix("<") ? [] : [parts[1]]
        })
    }
}

/// One output, or a family of outputs made alike (a kind's index pages), of `Outputs.all`.
public struct OutputDeclaration: Sendable {
    /// What it is, for people.
    public let name: String
    /// Where its files go, with `<kind>`, `<slug>`… for the parts that vary; a path ending in `/` is a
    /// page's folder, written as its `index.html`.
    public let paths: [String]
    /// Which listings it shows, beyond what orders, groups and names them (which an in-place edit leaves
    /// alone, see `Catalogue.replacing`): after such an edit, only the outputs that show it are made again.
    public let shows: Shows
    let made: Made

    public enum Shows: Sendable {
        case noListing
        case everyListing
        /// The listings of its kind.
        case itsListings
    }

    enum Made: Sendable {
        /// Once for the site.
        case site(@Sendable (RenderPass) -> [RenderWork])
        /// For every kind, or only those with pages.
        case eachKind(withPagesOnly: Bool, @Sendable (RenderPass, KindCollection) -> [RenderWork])
        /// From the sitemap entries of the pages made.
        case fromPages(@Sendable (SiteRenderer, [SiteRenderer.SitemapEntry]) -> [OutputFile])
        /// From the digests of every other file, when they are written (`SiteRenderer.derivedFiles`).
        case fromDigests
    }

    static func site(_ name: String, _ paths: [String], shows: Shows, _ make: @escaping @Sendable (RenderPass) -> [RenderWork]) -> Self {
        Self(name: name, paths: paths, shows: shows, made: .site(make))
    }

    static func eachKind(
        _ name: String, _ paths: [String], shows: Shows, _ make: @escaping @Sendable (RenderPass, KindCollection) -> [RenderWork]
    ) -> Self {
        Self(name: name, paths: paths, shows: shows, made: .eachKind(withPagesOnly: false, make))
    }

    static func eachKindWithPages(
        _ name: String, _ paths: [String], shows: Shows, _ make: @escaping @Sendable (RenderPass, KindCollection) -> [RenderWork]
    ) -> Self {
        Self(name: name, paths: paths, shows: shows, made: .eachKind(withPagesOnly: true, make))
    }

    static func fromPages(_ name: String, _ paths: [String], _ make: @escaping @Sendable (SiteRenderer, [SiteRenderer.SitemapEntry]) -> [OutputFile]) -> Self {
        Self(name: name, paths: paths, shows: .noListing, made: .fromPages(make))
    }

    static func fromDigests(_ name: String, _ paths: [String]) -> Self {
        Self(name: name, paths: paths, shows: .everyListing, made: .fromDigests)
    }
}

/// A share of the rendering, made on one core: documents, or pages to describe and render.
enum RenderWork: Sendable {
    case documents(@Sendable () -> [OutputFile])
    /// Documents handed to `emit` in batches as they are made, by a share that makes many over a long time.
    case documentBatches(@Sendable (_ emit: ([OutputFile]) -> Void) -> Void)
    case pages(@Sendable () -> [SiteRenderer.Page])
}

/// One render of the declared outputs: all of them, or those that show listings edited in place.
struct RenderPass: Sendable {
    let renderer: SiteRenderer
    /// Where the listings edited in place stand, by kind; nil when every output is made.
    let changes: EditedPositions?
    /// What the last render kept, which an in-place pass starts from.
    let last: KeptRender?
    /// The bytes of a file the last build wrote, when they are still those it recorded.
    let lastBytes: @Sendable (String) -> [UInt8]?
    /// Spare buffers to splice this pass's documents into, by path.
    let spares: SpareBuffers
    /// Receives what this pass makes for the next, when the caller keeps the site (`serve`).
    let keeper: RenderKeeper?
    /// Card digests made ahead for a whole render, by kind; for an in-place edit, each is made when asked.
    private let cards: [String: (listings: CardDigests, entries: CardDigests)]
    /// In place, where the edited listings stand in their kind's lists, by kind.
    private let edited: [String: EditedListings]

    init(
        renderer: SiteRenderer, changes: EditedPositions?, last: KeptRender? = nil,
        lastBytes: @escaping @Sendable (String) -> [UInt8]? = { _ in nil }, spares: SpareBuffers = .none, keeper: RenderKeeper? = nil
    ) {
        self.renderer = renderer
        self.changes = changes
        self.last = last
        self.lastBytes = lastBytes
        self.spares = spares
        self.keeper = keeper
        var cards: [String: (listings: CardDigests, entries: CardDigests)] = [:]
        if changes == nil {
            for collection in renderer.catalogue.kinds where collection.schema.hasPages {
                let schema = collection.schema, contexts = renderer.contexts
                let listsEntries = collection.facets.contains { schema.facetIsOverEntries($0.field.name) }
                cards[schema.name] = (
                    CardDigests(collection.listings, schema: schema, contexts: contexts),
                    listsEntries ? CardDigests(collection.entries, schema: schema, contexts: contexts) : .none
                )
            }
        }
        self.cards = cards
        var edited: [String: EditedListings] = [:]
        for collection in renderer.catalogue.kinds {
            if let positions = changes?.positions(ofKind: collection.schema.name) {
                edited[collection.schema.name] = EditedListings(positions, in: collection, pageSize: renderer.site.pageSize)
            }
        }
        self.edited = edited
    }

    /// Whether the declared output is made in this pass, for the kind when it is made per kind.
    func includes(_ declaration: OutputDeclaration, kind: String? = nil) -> Bool {
        guard let changes else { return true }
        switch declaration.shows {
        case .noListing: return false
        case .everyListing: return true
        case .itsListings: return kind.map { changes.positions(ofKind: $0) != nil } ?? true
        }
    }

    /// Where the edited listings of the collection's kind stand (none when it has none); nil when every
    /// output is made.
    func edited(in collection: KindCollection) -> EditedListings? {
        changes.map { _ in edited[collection.schema.name] ?? EditedListings([], in: collection, pageSize: renderer.site.pageSize) }
    }

    /// The digests of the cards a kind's index pages show, or a facet's pages (a collection kind's entries
    /// when the facet is over entries: an entry's slug, `proverbs-1`, may be a listing's).
    func cardDigests(_ collection: KindCollection, facet: Facet? = nil) -> CardDigests {
        let made = cards[collection.schema.name]
        if let facet, collection.schema.facetIsOverEntries(facet.field.name) { return made?.entries ?? .none }
        return made?.listings ?? .none
    }

    /// The search index's files, handed to `emit`: made anew (the card files as they are made), or in place
    /// from the last build's corpus. Only a render kept for the next edit keeps the corpus.
    func searchIndex(emit: ([OutputFile]) -> Void) {
        if let changes, let corpus = last?.search, let made = renderer.searchIndex(replacing: changes, in: corpus) {
            keeper?.keep(made.corpus)
            emit(made.files)
            return
        }
        // The index holds `emit` only while it is made.
        let made = withoutActuallyEscaping(emit) { emit in renderer.searchIndex(keepingCorpus: keeper != nil, handOnCards: emit) }
        if let corpus = made.corpus { keeper?.keep(corpus) }
        emit(made.files)
    }

    /// `api/<kind>.json`: made anew, or in place spliced from the last one.
    func kindDocument(_ collection: KindCollection) -> OutputFile {
        let path = SiteRenderer.kindDocumentPath(collection.schema)
        return spliced(path, collection, separator: [UInt8(ascii: ",")], item: renderer.kindDocumentItem)
            ?? renderer.kindDocument(collection, made: keep(for: path, kind: collection.schema.name))
    }

    /// `api/<kind>.csv`: made anew, or in place spliced from the last one.
    func csvDownload(_ collection: KindCollection) -> OutputFile {
        let path = SiteRenderer.csvDownloadPath(collection.schema), columns = SiteRenderer.csvColumns(collection.schema)
        return spliced(path, collection, separator: [], item: { SiteRenderer.csvRow($0, columns: columns) })
            ?? renderer.csvDownload(collection, made: keep(for: path, kind: collection.schema.name))
    }

    /// In place, the last document at `path` with the edited listings' items made anew; nil when the last
    /// render kept no spans for it or its file is no longer the one the last build recorded.
    private func spliced(_ path: String, _ collection: KindCollection, separator: [UInt8], item: (Listing) -> [UInt8]) -> OutputFile? {
        guard let positions = edited(in: collection)?.positions, !collection.listings.isEmpty, let spans = last?.spans[path], let bytes = lastBytes(path),
            spans.fit(bytes, count: collection.listings.count)
        else { return nil }
        let listings = collection.listings
        let made = spans.splicing(bytes, positions.map { .replacing($0, with: item(listings[$0])) }, separator: separator, into: spares.take(path))
        let digest = last?.digests[path].flatMap { $0.size == bytes.count ? $0 : nil }
            .map { ResumableDigest(of: made.bytes, resuming: $0, sameFor: made.unchanged) } ?? ResumableDigest(of: made.bytes)
        keeper?.keep(made.spans, digest: digest, for: path, kind: collection.schema.name)
        return OutputFile(path: path, contents: .bytes(made.bytes), digest: FileDigest(size: digest.size, sha256: digest.digest))
    }

    /// Leaves the spans of the document of `kind`'s listings at `path` with the keeper.
    private func keep(for path: String, kind: String) -> @Sendable (ItemSpans) -> Void {
        { [keeper] spans in keeper?.keep(spans, for: path, kind: kind) }
    }

    /// Listing pages are described and rendered in groups of this many, so the cores share them evenly.
    static let listingsPerGroup = 256

    /// A list's pages are described and rendered in groups of this many: each page's context links every page
    /// of its list, so a long list's pages described all at once held memory that grew with the square of its
    /// length (4,167 pages of 100,000 cleaners took over 500 MB).
    static let listPagesPerGroup = 64

    /// A list's JSON pages are made in groups of this many: made a facet at a time, the 8,349 pages of the
    /// cleaners' languages at 10× L (68 MB) were held together until the last was made.
    static let documentPagesPerGroup = 256

    /// The pages of a list of `count` listings (counting from 0) in groups of `size`: all of them, or in an
    /// in-place pass those `shown` (`EditedListings`).
    func listPageGroups(count: Int, shown: [Int]?, of size: Int = listPagesPerGroup, _ make: ([Int]) -> RenderWork) -> [RenderWork] {
        let pages = shown ?? Array(0..<Pagination<Listing>.count(of: count, size: renderer.site.pageSize))
        return pages.indices.runs(of: size).map { make(Array(pages[$0])) }
    }

    /// The positions in the kind's order of the collection's listings (only the edited ones in an in-place pass),
    /// in groups: each group's files go to the writer, and are released, while the next groups are made.
    func positionGroups(_ collection: KindCollection, _ make: @escaping @Sendable (ArraySlice<Int>) -> RenderWork) -> [RenderWork] {
        let listings = collection.listings
        let positions = edited(in: collection)?.positions ?? Array(listings.indices)
        return positions.indices.runs(of: Self.listingsPerGroup).map { make(positions[$0]) }
    }
}
