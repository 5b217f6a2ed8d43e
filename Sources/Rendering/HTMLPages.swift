import CatalogueIndex
import Foundation
import OrderedCollections
import SiteModel
import Support

/// The HTML pages: home, a kind's paginated index, facet pages, listing pages, free pages, search and 404.
/// Each is described as a `Page` (template and context); `Outputs` declares them and `SiteRenderer.render`
/// decides which to render.
extension SiteRenderer {
    func homePage() -> Page {
        let context = pageContext("home", site: contexts.siteValue(.outside), [
            "page": contexts.page(title: site.title, outputPath: "", description: site.description),
            "is_home": .bool(true),
            "kinds": .list(catalogue.kinds.filter(\.schema.isBrowsed).map { contexts.kindValue($0).value }),
            "newest": .list(catalogue.newest.compactMap { listing in
                catalogue.collection(listing.kind).map { contexts.card(listing, schema: $0.schema, firstScreen: false) }
            }),
            "entries": collectionEntries(),
            "daily": .list(catalogue.kinds.compactMap { collection in
                guard collection.schema.daily != nil, let pick = DailyPicks(collection: collection, from: catalogue.buildDate, days: 1).picks.first
                else { return nil }
                return dailyValue(pick, in: collection)
            }),
        ])
        return page(at: "", template: "home", context: context, lastModified: versions.newestUpdates.values.max())
    }

    /// For the home page, by kind, the first entries of each collection kind with pages (in its entry order) as
    /// cards: `{{#entries.quotes}}…{{/entries.quotes}}`.
    private func collectionEntries() -> Value {
        var entries: OrderedDictionary<String, Value> = [:]
        for collection in catalogue.kinds where collection.schema.entriesField != nil && collection.schema.hasPages {
            entries[collection.schema.name] = .list(collection.entries.prefix(Catalogue.newestCount).map {
                contexts.card($0, schema: collection.schema, firstScreen: false)
            })
        }
        return .object(entries)
    }

    /// With `showing`, only the pages that show one of those listings.
    func indexPages(_ collection: KindCollection, pages: [Int], links: MadeByFirstReader<PaginationLinks>, cardDigests: CardDigests) -> [Page] {
        listPages(
            collection.listings, pages: pages, links: links, in: collection, basePath: collection.outputPath, title: collection.schema.title,
            description: collection.schema.description, facet: .null,
            breadcrumbs: contexts.breadcrumbs([(collection.schema.title, collection.outputPath)]), cardDigests: cardDigests)
    }

    /// The facet's own page, listing its values with their counts.
    func facetPage(_ facet: Facet, in collection: KindCollection) -> Page {
        let schema = collection.schema
        let facetPath = facet.outputPath(kind: schema.name)
        let facetTitle = "\(schema.title) by \(facet.field.label.lowercased())"
        let template = templates.name("facet", forKind: schema.name)
        var context = pageContext(template, site: contexts.siteValue(.inKind(schema.name)), [
            "page": contexts.page(title: facetTitle, outputPath: facetPath, description: "\(schema.title) by \(facet.field.label.lowercased())."),
        ])
        context.set("kind", contexts.kindValue(collection))
        context.set("facet", .object([
            "label": .string(facet.field.label),
            "values": .list(facet.values.map { contexts.facetValue($0, of: facet, in: collection) }),
        ]))
        context.set("breadcrumbs", contexts.breadcrumbs([(schema.title, collection.outputPath), (facet.field.label, facetPath)]))
        return page(
            at: facetPath, template: template, context: context,
            lastModified: versions.newestUpdates[schema.name])
    }

    /// The pages of one value of the facet (those in `pages`, counting from 0).
    func facetValuePages(
        _ value: FacetValue, of facet: Facet, in collection: KindCollection, pages: [Int], links: MadeByFirstReader<PaginationLinks>,
        combined: Value, cardDigests: CardDigests
    ) -> [Page] {
        let schema = collection.schema
        let facetPath = facet.outputPath(kind: schema.name)
        let facetValue: Value = .object([
            "label": .string(facet.field.label), "text": .string(value.text), "path": .string(site.path(facetPath)),
        ])
        let trail = [(schema.title, collection.outputPath), (facet.field.label, facetPath), (value.text, facetPath + value.slug + "/")]
        return listPages(
            value.listings, pages: pages, links: links, in: collection, basePath: facetPath + value.slug + "/",
            title: "\(schema.title) · \(facet.field.label): \(value.text)",
            description: "\(schema.title) with \(facet.field.label.lowercased()): \(value.text).",
            facet: facetValue, filter: (facet.field.name, value.text), breadcrumbs: contexts.breadcrumbs(trail),
            combined: combined, cardDigests: cardDigests)
    }

