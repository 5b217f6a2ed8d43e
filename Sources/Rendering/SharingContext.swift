import OrderedCollections
import SiteModel

/// What the head's sharing tags need beyond `page`: the Open Graph type and picture of a listing page, and
/// the feeds pages link with `<link rel="alternate">`.
extension PageContexts {
    /// `sharing` of a listing page: `type` ("article") and `image`, its first published photo (`url`,
    /// `width`, `height`, `alt`), or null when it has none. SVGs are skipped: link previews do not show them.
    func sharing(_ listing: Listing, schema: KindSchema) -> Value {
        let photo = schema.fields.filter { !$0.isPrivate }.lazy.compactMap { field in
            listing.fields[field.name].flatMap { self.firstPhoto(in: $0, type: field.type) }
        }.first
        var fields: OrderedDictionary<String, Value> = ["type": .string("article")]
        if let photo {
            fields["image"] = .object([
                "url": photo["url"] ?? .null, "width": photo["width"] ?? .null, "height": photo["height"] ?? .null,
                "alt": .string(title(of: listing, schema: schema)),
            ])
        }
        return .object(fields)
    }

    private func firstPhoto(in value: Value, type: FieldType) -> Value? {
        switch (type, value) {
        case (.image, .object(let image)): return image["format"]?.text == "svg" ? nil : value
        case (.list(let item), .list(let items)): return items.lazy.compactMap { self.firstPhoto(in: $0, type: item.type) }.first
        default: return nil
        }
    }

    /// A listing page's description, for search results and link previews: the start of its first public
    /// Markdown field as plain text, cut at a word within `summaryLength` characters; nil when it has none.
    func summary(_ listing: Listing, schema: KindSchema) -> String? {
        let markdown = schema.fields.first { field in
            if case .markdown = field.type { return !field.isPrivate && listing.fields[field.name + "_html"] != nil }
            return false
        }
        guard let markdown, let html = listing.fields[markdown.name + "_html"]?.text else { return nil }
        let text = plainText(ofHTML: html)
        return text.isEmpty ? nil : textStart(text, length: Self.summaryLength)
    }

    /// What search engines show of a description, about.
    static let summaryLength = 160

    /// A kind's feeds as `<link rel="alternate">` takes them: `title`, `url` (absolute), `type` (media type).
    static func feedLinks(_ schema: KindSchema, site: SiteConfig) -> [Value] {
        schema.feeds.map { format in
            let (name, mediaType) = format == .atom ? ("Atom", "application/atom+xml") : ("JSON Feed", "application/feed+json")
            return .object([
                "title": .string("\(site.title): \(schema.title) (\(name))"),
                "url": .string(site.url("feeds/\(schema.name).\(format.rawValue)")),
                "type": .string(mediaType),
            ])
        }
    }
}
