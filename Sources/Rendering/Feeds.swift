import CatalogueIndex
import OrderedCollections
import SiteModel

/// JSON Feed 1.1 and Atom 1.0 of a kind's newest listings, for the kinds that ask for them.
extension SiteRenderer {
    func feeds(_ collection: KindCollection) -> [OutputFile] {
        let schema = collection.schema
        guard !schema.feeds.isEmpty, let dateField = schema.dateField else { return [] }
        let newest = collection.listings.compactMap { listing -> (CalendarDate, Listing)? in
            if case .date(let date)? = listing.fields[dateField] { return (date, listing) }
            return nil
        }.sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1.slug < $1.1.slug }.prefix(SiteRenderer.feedLength)
        return schema.feeds.map { format in
            switch format {
            case .json: return jsonFeed(collection, Array(newest))
            case .atom: return atomFeed(collection, Array(newest))
            }
        }
    }

    /// Each listed listing's tags, by slug: the names of the values it has of each of the kind's facets, in
    /// the facets' and the values' order. A facet over listings is read from the listing's own value, which
    /// is what puts it in the facet's values; one over a collection's entries from the values' members,
    /// each entry for the collection that holds it.
    private func feedTags(_ listed: [(CalendarDate, Listing)], in collection: KindCollection) -> [String: [String]] {
        let slugs = Set(listed.map(\.1.slug))
        var tags: [String: [String]] = [:]
        for name in collection.schema.facets {
            guard let facet = collection.facets.first(where: { $0.field.name == name }) else { continue }
            guard !collection.schema.facetIsOverEntries(name) else {
                for value in facet.values {
                    let holders = Set(value.listings.lazy.map(Self.collectionSlug).filter(slugs.contains))
                    for slug in holders { tags[slug, default: []].append(value.text) }
                }
                continue
            }
            for (_, listing) in listed {
                let texts = Set(facetTexts(listing.fields[name]))
                tags[listing.slug, default: []] += facet.values.filter { texts.contains($0.text) }.map(\.text)
            }
        }
        return tags
    }

    /// The feed entry's HTML: the kind's `feed_item` template when it has one, else its rendered Markdown.
    private func content(_ listing: Listing, in collection: KindCollection) -> String {
        let template = "\(collection.schema.name)/feed_item"
        if templates.names.contains(template) { return templates.render(feedItemContext(listing), with: template) }
        return collection.schema.fields.compactMap { field -> String? in
            if case .markdown = field.type { return listing.fields[field.name + "_html"]?.text }
            return nil
        }.joined()
    }

    /// What a `feed_item` template sees (`TemplateContextShape.Role.feedItem`).
    func feedItemContext(_ listing: Listing) -> Value {
        .object(["site": contexts.siteValue(.outside).value, "listing": .object(listing.fields)])
    }

    private func jsonFeed(_ collection: KindCollection, _ entries: [(CalendarDate, Listing)]) -> OutputFile {
        let schema = collection.schema
        let path = "feeds/\(schema.name).json"
        let tags = feedTags(entries, in: collection)
        let document: Value = .object([
            "version": .string("https://jsonfeed.org/version/1.1"),
            "title": .string("\(site.title): \(schema.title)"),
            "home_page_url": .string(site.url(collection.outputPath)),
            "feed_url": .string(site.url(path)),
            "description": .string(schema.description),
            "language": .string(site.language),
            "items": .list(entries.map { date, listing in
                var item: OrderedDictionary<String, Value> = [
                    "id": listing.fields["url"] ?? .null,
                    "url": listing.fields["url"] ?? .null,
                    "title": .string(contexts.title(of: listing, schema: schema)),
                    "content_html": .string(content(listing, in: collection)),
                ]
                if let published = published(date) { item["date_published"] = .string(timestamp(published, in: site.timeZone)) }
                item["date_modified"] = .string(timestamp(versions.updated(listing), in: site.timeZone))
                if let tags = tags[listing.slug], !tags.isEmpty { item["tags"] = .list(tags.map(Value.string)) }
                // JSON Feed's `image` is one URL; the extension lists every image with its variants, as the API does.
                let images = images(of: listing, schema: schema)
                if let main = images.first {
                    item["image"] = main["url"] ?? .null
                    item["_noticeboard"] = .object(["images": .list(images)])
                }
                return .object(item)
            }),
        ])
        return OutputFile(path: path, contents: .bytes(JSONWriter.bytes(document)))
    }

    /// The listing's images in field order, lists and nested objects included, as its JSON holds them.
    private func images(of listing: Listing, schema: KindSchema) -> [Value] {
        func collect(_ value: Value, _ type: FieldType) -> [Value] {
            switch (type, value) {
            case (.image, .object): return [value]
            case (.list(let item), .list(let values)): return values.flatMap { collect($0, item.type) }
            case (.object(let fields), .object(let values)): return fields.flatMap { field in values[field.name].map { collect($0, field.type) } ?? [] }
            default: return []
            }
        }
        return schema.fields.flatMap { field in listing.fields[field.name].map { collect($0, field.type) } ?? [] }
    }

    /// A listing's date as its publication date; none when it lies after the build date (an event's day,
    /// say), which would date the entry in its readers' future. When it last changed is its `updated`.
    private func published(_ date: CalendarDate) -> CalendarDate? {
        date <= catalogue.buildDate ? date : nil
    }

    private func atomFeed(_ collection: KindCollection, _ entries: [(CalendarDate, Listing)]) -> OutputFile {
        let schema = collection.schema
        let path = "feeds/\(schema.name).atom"
        let updated = timestamp(entries.map { versions.updated($0.1) }.max() ?? catalogue.buildDate, in: site.timeZone)
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="\(xmlEscaped(site.language))">
            <title>\(xmlEscaped("\(site.title): \(schema.title)"))</title>
            <subtitle>\(xmlEscaped(schema.description))</subtitle>
            <id>\(xmlEscaped(site.url(path)))</id>
            <link rel="self" type="application/atom+xml" href="\(xmlEscaped(site.url(path)))"/>
            <link rel="alternate" type="text/html" href="\(xmlEscaped(site.url(collection.outputPath)))"/>
            <updated>\(updated)</updated>
            <author><name>\(xmlEscaped(site.title))</name></author>

            """
        for (date, listing) in entries {
            let url = listing.fields["url"]?.text ?? ""
            xml += """
                <entry>
                <title>\(xmlEscaped(contexts.title(of: listing, schema: schema)))</title>
                <id>\(xmlEscaped(url))</id>
                <link rel="alternate" type="text/html" href="\(xmlEscaped(url))"/>
                \(published(date).map { "<published>\(timestamp($0, in: site.timeZone))</published>\n" } ?? "")<updated>\(timestamp(versions.updated(listing), in: site.timeZone))</updated>
                <content type="html">\(xmlEscaped(content(listing, in: collection)))</content>
                </entry>

                """
        }
        xml += "</feed>\n"
        return OutputFile(path: path, text: xml)
    }
}