    /// A facet value's other facets for search links (`PageContexts.combinedFilters`); none without a search page
    /// or for a kind search leaves out.
    func combinedFilters(_ value: FacetValue, of facet: Facet, in collection: KindCollection) -> Value {
        templates.names.contains("search") && collection.schema.isBrowsed ? contexts.combinedFilters(value, of: facet, in: collection) : .list([])
    }

    /// The list's pages in `pages` (counting from 0; see `RenderPass.listPageGroups`). `links` is shared by
    /// the list's groups of pages: the first group makes the list's `PaginationLinks` (its page count, path
    /// and the digest of its links), and the links themselves are made as templates read them.
    private func listPages(
        _ listings: some PlacedListings & Sendable, pages: [Int], links: MadeByFirstReader<PaginationLinks>, in collection: KindCollection, basePath: String, title: String, description: String,
        facet: Value, filter: (name: String, value: String)? = nil, breadcrumbs: Value, combined: Value = .list([]), cardDigests: CardDigests
    ) -> [Page] {
        let schema = collection.schema
        let paginations = Pagination.pages(of: listings, size: site.pageSize, basePath: basePath, in: pages)
        let listLinks = links.value { contexts.paginationLinks(count: Pagination<Listing>.count(of: listings.count, size: site.pageSize), basePath: basePath) }
        let template = templates.name("list", forKind: schema.name)
        return zip(paginations, contexts.paginationValues(paginations, links: listLinks)).map { pagination, paginationValue in
            let site = contexts.siteValue(.of(kind: schema.name, outputPath: pagination.outputPath, kindPath: collection.outputPath))
            var context = pageContext(template, site: site, [
                "page": contexts.page(title: title, description: description, pagination: pagination),
            ])
            context.set("kind", contexts.kindValue(collection))
            context.set("facet", facet)
            context.set("total", .int(Int64(listings.count)))
            context.set("pagination", paginationValue)
            let start = listings.startIndex + (pagination.number - 1) * self.site.pageSize
            let shown = start..<start + pagination.items.count
            context.set("listings", CardList.made(listings, range: shown, schema: schema, contexts: contexts, digests: cardDigests))
            context.set("sorts", sortChoices(schema, filter: filter))
            context.set("breadcrumbs", breadcrumbs)
            context.set("combined", combined)
            return page(
                at: pagination.outputPath, template: template, context: context,
                lastModified: lastUpdated(pagination.items, areEntries: filter.map { schema.facetIsOverEntries($0.name) } ?? false))
        }
    }

    /// A list page's other orders: each of the kind's sort fields as the search page sorts them (it fetches
    /// only that order's ranks and the cards it shows), with the facet value of a facet page as a filter.
    /// The first is the list's own order (`current`). Empty when the site has no search page or no other order,
    /// and for a kind search leaves out.
    func sortChoices(_ schema: KindSchema, filter: (name: String, value: String)?) -> Value {
        // A facet over a collection's entries lists entries, which search does not sort.
        guard templates.names.contains("search"), schema.isBrowsed, schema.sort.count > 1, !schema.facetIsOverEntries(filter?.name ?? "") else { return .list([]) }
        let filters = [(SearchPageQuery.kind, schema.name)] + (filter.map { [$0] } ?? [])
        return .list(schema.sort.enumerated().compactMap { index, key in
            guard let label = schema.label(of: key.field) else { return nil }
            let query = SearchPageQuery.query(filters + [(SearchPageQuery.sort, key.field)])
            return .object([
                "label": .string(label + sortDirection(key, in: schema)), "path": .string(site.path("search/") + query),
                "current": .bool(index == 0),
            ])
        })
    }

    /// `cardDigests`: those the render made of a kind's cards, for the cards of the listings this one gathers.
    func listingPage(_ listing: Listing, in collection: KindCollection, cardDigests: (KindCollection) -> CardDigests = { _ in .none }) -> Page {
        let schema = collection.schema
        let title = contexts.title(of: listing, schema: schema)
        let template = templates.name("listing", forKind: schema.name)
        var context = pageContext(template, site: contexts.siteValue(.inKind(schema.name)), [
            "page": contexts.page(
                title: title, outputPath: listing.outputPath,
                description: contexts.summary(listing, schema: schema) ?? "\(schema.singular): \(title)"),
        ])
        context.set("kind", contexts.kindValue(collection))
        context.set("listing", contexts.pageFields(listing, schema: schema))
        context.set("display", .object(listing.display.mapValues(Value.string)))
        context.set("dates", contexts.datesValue(listing, schema: schema))
        // The generic rows show the facet links too.
        let facetLinks = context.reads("facet_links") || context.reads("fields") ? contexts.facetLinks(listing, schema: schema) : .null
        context.set("fields", contexts.fieldRows(listing, schema: schema, facetLinks: facetLinks))
        context.set("entries", contexts.entriesValue(listing, in: collection))
        context.set("contact", contexts.contact(listing, schema: schema))
        context.set("json_ld", contexts.jsonLD(listing, schema: schema))
        context.set("sharing", contexts.sharing(listing, schema: schema))
        context.set("cards", contexts.gatheredCards(listing, schema: schema, digests: cardDigests))
        context.set("facet_links", facetLinks)
        context.set("breadcrumbs", contexts.breadcrumbs([(schema.title, collection.outputPath), (title, listing.outputPath)]))
        return page(
            at: listing.outputPath, template: template, context: context,
            lastModified: lastUpdated([listing]))
    }

