import Foundation
import LocatedYAML
import SiteModel

/// Checks `content/site.yaml` and builds the site's configuration from it.
public func decodeSiteConfig(_ root: YAMLNode?, file: String) -> (SiteConfig?, [Diagnostic]) {
    var problems = Problems(file: file)
    guard let root else {
        return (nil, [.error(at: SourceLocation(file: file), "site configuration is empty; it needs at least title, base_url and kinds")])
    }
    guard let settings = MappingReader(root, what: "the site configuration", problems: &problems) else {
        return (nil, problems.list)
    }
    settings.reportUnknownKeys(
        known: ["title", "description", "base_url", "language", "currency", "page_size", "allow_raw_html", "kinds", "images", "markdown", "sync_builds", "nav", "map", "contact", "time_zone"],
        what: "the site configuration", problems: &problems)

    let title = settings.requiredString("title", problems: &problems)
    let baseURL = settings.requiredString("base_url", problems: &problems)
    if let baseURL, let node = settings.value("base_url") {
        if let flaw = urlFlaw(baseURL) {
            problems.error(node, "'base_url' must be an absolute http or https URL such as https://example.org/, not '\(baseURL)'\(flaw)")
        } else if let flaw = baseURLFlaw(baseURL) {
            problems.error(node, "'base_url' \(flaw): every link, feed and sitemap entry starts with it; write one such as https://example.org/catalogue/, not '\(baseURL)'")
        }
    }
    let language = settings.string("language", problems: &problems) ?? "en"
    if let node = settings.value("language"), !isLanguageTag(language) {
        problems.error(node, "'language' must be a language tag such as en or en-IE, not '\(language)'")
    }
    let currency = settings.string("currency", problems: &problems) ?? "EUR"
    if let node = settings.value("currency"),
        !(currency.utf8.count == 3 && currency.utf8.allSatisfy { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") })
    {
        problems.error(node, "'currency' must be a three-letter ISO 4217 code such as EUR, not '\(currency)'")
    }
    let timeZone = decodeTimeZone(settings, problems: &problems)
    let pageSize = settings.int("page_size", in: 1...1000, problems: &problems) ?? 24
    let allowRawHTML = settings.bool("allow_raw_html", problems: &problems) ?? false
    let syncBuilds = settings.int("sync_builds", in: 1...1000, problems: &problems) ?? SiteConfig.defaultSyncBuilds
    let images = decodeImageSettings(settings.value("images"), problems: &problems)
    let markdown = decodeMarkdownLimits(settings.value("markdown"), problems: &problems)
    let map = decodeMapSettings(settings.value("map"), problems: &problems)

    var kinds: [String] = []
    if let list = settings.stringList("kinds", problems: &problems) {
        for (name, node) in list {
            if !isIdentifier(name) {
                problems.error(node, "kind name '\(name)' must be lowercase letters, digits and underscores, starting with a letter")
            } else if let tooLong = Slug.tooLong("the kind name", slug: name) {
                problems.error(node, tooLong)
            } else if kinds.contains(name) {
                problems.error(node, "kind '\(name)' is listed twice")
            } else if SiteConfig.reservedKindNames.contains(name) {
                problems.error(node, "kind name '\(name)' is reserved for the site's own output files and folders")
            } else {
                kinds.append(name)
            }
        }
        if list.isEmpty, let node = settings.value("kinds") { problems.error(node, "'kinds' must name at least one kind") }
    } else if settings.value("kinds") == nil {
        problems.error(root, "missing required setting 'kinds'")
    }

    let nav = decodeNavigation(settings, kinds: kinds, problems: &problems)
    let contact = decodeContactSettings(settings.value("contact"), siteKinds: kinds, problems: &problems)

    guard !problems.hasErrors, let title, let baseURL else { return (nil, problems.list) }
    let config = SiteConfig(
        title: title, description: settings.string("description", problems: &problems) ?? "", baseURL: publishedURL(baseURL),
        language: language, currency: currency, pageSize: pageSize, allowRawHTML: allowRawHTML, kinds: kinds, images: images,
        markdown: markdown, syncBuilds: syncBuilds, nav: nav, map: map, contact: contact,
        timeZone: timeZone)
    return (config, problems.list)
}

/// `nav: [cleaners, rentals]`: kinds of `kinds`, each once; nil when the site leaves it out.
private func decodeNavigation(_ settings: MappingReader, kinds: [String], problems: inout Problems) -> [String]? {
    guard let list = settings.stringList("nav", problems: &problems) else { return nil }
    var nav: [String] = []
    for (name, node) in list {
        if !kinds.contains(name) {
            problems.error(node, "'nav' names '\(name)', which is not one of the site's kinds\(suggestion(for: name, among: kinds))")
        } else if nav.contains(name) {
            problems.error(node, "kind '\(name)' is in 'nav' twice")
        } else {
            nav.append(name)
        }
    }
    return nav
}

/// What keeps an absolute URL from starting every link: pages append paths to it, so a query or fragment
/// would swallow them, `//` after the host would make links lead to another host, and a name and password
/// would be published in every feed.
private func baseURLFlaw(_ url: String) -> String? {
    if url.contains("?") || url.contains("#") { return "has a query or fragment" }
    guard let schemeEnd = url.range(of: "://") else { return nil }  // urlFlaw found a host, so it has one
    let afterScheme = url[schemeEnd.upperBound...]
    let host = afterScheme.prefix { $0 != "/" }
    if host.contains("@") { return "holds a user name or password" }
    var folders = afterScheme.dropFirst(host.count).split(separator: "/", omittingEmptySubsequences: false).dropFirst()
    if folders.last == "" { folders = folders.dropLast() }
    // `%2e%2e` is `..` to browsers and hosts as well.
    let names = folders.map { $0.removingPercentEncoding ?? String($0) }
    if names.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) { return "has an empty, '.' or '..' folder in its path" }
    return nil
}

/// `time_zone: Europe/Dublin`: an IANA time zone name; UTC when the site leaves it out.
private func decodeTimeZone(_ settings: MappingReader, problems: inout Problems) -> TimeZone {
    guard let name = settings.string("time_zone", problems: &problems), let node = settings.value("time_zone") else { return .gmt }
    guard isZoneName(name), let zone = TimeZone(identifier: name) else {
        problems.error(node, "'time_zone' must be an IANA time zone name such as Europe/Dublin or America/New_York, not '\(name)'")
        return .gmt
    }
    return zone
}

/// `Area/Place` names only: letters, digits, `_`, `-` and `+` between slashes, so no name reaches a file
/// outside the time zone database.
private func isZoneName(_ text: String) -> Bool {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    return parts.allSatisfy { part in
        !part.isEmpty && part.first != "-" && part.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-+".contains($0)) }
    }
}

/// A BCP 47 tag as pages' `lang` takes it: a language of two or three letters (`en`, `pl`, `ga`; a name such as
/// `english` is none), then subtags of up to eight letters or digits (`en-IE`, `zh-Hant-TW`).
private func isLanguageTag(_ text: String) -> Bool {
    let parts = text.split(separator: "-", omittingEmptySubsequences: false)
    guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
    return parts.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
}
