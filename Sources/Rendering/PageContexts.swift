import CatalogueIndex
import OrderedCollections
import SiteModel
import Support

/// Builds the values templates see. Every page gets `site` and `page`; the layout also gets `content`.
struct PageContexts: Sendable {
    let catalogue: Catalogue
    /// `site` and `kind` are the same on every page of a kind (for each place in the navigation), so each is
    /// built once, not per page, with its digest, which render keys take in its place.
    private var siteValues: [NavigationPlace: SharedValue] = [:]
    private var kindValues: [String: SharedValue] = [:]
    /// By kind and slug, where in their kind's list the listings are that derived `list` fields gather (an
    /// owner's rentals), for their cards. Positions, so that the listings are not copied to index them; made
    /// when a page first asks, as an edit in place of another kind's listing never does (at 430,000 listings,
    /// made for every edit, they took about 3 % of its CPU).
    private var gathered: [String: Once<[String: Int]>] = [:]
    private var layouts: [String: KindLayout] = [:]

    /// The kinds that have a map page (`SiteRenderer.mapPage`): their list pages and navigation link it.
    let mapKinds: Set<String>
    /// Dates in the site's language.
    let dates: DateText
    let facetValuePaths: FacetValuePaths

    init(catalogue: Catalogue, mapKinds: Set<String> = []) {
        self.catalogue = catalogue
        self.mapKinds = mapKinds
        dates = DateText(language: catalogue.site.language)
        facetValuePaths = FacetValuePaths(catalogue)
        for collection in catalogue.kinds {
            for derived in collection.schema.derived {
                guard case .list = derived.operation, let from = derived.from, gathered[from] == nil,
                    let source = catalogue.collection(from), source.schema.hasPages
                else { continue }
                let listings = source.listings
                gathered[from] = Once { Dictionary(listings.indices.map { (listings[$0].slug, $0) }) { first, _ in first } }
            }
        }
        layouts = Dictionary(uniqueKeysWithValues: catalogue.kinds.map { ($0.schema.name, KindLayout($0.schema)) })
        let places = [NavigationPlace.outside] + catalogue.kinds.flatMap { [.kind($0.schema.name), .inKind($0.schema.name), .map($0.schema.name)] }
        siteValues = Dictionary(uniqueKeysWithValues: places.map { ($0, SharedValue(makeSiteValue($0))) })
        kindValues = Dictionary(uniqueKeysWithValues: catalogue.kinds.map { ($0.schema.name, SharedValue(makeKindValue($0))) })
    }

    var site: SiteConfig { catalogue.site }

    /// What the kind's cards and pages read from its schema.
    func layout(_ schema: KindSchema) -> KindLayout {
        layouts[schema.name] ?? KindLayout(schema)
    }

    /// `site`, its navigation marking where the page being rendered is.
    func siteValue(_ place: NavigationPlace) -> SharedValue {
        siteValues[place] ?? SharedValue(makeSiteValue(place))
    }

    private func makeSiteValue(_ place: NavigationPlace) -> Value {
        .object([
            "title": .string(site.title),
            "description": .string(site.description),
            "language": .string(site.language),
            "base_url": .string(site.baseURL),
            "base_path": .string(site.basePath),
            "build_date": .date(catalogue.buildDate),
            "feeds": .list(catalogue.kinds.flatMap { Self.feedLinks($0.schema, site: site) }),
            "nav": .list(navigationKinds.flatMap { collection in
                let entry: Value = .object([
                    "title": .string(collection.schema.title),
                    "path": .string(site.path(collection.outputPath)),
                    "current": place.mark(kind: collection.schema.name),
                ])
                guard let mapPath = mapPath(collection) else { return [entry] }
                return [entry, .object(["title": .string("Map"), "path": .string(mapPath), "current": place.mark(mapOf: collection.schema.name)])]
            } + catalogue.pages.filter { $0.navigationOrder != nil }.map { page in
                .object([
                    "title": .string(page.title),
                    "path": .string(site.path(page.outputPath)),
                    "current": place.mark(freePage: page.slug),
                ])
            }),
        ])
    }

    /// The kinds the navigation links: those `nav:` names in its order, or every kind visitors browse; a kind
    /// without pages has nothing to link.
    private var navigationKinds: [KindCollection] {
        guard let names = site.nav else { return catalogue.kinds.filter(\.schema.isBrowsed) }
        return names.compactMap(catalogue.collection).filter(\.schema.hasPages)
    }

