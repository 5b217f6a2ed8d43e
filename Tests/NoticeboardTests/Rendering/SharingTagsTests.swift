import Foundation
import Testing

/// Open Graph and Twitter card tags on every page, with a listing's first photo as an absolute URL, and
/// `<link rel="alternate">` to the feeds: a kind's own on its pages, every kind's elsewhere.
@Suite struct SharingTagsTests {
    @Test func listingPagesShareTheirTitleURLAndFirstPhoto() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        let kayak = try #require(files["rentals/kayak/index.html"]).text
        let photo = try #require((try TestSupport.json(files, "api/rentals/kayak.json")["photos"] as? [[String: Any]])?.first?["url"] as? String)
        #expect(photo.hasPrefix("https://example.org/catalogue/media/rentals/kayak-") && photo.hasSuffix(".jpg"))
        #expect(Self.meta(kayak, "og:image") == [photo])
        #expect(Self.meta(kayak, "og:url") == ["https://example.org/catalogue/rentals/kayak/"])
        #expect(Self.meta(kayak, "og:title") == ["Sit-on-top sea kayak"])
        #expect(Self.meta(kayak, "og:type") == ["article"])
        // The description is the start of the listing's text, cut at a word.
        let description = try #require(Self.meta(kayak, "og:description").first)
        #expect(description.hasPrefix("A stable sit-on-top kayak for calm bays and lakes: Lough Corrib, or Galway Bay on a still day. Included:"))
        #expect(description.hasSuffix("…") && description.count <= 161 && !description.contains("<"))
        #expect(kayak.contains(#"<meta name="description" content="\#(description)">"#))
        #expect(Self.meta(kayak, "twitter:card") == ["summary_large_image"])
        // Zofia's portrait is an SVG, which link previews do not show: no picture rather than a broken one.
        let zofia = try #require(files["cleaners/zofia-wroblewska/index.html"]).text
        #expect(Self.meta(zofia, "og:image").isEmpty && Self.meta(zofia, "twitter:card") == ["summary"])

        for (path, data) in files where path.hasSuffix(".html") {
            let page = data.text
            for property in ["og:title", "og:description", "og:url", "og:type", "og:site_name", "twitter:card"] {
                // The 404 page, served at every missing address, names no URL of its own.
                let expected = property == "og:url" && path == "404.html" ? 0 : 1
                #expect(Self.meta(page, property).count == expected, "\(property) in \(path)")
            }
            #expect(Self.meta(page, "og:image").allSatisfy { $0.hasPrefix("https://example.org/catalogue/media/") }, "\(path)")
        }
    }

    @Test func pagesLinkTheirFeeds() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        let rentalsAtom = #"<link rel="alternate" type="application/atom+xml" href="https://example.org/catalogue/feeds/rentals.atom""#
        let quotesJSON = #"<link rel="alternate" type="application/feed+json" href="https://example.org/catalogue/feeds/quotes.json""#
        for path in ["index.html", "search/index.html", "about/index.html"] {
            let page = try #require(files[path]).text
            #expect(page.contains(rentalsAtom) && page.contains(quotesJSON), "\(path) links every feed")
        }
        for path in ["rentals/index.html", "rentals/category/tools/index.html", "rentals/kayak/index.html"] {
            let page = try #require(files[path]).text
            #expect(page.contains(rentalsAtom) && !page.contains(quotesJSON), "\(path) links its kind's feeds")
        }
        #expect(try !#require(files["cleaners/index.html"]).text.contains(#"rel="alternate""#), "cleaners have no feed")
        #expect(files["feeds/rentals.atom"] != nil && files["feeds/quotes.json"] != nil)
    }

    /// The `content` of each `<meta property=…>` or `<meta name=…>` with that name, unescaped enough for URLs and titles.
    static func meta(_ page: String, _ name: String) -> [String] {
        let attribute = name.hasPrefix("og:") ? "property" : "name"
        return page.components(separatedBy: "<meta \(attribute)=\"\(name)\" content=\"").dropFirst().map {
            $0.components(separatedBy: "\"")[0].replacingOccurrences(of: "&amp;", with: "&")
        }
    }
}

extension Data {
    fileprivate var text: String { String(decoding: self, as: UTF8.self) }
}
