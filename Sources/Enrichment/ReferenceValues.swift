import OrderedCollections
import SiteModel

/// References as listings show them: the listing referred to, by kind, slug and title, with its page's path and
/// URL when its kind has pages. The value for each listing that something refers to is made once and shared by
/// every listing that refers to it (at L, 30,000 references point to 12,000 listings).
public struct ReferenceValues: Sendable {
    private let site: SiteConfig
    /// The title of every listing, by kind then slug.
    private let titles: [String: [String: String]]
    private let kindsWithPages: Set<String>
    /// By kind then slug, the values of the listings referred to when the table was made.
    private var made: [String: [String: Value]] = [:]

    /// The table for `referenced`, the listings that the site's listings refer to (another is made when asked for).
    public init(
        site: SiteConfig, titles: [String: [String: String]], kindsWithPages: Set<String>, referenced: some Sequence<Reference>
    ) {
        self.site = site
        self.titles = titles
        self.kindsWithPages = kindsWithPages
        for reference in referenced where made[reference.kind]?[reference.slug] == nil {
            made[reference.kind, default: [:]][reference.slug] = make(kind: reference.kind, slug: reference.slug)
        }
    }

    /// None, for a build that has enriched every listing and keeps nothing for the next one.
    public static func none(site: SiteConfig) -> ReferenceValues {
        ReferenceValues(site: site, titles: [:], kindsWithPages: [], referenced: [])
    }

    public var isEmpty: Bool { titles.isEmpty && made.isEmpty }

    /// The value of a reference to the listing `slug` of `kind`.
    public func value(kind: String, slug: String) -> Value {
        made[kind]?[slug] ?? make(kind: kind, slug: slug)
    }

    /// The URL and path of the page of a listing referred to, as its reference value holds them: the listing's
    /// own fields take these strings rather than copies of them (at 430,000 listings, 18 MB held by the copies).
    public func page(kind: String, slug: String) -> (url: String, path: String)? {
        guard case .object(let fields)? = made[kind]?[slug], case .string(let url)? = fields["url"], case .string(let path)? = fields["path"]
        else { return nil }
        return (url, path)
    }

    private func make(kind: String, slug: String) -> Value {
        var reference: OrderedDictionary<String, Value> = [:]
        reference.reserveCapacity(5)
        reference["kind"] = .string(kind)
        reference["slug"] = .string(slug)
        reference["title"] = .string(titles[kind]?[slug] ?? slug)
        if kindsWithPages.contains(kind) {
            let page = "\(kind)/\(slug)/"
            reference["path"] = .string(site.path(page))
            reference["url"] = .string(site.url(page))
        }
        return .object(reference)
    }
}