    /// The kind's map page, when it has one.
    func mapPath(_ collection: KindCollection) -> String? {
        mapKinds.contains(collection.schema.name) ? site.path(collection.outputPath + "map/") : nil
    }

    /// A page's title, description, path and URL; a page that is not `canonical` (the 404 page, served at
    /// every missing address) has no URL.
    /// An empty description is null, so that templates leave its `<meta>` out rather than write an empty one.
    func page(title: String, outputPath: String, description: String, canonical: Bool = true) -> Value {
        .object([
            "title": .string(title),
            "description": description.isEmpty ? .null : .string(description),
            "path": .string(site.path(outputPath)),
            "url": canonical ? .string(site.url(outputPath)) : .null,
        ])
    }

    /// A list page with its place among its siblings; the layout turns `prev`/`next` into `rel` links.
    func page<Item>(title: String, description: String, pagination: Pagination<Item>) -> Value {
        guard case .object(var fields) = page(
            title: pagination.number == 1 ? title : "\(title), page \(pagination.number)", outputPath: pagination.outputPath,
            description: description)
        else { return .null }
        fields["prev"] = pagination.previousPath.map { .string(site.path($0)) } ?? .null
        fields["next"] = pagination.nextPath.map { .string(site.path($0)) } ?? .null
        return .object(fields)
    }

    /// The `pagination` value of each page of one list, with its stand-in for render keys. `pages` links
    /// every page of the list and `window` the pages near this one (`Pagination.window`), with a `gap` where
    /// pages are skipped. `pages` is made from `links` as a template walks it, since made ahead for every
    /// page it grew with the square of the list's length (XL's 4,000-page lists). In the stand-in, `pages` is
    /// the digest of the list's links, since `number` says which one is current, and `window` follows from
    /// `number` and `count`.
    func paginationValues<Item>(_ paginations: [Pagination<Item>], links: PaginationLinks) -> [PaginationValue] {
        paginations.map { pagination in
            precondition(pagination.count == links.count, "page \(pagination.number) of \(pagination.count) given the links of \(links.count) pages")
            let fields: OrderedDictionary<String, Value> = [
                "number": .int(Int64(pagination.number)),
                "count": .int(Int64(pagination.count)),
                "is_paged": .bool(pagination.count > 1),
                "prev": pagination.previousPath.map { .string(site.path($0)) } ?? .null,
                "next": pagination.nextPath.map { .string(site.path($0)) } ?? .null,
            ]
            let current = pagination.number
            @Sendable func link(_ number: Int) -> Value { links.link(to: number, current: number == current) }
            var context = PageContext(fields)
            // The list's own stand-in goes unread: render keys take the whole pagination's (below).
            context.set("pages", MadeList(count: links.count, keyStandIn: links.keyStandIn) { link($0 + 1) })
            context["window"] = .list(pagination.window.map { number in number.map(link) ?? Self.paginationGap })
            var standIn = fields
            standIn["pages"] = links.keyStandIn
            return PaginationValue(context: context, keyStandIn: .object(standIn))
        }
    }

    /// The links to every page of a list of `count` pages at `basePath`, for `paginationValues`.
    func paginationLinks(count: Int, basePath: String) -> PaginationLinks {
        PaginationLinks(count: count, listPath: site.path(basePath))
    }

    /// Where a paginator's window skips pages; its links carry no `gap`, so templates test `{{#gap}}`.
    private static let paginationGap: Value = .object(["gap": .bool(true)])

    /// A kind's facets with their values, for "browse by" links.
    func facetsValue(_ collection: KindCollection) -> Value {
        .list(collection.facets.map { facet in
            .object([
                "name": .string(facet.field.name),
                "label": .string(facet.field.label),
                "path": .string(site.path(facet.outputPath(kind: collection.schema.name))),
                "values": .list(facet.values.map { facetValue($0, of: facet, in: collection) }),
            ])
        })
    }

    func facetValue(_ value: FacetValue, of facet: Facet, in collection: KindCollection) -> Value {
        .object([
            "text": .string(value.text),
            "path": .string(site.path(facet.outputPath(kind: collection.schema.name) + value.slug + "/")),
            "count": .int(Int64(value.listings.count)),
        ])
    }

