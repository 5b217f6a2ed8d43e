import OrderedCollections
import SiteModel

/// What each template sees, described once (the README's table of template contexts says the same), and
/// `TemplateNameCheck` holds every name a template uses to it. The contexts themselves are made in
/// `HTMLPages.swift`, `PageContexts.swift` and `Feeds.swift`; a test renders the example site and fails on any
/// name they hold that is not described here. A new name in a context is one line in the object it joins.
public struct TemplateContextShape: Sendable {
    /// Every kind of the site: references and derived lists reach into other kinds.
    let schemas: [KindSchema]

    public init(schemas: [KindSchema]) {
        self.schemas = schemas
    }

    /// The pages a template renders, and which kinds' (for list, facet and listing pages and feed items).
    public enum Role: Sendable, Hashable {
        case layout, home, list, facet, listing, freePage, search, notFound, feedItem, map, dailyDay, dailyIndex
    }

    /// The context of `role` for `kinds` (a template shared by several kinds sees any one of theirs).
    public func shape(of role: Role, kinds: [KindSchema]) -> ContextShape {
        switch role {
        case .layout:
            let pages: [Role] = [.home, .list, .facet, .listing, .freePage, .search, .notFound, .map, .dailyDay, .dailyIndex]
            return ContextShape.anyOf(pages.map { shape(of: $0, kinds: kinds) }).adding(["content": .value])
        case .home: return home
        case .freePage: return page(["body_html": .value])
        case .search: return page(["index_url": .value, "browse": .list(.object(["title": .value, "path": .value, "facets": .list(facet)]))])
        case .notFound: return page([:])
        case .list, .facet, .listing, .feedItem, .map, .dailyDay, .dailyIndex: return .either(kinds.map { perKind(role, $0) })
        }
    }

    private func perKind(_ role: Role, _ schema: KindSchema) -> ContextShape {
        switch role {
        case .list:
            return page([
                "kind": kind, "facet": .object(["label": .value, "text": .value, "path": .value]), "total": .value,
                "pagination": pagination, "listings": .list(card(schema)), "breadcrumbs": breadcrumbs,
                "sorts": .list(.object(["label": .value, "path": .value, "current": .value])),
                "combined": .list(.object(["label": .value, "values": .list(.object(["text": .value, "count": .value, "path": .value]))])),
            ], listPage: true)
        case .facet:
            return page(["kind": kind, "facet": .object(["label": .value, "values": .list(facetValue)]), "breadcrumbs": breadcrumbs])
        case .listing:
            return page([
                "kind": kind, "listing": listing(schema), "display": display(schema), "fields": .list(fieldRow), "dates": dates(schema),
                "entries": .list(entry(schema)), "breadcrumbs": breadcrumbs, "facet_links": facetLinks(schema), "cards": gatheredCards(schema),
                "contact": .object(["endpoint": .value, "kind": .value, "slug": .value, "title": .value, "url": .value]),
                "json_ld": .value, "sharing": .object(["type": .value, "image": .object(["url": .value, "width": .value, "height": .value, "alt": .value])]),
            ])
        case .feedItem:
            return .object(["site": site, "listing": listing(schema)])
        case .map:
            let place = card(schema).adding(["slug": .value, "lat": .value, "lon": .value, "summary": .value])
            return page([
                "kind": kind, "geojson": .value, "tiles": .object(["url": .value, "attribution": .value]), "places": .list(place), "unplaced": .value,
                "unplaced_named": .list(.object(["title": .value, "path": .value])), "unplaced_unnamed": .value,
            ])
        case .dailyDay:
            return page(["kind": kind, "daily": daily(schema), "earlier": .value, "later": .value])
        case .dailyIndex:
            return page(["kind": kind, "days": .list(daily(schema).adding(["path": .value]))])
        default:
            return shape(of: role, kinds: [schema])
        }
    }

    /// `site` and `page`, which every page has, and the role's own names.
    private func page(_ names: OrderedDictionary<String, ContextShape>, listPage: Bool = false) -> ContextShape {
        var page: OrderedDictionary<String, ContextShape> = ["title": .value, "description": .value, "path": .value, "url": .value]
        if listPage {
            page["prev"] = .value
            page["next"] = .value
        }
        return ContextShape.object(["site": site, "page": .object(page)]).adding(names)
    }

    private var home: ContextShape {
        let daily = schemas.filter { $0.daily != nil }
        return page([
            "is_home": .value,
            "kinds": .list(kind),
            "newest": .list(.either(schemas.filter { $0.dateField != nil }.map(card))),
            "daily": .list(.either(daily.map(self.daily))),
            "entries": .object(OrderedDictionary(uniqueKeysWithValues: schemas.filter { $0.entriesField != nil && $0.hasPages }.map { schema in
                (schema.name, ContextShape.list(card(schema, listing: entryListing(schema))))
            })),
        ])
    }

