import CatalogueIndex
import OrderedCollections
import SiteModel

/// The HTML pages: home, a kind's paginated index, facet pages, listing pages, search and 404.
/// Each is described as a `Page` (template and context); `SiteRenderer.render` decides which to render.
extension SiteRenderer {
    func homePage() -> Page {
        let context: Value = .object([
            "site": contexts.siteValue(currentKind: nil),
            "page": contexts.page(title: site.title, outputPath: "", description: site.description),
            "is_home": .bool(true),
            "kinds": .list(catalogue.kinds.filter(\.schema.hasPages).map(contexts.kindValue)),
            "newest": .list(catalogue.newest.compactMap { listing in
                catalogue.collection(listing.kind).map { contexts.card(listing, schema: $0.schema, firstScreen: false) }
            }),
            "daily": .list(catalogue.kinds.compactMap { collection in
                guard collection.schema.daily != nil, let pick = DailyPicks(collection: collection, from: catalogue.buildDate, days: 1).picks.first
                else { return nil }
                return dailyValue(pick, in: collection)
            }),
        ])
        return page(at: "", template: "home", context: context, lastModified: catalogue.kinds.compactMap { $0.latestDate(of: $0.listings) }.max())
    }

    /// With `showing`, only the pages that show one of those listings. `cardDigests` are the listings' card
    /// digests by slug (`PageContexts.cardDigest`) where they were made ahead; missing ones are made here.
    func indexPages(_ collection: KindCollection, showing: Set<String>? = nil, cardDigests: [String: String] = [:]) -> [Page] {
        listPages(
            collection.listings, in: collection, basePath: collection.outputPath, title: collection.schema.title,
            description: collection.schema.description, facet: .null, showing: showing, cardDigests: cardDigests)
    }

    /// The facet's own page listing its values, then one paginated list per value. With `showing`, only
    /// the list pages that show one of those listings (the facet's own page shows counts, not listings).
    func facetPages(_ facet: Facet, in collection: KindCollection, showing: Set<String>? = nil, cardDigests: [String: String] = [:]) -> [Page] {
        let schema = collection.schema
        let facetPath = facet.outputPath(kind: schema.name)
        let facetTitle = "\(schema.title) by \(facet.field.label.lowercased())"
        let context: Value = .object([
            "site": contexts.siteValue(currentKind: schema.name),
            "page": contexts.page(title: facetTitle, outputPath: facetPath, description: "\(schema.title) by \(facet.field.label.lowercased())."),
            "kind": contexts.kindValue(collection),
            "facet": .object([
                "label": .string(facet.field.label),
                "values": .list(facet.values.map { contexts.facetValue($0, of: facet, in: collection) }),
            ]),
        ])
        var pages = showing != nil ? [] : [page(
            at: facetPath, template: templates.name("facet", forKind: schema.name), context: context,
            keyStandIns: ["kind": contexts.kindStandIn(collection)], lastModified: collection.latestDate(of: collection.listings))]
        for value in facet.values {
            let title = "\(schema.title): \(facet.field.label) \(value.text)"
            let facetValue: Value = .object([
                "label": .string(facet.field.label), "text": .string(value.text), "path": .string(site.path(facetPath)),
            ])
            pages += listPages(
                value.listings, in: collection, basePath: facetPath + value.slug + "/", title: title,
                description: "\(schema.title) with \(facet.field.label.lowercased()) \(value.text).", facet: facetValue, showing: showing,
                cardDigests: cardDigests)
        }
        return pages
    }