    /// The facet values of a listing's or entry's fields, each with its facet value page: `text`, `path`, `label`.
    func facetLinks(_ fields: OrderedDictionary<String, Value>, in collection: KindCollection) -> Value {
        .list(collection.facets.flatMap { facet in
            facetTexts(fields[facet.field.name]).map { text -> Value in
                .object([
                    "label": .string(facet.field.label), "text": .string(text),
                    "path": .string(facetValuePaths.path(kind: collection.schema.name, field: facet.field.name, text: text)),
                ])
            }
        })
    }

    /// The page of each facet field's value, by field name, for fields that hold one value (`links.category`).
    func facetPaths(_ fields: OrderedDictionary<String, Value>, in collection: KindCollection) -> Value {
        var paths: OrderedDictionary<String, Value> = [:]
        for facet in collection.facets {
            let texts = facetTexts(fields[facet.field.name])
            guard texts.count == 1, fields[facet.field.name]?.listValue == nil else { continue }
            paths[facet.field.name] = .string(facetValuePaths.path(kind: collection.schema.name, field: facet.field.name, text: texts[0]))
        }
        return .object(paths)
    }

    /// A collection's entries as its page shows them: each entry's fields, its `anchor`, its facet `tags` and
    /// `links` (`facetPaths`).
    func entriesValue(_ listing: Listing, in collection: KindCollection) -> Value {
        guard let entriesField = collection.schema.entriesField, let entries = listing.fields[entriesField]?.listValue else { return .null }
        return .list(entries.enumerated().map { index, entry in
            guard case .object(var fields) = entry else { return entry }
            fields["anchor"] = .string("entry-\(index)")
            fields["tags"] = facetLinks(fields, in: collection)
            fields["links"] = facetPaths(fields, in: collection)
            return .object(fields)
        })
    }

    func kindValue(_ collection: KindCollection) -> SharedValue {
        kindValues[collection.schema.name] ?? SharedValue(makeKindValue(collection))
    }

    private func makeKindValue(_ collection: KindCollection) -> Value {
        let schema = collection.schema
        return .object([
            "name": .string(schema.name),
            "title": .string(schema.title),
            "singular": .string(schema.singular),
            "description": .string(schema.description),
            "path": .string(site.path(collection.outputPath)),
            "count": .int(Int64(collection.listings.count)),
            "facets": facetsValue(collection),
            "map_path": mapPath(collection).map(Value.string) ?? .null,
            "feeds": .list(Self.feedLinks(schema, site: site)),
        ])
    }

    /// The cards at the top of a list page that a phone shows before any scrolling: templates load their
    /// pictures at once and the others' lazily.
    static let firstScreenCards = 4

    /// A listing as lists show it: its title and link, the parts its kind's card shows (`card`), its fields
    /// and their display text, and whether the page shows it on its first screen.
    func card(_ listing: Listing, schema: KindSchema, firstScreen: Bool) -> Value {
        .object(cardFields(listing, schema: schema, firstScreen: firstScreen))
    }

    func cardFields(_ listing: Listing, schema: KindSchema, firstScreen: Bool) -> OrderedDictionary<String, Value> {
        [
            "title": .string(title(of: listing, schema: schema)),
            "path": listing.fields["path"] ?? .null,
            "kind_singular": .string(schema.singular),
            "first_screen": .bool(firstScreen),
            "card": CardParts(listing, layout: layout(schema), facetValuePaths: facetValuePaths).value,
            "listing": .object(listing.fields),
            "display": .object(listing.display.mapValues(Value.string)),
            "dates": datesValue(listing, schema: schema),
        ]
    }

    /// The listing's fields as its page sees them: each image of a list of images also carries its `number` (from
    /// 1) and the list's `count`, so that several photos get distinct alt texts ("Kayak, photo 2 of 3").
    func pageFields(_ listing: Listing, schema: KindSchema) -> Value {
        var fields = listing.fields
        for field in schema.fields {
            guard case .list(let item) = field.type, case .image = item.type, case .list(let images)? = fields[field.name] else { continue }
            fields[field.name] = .list(images.enumerated().map { index, image in
                guard case .object(var values) = image else { return image }
                values["number"] = .int(Int64(index + 1))
                values["count"] = .int(Int64(images.count))
                return .object(values)
            })
        }
        return .object(fields)
    }