    func freePage(_ freePage: FreePage) -> Page {
        let context = pageContext("page", site: contexts.siteValue(.freePage(freePage.slug)), [
            "page": contexts.page(title: freePage.title, outputPath: freePage.outputPath, description: freePage.description),
            "body_html": .html(freePage.html),
        ])
        return page(at: freePage.outputPath, template: "page", context: context, lastModified: nil)
    }

    func searchPage() -> Page {
        let context = pageContext("search", site: contexts.siteValue(.outside), [
            "page": contexts.page(title: "Search", outputPath: "search/", description: "Search every listing on \(site.title)."),
            "index_url": .string(site.path(SiteRenderer.searchFolder)),
            // Without JavaScript, the page offers each kind's facet pages instead.
            "browse": .list(catalogue.kinds.filter(\.schema.isBrowsed).map { collection in
                .object([
                    "title": .string(collection.schema.title), "path": .string(site.path(collection.outputPath)),
                    "facets": contexts.facetsValue(collection),
                ])
            }),
        ])
        return page(at: "search/", template: "search", context: context, lastModified: nil)
    }

    /// Served for any missing URL, so every link in it is root-relative (they all are). It has no `url`: a
    /// canonical link or `og:url` would name `404.html` as the page at every address it is served for.
    func notFoundPage() -> Page {
        let context = pageContext("404", site: contexts.siteValue(.outside), [
            "page": contexts.page(title: "Page not found", outputPath: "404.html", description: "There is no page at this address.", canonical: false),
        ])
        return Page(path: "404.html", template: "404", context: context, lastModified: nil, inSitemap: false)
    }

    /// A day's pick: `entry_path` links the entry itself (its anchor on its collection's page), and a
    /// collection's entry is titled by `entry_title`, the value of its first text field (`entry_title_field`), so
    /// that a template can show any kind's pick; `api_path` is the folder of the daily documents, from which the
    /// page's script picks the visitor's own today.
    func dailyValue(_ pick: DailyPicks.Pick, in collection: KindCollection) -> Value {
        let listingPath = pick.listing.fields["path"]?.text
        let titleField = collection.schema.entriesField == nil ? nil : contexts.layout(collection.schema).entryTitleField
        return .object([
            "date": .date(pick.date),
            "date_text": .string(contexts.dates.text(pick.date)),
            "kind_title": .string(collection.schema.title),
            "kind_singular": .string(collection.schema.singular),
            "entry": pick.entry,
            "entry_title": titleField.flatMap { pick.entry[$0] } ?? .null,
            "entry_title_field": titleField.map(Value.string) ?? .null,
            "tags": pick.entry.objectValue.map { contexts.facetLinks($0, in: collection) } ?? .list([]),
            "links": pick.entry.objectValue.map { contexts.facetPaths($0, in: collection) } ?? .object([:]),
            "entry_path": listingPath.map { path in .string(pick.position.map { path + "#entry-\($0 - 1)" } ?? path) } ?? .null,
            "listing": contexts.card(pick.listing, schema: collection.schema, firstScreen: true),
            "api_path": .string(site.path("api/\(collection.schema.name)/daily/")),
            "archive_path": hasArchive(collection.schema) ? .string(site.path(collection.outputPath + "daily/")) : .null,
        ])
    }

    /// When the newest of these listings (or collection entries) last changed, for a page that shows them: its
    /// sitemap `lastmod`. A kind's own date field (`joined`, an event's day) says nothing of when a page changed,
    /// and may lie ahead.
    func lastUpdated(_ listings: some Sequence<Listing>, areEntries: Bool = false) -> CalendarDate? {
        listings.lazy.map { versions.updated($0, isEntry: areEntries) }.max()
    }

    /// The context of a page rendered with `template`: `site`, then `fields`, of those its templates read.
    func pageContext(_ template: String, site: SharedValue, _ fields: OrderedDictionary<String, Value>) -> PageContext {
        PageContext(site: site, reading: templates.namesRead(by: template), fields)
    }

    /// A page with a pretty URL: `outputPath` is a folder and the file is its `index.html`.
    func page(at outputPath: String, template: String, context: PageContext, lastModified: CalendarDate?) -> Page {
        Page(path: outputPath + "index.html", template: template, context: context, lastModified: lastModified, inSitemap: true)
    }
}