    private func listPages(
        _ listings: [Listing], in collection: KindCollection, basePath: String, title: String, description: String, facet: Value,
        showing: Set<String>?, cardDigests: [String: String]
    ) -> [Page] {
        let schema = collection.schema
        let paginations = Pagination.pages(of: listings, size: site.pageSize, basePath: basePath)
        return zip(paginations, contexts.paginationValues(paginations)).filter { pagination, _ in
            showing.map { slugs in pagination.items.contains { slugs.contains($0.slug) } } ?? true
        }.map { pagination, paginationValue in
            let cards = pagination.items.enumerated().map { index, listing in (listing, firstScreen: index < PageContexts.firstScreenCards) }
            let context: Value = .object([
                "site": contexts.siteValue(currentKind: schema.name),
                "page": contexts.page(title: title, description: description, pagination: pagination),
                "kind": contexts.kindValue(collection),
                "facet": facet,
                "total": .int(Int64(listings.count)),
                "pagination": paginationValue.value,
                "listings": .list(cards.map { listing, firstScreen in contexts.card(listing, schema: schema, firstScreen: firstScreen) }),
            ])
            let cardStandIns = cards.map { listing, firstScreen in
                contexts.cardStandIn(
                    cardDigest: cardDigests[listing.slug] ?? contexts.cardDigest(listing, schema: schema), firstScreen: firstScreen)
            }
            return page(
                at: pagination.outputPath, template: templates.name("list", forKind: schema.name), context: context,
                keyStandIns: ["kind": contexts.kindStandIn(collection), "pagination": paginationValue.standIn, "listings": .list(cardStandIns)],
                lastModified: collection.latestDate(of: pagination.items))
        }
    }

    func listingPage(_ listing: Listing, in collection: KindCollection) -> Page {
        let schema = collection.schema
        let title = contexts.title(of: listing, schema: schema)
        let context: Value = .object([
            "site": contexts.siteValue(currentKind: schema.name),
            "page": contexts.page(title: title, outputPath: listing.outputPath, description: "\(schema.singular): \(title)"),
            "kind": contexts.kindValue(collection),
            "listing": .object(listing.fields),
            "display": .object(listing.display.mapValues(Value.string)),
            "fields": contexts.fieldRows(listing, schema: schema),
        ])
        return page(
            at: listing.outputPath, template: templates.name("listing", forKind: schema.name), context: context,
            keyStandIns: ["kind": contexts.kindStandIn(collection)], lastModified: collection.latestDate(of: [listing]))
    }

    func freePage(_ freePage: FreePage) -> Page {
        let context: Value = .object([
            "site": contexts.siteValue(currentKind: nil, currentPage: freePage.slug),
            "page": contexts.page(title: freePage.title, outputPath: freePage.outputPath, description: freePage.description),
            "body_html": .html(freePage.html),
        ])
        return page(at: freePage.outputPath, template: "page", context: context, lastModified: nil)
    }

    func searchPage() -> Page {
        let context: Value = .object([
            "site": contexts.siteValue(currentKind: nil),
            "page": contexts.page(title: "Search", outputPath: "search/", description: "Search every listing on \(site.title)."),
            "index_url": .string(site.path(SiteRenderer.searchIndexPath)),
        ])
        return page(at: "search/", template: "search", context: context, lastModified: nil)
    }

    /// Served for any missing URL, so every link in it is root-relative (they all are).
    func notFoundPage() -> Page {
        let context: Value = .object([
            "site": contexts.siteValue(currentKind: nil),
            "page": contexts.page(title: "Page not found", outputPath: "404.html", description: "There is no page at this address."),
        ])
        return Page(path: "404.html", template: "404", context: context, lastModified: nil, inSitemap: false)
    }

    func dailyValue(_ pick: DailyPicks.Pick, in collection: KindCollection) -> Value {
        .object([
            "date": .date(pick.date),
            "kind_title": .string(collection.schema.title),
            "entry": pick.entry,
            "listing": contexts.card(pick.listing, schema: collection.schema, firstScreen: true),
        ])
    }

    /// A page with a pretty URL: `outputPath` is a folder and the file is its `index.html`.
    func page(
        at outputPath: String, template: String, context: Value, keyStandIns: [String: Value] = [:], lastModified: CalendarDate?
    ) -> Page {
        Page(
            path: outputPath + "index.html", template: template, context: context, keyStandIns: keyStandIns, lastModified: lastModified,
            inSitemap: true)
    }
}