    /// A day's pick of a kind with `daily`, on the home page and the archive's pages.
    private func daily(_ schema: KindSchema) -> ContextShape {
        .object([
            "date": .value, "date_text": .value, "kind_title": .value, "kind_singular": .value, "entry": dailyEntry(schema),
            "entry_title": .value, "entry_title_field": .value, "tags": .list(facetTag),
            "links": facetPaths(schema), "entry_path": .value, "listing": card(schema), "api_path": .value, "archive_path": .value,
        ])
    }

    /// A collection's entry on its listing page: its fields, `anchor`, its facet `tags` and `links`.
    private func entry(_ schema: KindSchema) -> ContextShape {
        fields(schema.entryFields).adding(["anchor": .value, "tags": .list(facetTag), "links": facetPaths(schema)])
    }

    private let facetTag: ContextShape = .object(["label": .value, "text": .value, "path": .value])

    /// The page of each facet field's value, by field name (`links.category`).
    private func facetPaths(_ schema: KindSchema) -> ContextShape {
        .object(OrderedDictionary(uniqueKeysWithValues: schema.facets.map { ($0, ContextShape.value) }))
    }

    /// `facet_links.county`: each facet's values on the listing with their pages.
    private func facetLinks(_ schema: KindSchema) -> ContextShape {
        .object(OrderedDictionary(uniqueKeysWithValues: schema.facets.map { ($0, ContextShape.list(.object(["text": .value, "path": .value]))) }))
    }

    /// `cards.items`: the cards of the listings each derived `list` field gathers.
    private func gatheredCards(_ schema: KindSchema) -> ContextShape {
        .object(OrderedDictionary(uniqueKeysWithValues: schema.derived.compactMap { derived -> (String, ContextShape)? in
            guard case .list = derived.operation, let from = schemas.first(where: { $0.name == derived.from }) else { return nil }
            return (derived.name, .list(card(from)))
        }))
    }

    private let breadcrumbs: ContextShape = .list(.object(["title": .value, "path": .value]))

    /// The date fields as pages write them (`dates.joined`).
    private func dates(_ schema: KindSchema) -> ContextShape {
        let names = schema.fields.filter { !$0.isPrivate && $0.type.name == "date" }.map(\.name)
        return .object(OrderedDictionary(uniqueKeysWithValues: names.map { ($0, ContextShape.value) }))
    }

    /// What a card shows (`Cards.swift`): its photo, figures, place, tags and rating.
    private var cardShape: ContextShape {
        let place: ContextShape = .object(["text": .value, "linked": .value, "path": .value])
        return .object([
            "photo": Self.image, "figures": .list(.object(["name": .value, "label": .value, "text": .value])), "place": .list(place),
            "tags": .list(.object(["label": .value, "values": .list(place)])),
            "rating": .object(["label": .value, "text": .value, "value": .value, "counted": .value, "count": .value]),
        ])
    }

    private let site: ContextShape = .object([
        "title": .value, "description": .value, "language": .value, "base_url": .value, "base_path": .value, "build_date": .value,
        "nav": .list(.object(["title": .value, "path": .value, "current": .value])), "feeds": .list(Self.feedLink),
    ])

    private static let feedLink: ContextShape = .object(["title": .value, "url": .value, "type": .value])

    private let facetValue: ContextShape = .object(["text": .value, "path": .value, "count": .value])

    private var facet: ContextShape {
        .object(["name": .value, "label": .value, "path": .value, "values": .list(facetValue)])
    }

    private var kind: ContextShape {
        .object([
            "name": .value, "title": .value, "singular": .value, "description": .value, "path": .value, "count": .value,
            "facets": .list(facet), "map_path": .value, "feeds": .list(Self.feedLink),
        ])
    }

    private let pagination: ContextShape = {
        let link: OrderedDictionary<String, ContextShape> = ["number": .value, "path": .value, "current": .value]
        return .object([
            "number": .value, "count": .value, "is_paged": .value, "prev": .value, "next": .value,
            "pages": .list(.object(link)), "window": .list(.object(link.merging(["gap": .value]) { $1 })),
        ])
    }()

    /// `fields` on listing pages: every public field as a row, for generic templates.
    private let fieldRow: ContextShape = .object([
        "name": .value, "label": .value, "text": .value, "datetime": .value, "html": .value, "images": .list(Self.image), "items": .list(.value), "items_are_entries": .value, "link": .value,
        "links": .list(.object(["text": .value, "path": .value])),
        "reference": .object(["kind": .value, "slug": .value, "title": .value, "path": .value, "url": .value]),
    ])

