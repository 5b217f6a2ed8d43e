import Foundation

/// `content/site.yaml`, validated.
public struct SiteConfig: Sendable {
    public var title: String
    public var description: String
    /// Absolute, always ending in `/`, e.g. `https://example.org/catalogue/`.
    public var baseURL: String {
        didSet { basePath = Self.path(of: baseURL) }
    }
    /// The path part of the base URL, e.g. `/catalogue/`; every root-relative link starts with it. Kept, not
    /// worked out per link: `path(_:)` runs for every link on every page.
    public private(set) var basePath: String
    public var language: String
    /// ISO 4217 code used to show currency fields.
    public var currency: String
    public var pageSize: Int
    /// Lets raw HTML in Markdown fields through to the output. Off unless the site opts in.
    public var allowRawHTML: Bool
    /// Kind names in navigation order.
    public var kinds: [String]
    /// Variant widths, quality and size limit for the images listings name.
    public var images: ImageSettings
    /// What one Markdown field or page may render to.
    public var markdown: MarkdownLimits
    /// How many builds' change lists `api/sync/` keeps for apps that sync (`sync_builds`).
    public var syncBuilds: Int
    /// The kinds the navigation shows, in its order (`nav:`); nil shows every kind with pages.
    public var nav: [String]?
    /// Background tiles of map pages; without them a map page is a list of places.
    public var map: MapSettings?
    /// The contact-request form some kinds' listing pages show (`contact`); nil when the site has none.
    public var contact: ContactSettings?
    /// Where the site is (`time_zone`, UTC unless set): a build's date, without `--now`, is today there.
    public var timeZone: TimeZone

    public static let defaultSyncBuilds = 30

    /// Names a kind may not take: the site's own folders and files where a kind's go (`<kind>/`,
    /// `api/<kind>.json`, `api/<kind>/`, `api/schema/<kind>.json`, `feeds/<kind>.json`). A kind called
    /// `manifest` once wrote its schema over the manifest's.
    public static let reservedKindNames: Set<String> = [
        "api", "assets", "media", "feeds", "page", "pages", "search", "index", "schema", "sync", "manifest", "facet", "geojson", "jsonfeed",
    ]

    public init(
        title: String, description: String, baseURL: String, language: String, currency: String, pageSize: Int,
        allowRawHTML: Bool, kinds: [String], images: ImageSettings = .standard, markdown: MarkdownLimits = .standard,
        syncBuilds: Int = SiteConfig.defaultSyncBuilds, nav: [String]? = nil, map: MapSettings? = nil,
        contact: ContactSettings? = nil, timeZone: TimeZone = .gmt
    ) {
        self.title = title
        self.description = description
        self.baseURL = baseURL.hasSuffix("/") ? baseURL : baseURL + "/"
        self.basePath = Self.path(of: self.baseURL)
        self.language = language
        self.currency = currency
        self.pageSize = pageSize
        self.allowRawHTML = allowRawHTML
        self.kinds = kinds
        self.images = images
        self.markdown = markdown
        self.syncBuilds = syncBuilds
        self.nav = nav
        self.map = map
        self.contact = contact
        self.timeZone = timeZone
    }

    private static func path(of baseURL: String) -> String {
        guard let schemeEnd = baseURL.range(of: "://") else { return "/" }
        let afterScheme = baseURL[schemeEnd.upperBound...]
        guard let slash = afterScheme.firstIndex(of: "/") else { return "/" }
        return String(afterScheme[slash...])
    }

    /// Root-relative link to an output path such as `cleaners/ana/`.
    public func path(_ relative: String) -> String { basePath + relative }

    /// Absolute URL of an output path, for feeds and apps.
    public func url(_ relative: String) -> String { baseURL + relative }
}