    /// The listing's date fields as pages write them, in the site's language: `{{dates.listed}}` → "23 November 2026".
    func datesValue(_ listing: Listing, schema: KindSchema) -> Value {
        var dates: OrderedDictionary<String, Value> = [:]
        for name in layout(schema).dateFields {
            if case .date(let date)? = listing.fields[name] { dates[name] = .string(self.dates.text(date)) }
        }
        return .object(dates)
    }

    /// For each derived `list` field of a kind with pages (an owner's `items`), the cards of the listings it
    /// holds, in its order: `cards.items` beside `listing.items`. `digests` gives the cards' digests the
    /// render made for the source kind.
    func gatheredCards(_ listing: Listing, schema: KindSchema, digests: (KindCollection) -> CardDigests) -> GatheredCards {
        var cards: [(field: String, cards: [(card: Value, digest: SHA256.Digest?)])] = []
        for derived in schema.derived {
            guard case .list = derived.operation, let from = derived.from, let positions = gathered[from]?.value,
                let source = catalogue.collection(from), let members = listing.fields[derived.name]?.listValue
            else { continue }
            let made = digests(source)
            cards.append((derived.name, members.compactMap { member in
                member["slug"].flatMap { positions[$0.text] }.map { position in
                    let shown = source.listings[position]
                    return (card(shown, schema: source.schema, firstScreen: false), made.madeDigest(of: shown, at: position))
                }
            }))
        }
        return GatheredCards(cards)
    }

    func cardDigest(_ listing: Listing, schema: KindSchema) -> SHA256.Digest {
        RenderKey.compactDigest(of: card(listing, schema: schema, firstScreen: false))
    }

    /// The title field's text; for an entry of a collection, its first text field.
    func title(of listing: Listing, schema: KindSchema) -> String {
        if let title = listing.fields[schema.titleField]?.text { return title }
        return layout(schema).entryTitleField.flatMap { listing.fields[$0]?.text } ?? listing.slug
    }

    /// Every public field as label and text, for generic templates that do not know the kind; a facet's
    /// values as `links` to their pages, from the listing's `facetLinks`.
    func fieldRows(_ listing: Listing, schema: KindSchema, facetLinks: Value) -> Value {
        var rows: [Value] = []
        for derived in schema.derived {
            guard let value = listing.fields[derived.name], value.listValue == nil else { continue }
            rows.append(.object(["name": .string(derived.name), "label": .string(derived.label), "text": .string(listing.display[derived.name] ?? value.text)]))
        }
        for field in schema.fields where !field.isPrivate && field.name != schema.titleField {
            guard let value = listing.fields[field.name] else { continue }
            var row: OrderedDictionary<String, Value> = ["name": .string(field.name), "label": .string(field.label)]
            if let links = facetLinks[field.name] {
                row["links"] = links
                rows.append(.object(row))
                continue
            }
            switch field.type {
            case .markdown:
                row["html"] = listing.fields[field.name + "_html"] ?? .null
            case .image:
                row["images"] = .list([value])
            case .list(let item):
                if case .image = item.type {
                    row["images"] = value
                } else if case .list(let items) = value {
                    row["items"] = .list(items.map { .string(rowText($0)) })
                    // The page's links to a collection's entries (`#entry-0`…) need somewhere to land.
                    if field.name == schema.entriesField { row["items_are_entries"] = .bool(true) }
                }
            case .url:
                row["link"] = value
            case .reference:
                row["reference"] = value
            case .date:
                // Written out as the page's own dates are ("20 November 2026"), with the date for `<time>`.
                guard case .date(let date) = value else { fallthrough }
                row["text"] = .string(dates.text(date))
                row["datetime"] = .string(date.description)
            default:
                row["text"] = .string(listing.display[field.name] ?? rowText(value))
            }
            rows.append(.object(row))
        }
        return .list(rows)
    }

    private func rowText(_ value: Value) -> String {
        switch value {
        case .bool(let flag): return flag ? "Yes" : "No"
        case .object(let fields): return fields["title"]?.text ?? fields.values.map(rowText).filter { !$0.isEmpty }.joined(separator: " · ")
        case .list(let items): return items.map(rowText).joined(separator: ", ")
        default: return value.text
        }
    }
}