    /// A listing as lists show it; in a collection kind with facets over its entries, an entry too.
    private func card(_ schema: KindSchema) -> ContextShape {
        guard schema.facets.contains(where: schema.facetIsOverEntries) else { return card(schema, listing: listing(schema)) }
        return .anyOf([card(schema, listing: listing(schema)), card(schema, listing: entryListing(schema))])
    }

    /// A card of the kind (`PageContexts.card`) whose `listing` has the shape given.
    private func card(_ schema: KindSchema, listing: ContextShape) -> ContextShape {
        .object([
            "title": .value, "path": .value, "kind_singular": .value, "first_screen": .value, "listing": listing,
            "display": display(schema), "card": cardShape, "dates": dates(schema),
        ])
    }

    /// The text of formatted fields, by name.
    private func display(_ schema: KindSchema) -> ContextShape {
        let formatted = schema.fields.filter { $0.format != nil && !$0.isPrivate }.map(\.name) + schema.derived.filter { $0.format != nil }.map(\.name)
        return .object(OrderedDictionary(uniqueKeysWithValues: formatted.map { ($0, ContextShape.value) }))
    }

    /// Today's pick: an entry of a collection kind, or a listing.
    private func dailyEntry(_ schema: KindSchema) -> ContextShape {
        schema.entriesField == nil ? listing(schema) : fields(schema.entryFields)
    }
}

/// Listings and their fields as enrichment and derived fields make them (`ListingEnricher`, `DerivedFields`).
extension TemplateContextShape {
    /// A listing: `slug`, `url` and `path` (kinds with pages), its public fields, its derived fields.
    func listing(_ schema: KindSchema, visiting: Set<String> = []) -> ContextShape {
        guard !visiting.contains(schema.name) else { return .open }
        guard case .object(var names) = fields(schema.fields) else { return .open }
        var builtIn: OrderedDictionary<String, ContextShape> = ["slug": .value]
        if schema.hasPages {
            builtIn["url"] = .value
            builtIn["path"] = .value
        }
        names = builtIn.merging(names) { $1 }
        for derived in schema.derived {
            names[derived.name] = self.derived(derived, of: schema, visiting: visiting.union([schema.name]))
        }
        return .object(names)
    }

    /// A collection's entry as a listing of its own: its fields, `slug`, `url`, `path` and its `collection`.
    func entryListing(_ schema: KindSchema) -> ContextShape {
        var link: OrderedDictionary<String, ContextShape> = ["slug": .value, "title": .value]
        if schema.hasPages {
            link["path"] = .value
            link["url"] = .value
        }
        return fields(schema.entryFields).adding(["slug": .value, "url": .value, "path": .value, "collection": .object(link)])
    }

    private func derived(_ derived: DerivedField, of schema: KindSchema, visiting: Set<String>) -> ContextShape {
        switch derived.operation {
        case .list:
            return schemas.first { $0.name == derived.from }.map { .list(listing($0, visiting: visiting)) } ?? .open
        case .sumBy:
            return .list(.object(["group": .value, "total": .value]))
        case .lookup(let field):
            guard case .reference(let target)? = schema.field(named: derived.via ?? "")?.type,
                let targetSchema = schemas.first(where: { $0.name == target })
            else { return .open }
            return listing(targetSchema, visiting: visiting).child(field).first ?? .open
        case .count, .average, .bayesianAverage, .sum, .minimum, .maximum, .daysSince, .ratio, .atLeast, .times:
            return .value
        }
    }

    /// Public fields, a markdown field followed by its `<name>_html`.
    func fields(_ fields: [FieldSchema]) -> ContextShape {
        var names: OrderedDictionary<String, ContextShape> = [:]
        for field in fields where !field.isPrivate {
            names[field.name] = shape(of: field.type)
            if case .markdown = field.type { names[field.name + "_html"] = .value }
        }
        return .object(names)
    }

    private func shape(of type: FieldType) -> ContextShape {
        switch type {
        case .image: return Self.image
        case .list(let item): return .list(shape(of: item.type))
        case .object(let subfields): return fields(subfields)
        case .reference(let kind):
            var names: OrderedDictionary<String, ContextShape> = ["kind": .value, "slug": .value, "title": .value]
            if schemas.first(where: { $0.name == kind })?.hasPages ?? true {
                names["path"] = .value
                names["url"] = .value
            }
            return .object(names)
        case .string, .markdown, .int, .decimal, .bool, .date, .url, .email, .phone, .enumeration:
            return .value
        }
    }

    /// A published image (see Images in the README).
    static let image: ContextShape = .object([
        "path": .value, "src": .value, "url": .value, "width": .value, "height": .value, "format": .value, "srcset": .value,
        "webp_srcset": .value, "number": .value, "count": .value, "variants": .list(.object(["url": .value, "width": .value, "height": .value, "format": .value])),
    ])
}
