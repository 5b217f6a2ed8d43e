import Markdown
import OrderedCollections
import SiteModel

/// Adds what templates and apps need beyond the validated fields: the listing's slug and URLs,
/// Markdown rendered to HTML beside its source, image and reference URLs, and display text.
public struct ListingEnricher: Sendable {
    public let site: SiteConfig
    public let schema: KindSchema
    public let markdown: MarkdownRenderer
    public let formatter: DisplayFormatter
    /// What a reference to each listing shows, made with the same `site`: a listing referred to takes its own
    /// URL and path from it.
    public let references: ReferenceValues
    /// What the image stage published, by path below `content/media/`, as templates and apps see it
    /// (`imageValues(_:site:)`), shared by the listings that show each image.
    public let images: [String: Value]
    /// Kinds whose listings have pages: only those get `url` and `path`, and only references to them do.
    public let kindsWithPages: Set<String>
    /// Room a listing's fields may need beyond its own while they are gathered: the slug and URLs, and the
    /// HTML beside each Markdown field.
    private let addedFieldCount: Int
    /// The orders the kind's fields (and its objects' fields) come in, shared by the listings.
    private let layouts = FieldLayouts()

    public init(
        site: SiteConfig, schema: KindSchema, markdown: MarkdownRenderer, formatter: DisplayFormatter, references: ReferenceValues,
        images: [String: Value], kindsWithPages: Set<String>
    ) {
        self.site = site
        self.schema = schema
        self.markdown = markdown
        self.formatter = formatter
        self.references = references
        self.images = images
        self.kindsWithPages = kindsWithPages
        addedFieldCount = 3 + schema.fields.count { if case .markdown = $0.type { true } else { false } }
    }

    public func enrich(_ listing: Listing) -> Listing {
        var fields = FieldList(capacity: listing.fields.count + addedFieldCount)
        fields.append("slug", .string(listing.slug))
        if kindsWithPages.contains(schema.name) {
            let page = references.page(kind: schema.name, slug: listing.slug) ?? (site.url(listing.outputPath), site.path(listing.outputPath))
            fields.append("url", .string(page.url))
            fields.append("path", .string(page.path))
        }
        var displayed: [String] = [], texts: [String] = []
        for field in schema.fields {
            guard let value = listing.fields[field.name] else { continue }
            add(field, value, to: &fields)
            if let format = field.format, let text = formatter.text(for: value, format: format, maximum: field.maximum) {
                displayed.append(field.name)
                texts.append(text)
            }
        }
        var enriched = listing
        enriched.fields = layouts.fields(fields)
        enriched.display = layouts.dictionary(names: displayed, values: texts)
        return enriched
    }

    private func add(_ field: FieldSchema, _ value: Value, to fields: inout FieldList) {
        fields.append(field.name, transform(value, as: field.type))
        if case .markdown = field.type, case .string(let source) = value {
            fields.append(field.name + "_html", .html(markdown.html(source)))
        }
    }

    private func transform(_ value: Value, as type: FieldType) -> Value {
        switch (type, value) {
        case (.image, .string(let path)):
            // The build stops before enrichment when an image a listing names could not be published.
            return images[path] ?? .null
        case (.reference(let kind), .string(let slug)):
            return references.value(kind: kind, slug: slug)
        case (.list(let item), .list(let items)):
            // A list of plain values stays as validation made it, its storage shared rather than copied.
            guard Self.isTransformed(item.type) else { return value }
            return .list(items.map { transform($0, as: item.type) })
        case (.object(let subfields), .object(let values)):
            // Its fields, and the HTML beside each Markdown one, at their exact size (added one by one, they grew to twice).
            var result = FieldList(capacity: values.count + subfields.count { field in
                if case .markdown = field.type { values[field.name] != nil } else { false }
            })
            for field in subfields {
                if let value = values[field.name] { add(field, value, to: &result) }
            }
            return .object(layouts.fields(result))
        default:
            return value
        }
    }

    /// Whether `transform` gives a value of this type another form: an image's or reference's, or an object's
    /// (its fields in shared order, with HTML beside the Markdown).
    private static func isTransformed(_ type: FieldType) -> Bool {
        switch type {
        case .image, .reference, .object: true
        case .list(let item): isTransformed(item.type)
        default: false
        }
    }

    /// Each published image as templates and apps see it, made once for a site: made per listing that shows it,
    /// these values were 34 MB of the L build's peak memory, for 48 images.
    public static func imageValues(_ images: [String: PublishedImage], site: SiteConfig) -> [String: Value] {
        images.mapValues { imageValue($0, site: site) }
    }

    /// An image as templates and apps see it: the widest variant in the source's format as `src` with its
    /// `width` and `height`, `srcset` strings for `<img>` and a WebP `<source>`, and every variant.
    private static func imageValue(_ image: PublishedImage, site: SiteConfig) -> Value {
        let fallback = image.fallback
        var fields: OrderedDictionary<String, Value> = [
            "path": .string(image.path),
            "src": .string(site.path(fallback.outputPath)),
            "url": .string(site.url(fallback.outputPath)),
            "width": .int(Int64(fallback.width)),
            "height": .int(Int64(fallback.height)),
            "format": .string(fallback.format.rawValue),
        ]
        if image.format != .svg { fields["srcset"] = .string(srcset(image.variants(in: image.format), site: site)) }
        if image.format != .svg && image.format != .webp { fields["webp_srcset"] = .string(srcset(image.variants(in: .webp), site: site)) }
        fields["variants"] = .list(image.variants.map { variant in
            .object([
                "url": .string(site.url(variant.outputPath)),
                "width": .int(Int64(variant.width)),
                "height": .int(Int64(variant.height)),
                "format": .string(variant.format.rawValue),
            ])
        })
        return .object(fields)
    }

    /// `/media/kayak-320w.1f2e3d4c.jpg 320w, /media/kayak-640w.1f2e3d4c.jpg 640w`
    private static func srcset(_ variants: [ImageVariant], site: SiteConfig) -> String {
        variants.map { "\(site.path($0.outputPath)) \($0.width)w" }.joined(separator: ", ")
    }
}
