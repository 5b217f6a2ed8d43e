import SiteModel
import Support

/// `sitemap.xml` (every HTML page, with the date its newest listing changed) and `robots.txt` pointing at it.
/// A sitemap lists at most 50,000 pages (sitemaps.org): past that, `sitemap.xml` is an index of sitemaps
/// `sitemap-1.xml`, `sitemap-2.xml`, … of that many pages each, in path order. They sit beside it at the
/// site's root, since a sitemap may only list pages at or below its own folder.
extension SiteRenderer {
    static let sitemapPagesPerFile = 50_000

    func sitemapAndRobots(_ pages: [SitemapEntry], pagesPerFile: Int = sitemapPagesPerFile) -> [OutputFile] {
        let sorted = pages.sorted { $0.path < $1.path }
        // Crawlers read robots.txt only at a host's root; under a sub-path it is written for the host to serve there.
        let robots = OutputFile(path: "robots.txt", text: "User-agent: *\nAllow: /\n\nSitemap: \(site.url("sitemap.xml"))\n")
        let parts = sorted.indices.runs(of: pagesPerFile).map { sorted[$0] }
        guard parts.count > 1 else { return [urlSet("sitemap.xml", sorted[...]), robots] }
        var index = Array(#"<?xml version="1.0" encoding="UTF-8"?>\#n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\#n"#.utf8)
        for (number, part) in zip(1..., parts) {
            let newest = part.compactMap(\.lastModified).max()
            index += "<sitemap><loc>\(xmlEscaped(site.url("sitemap-\(number).xml")))</loc>\(lastmod(newest))</sitemap>\n".utf8
        }
        index += "</sitemapindex>\n".utf8
        return zip(1..., parts).map { number, part in urlSet("sitemap-\(number).xml", part) }
            + [OutputFile(path: "sitemap.xml", contents: .bytes(index)), robots]
    }

    /// `<lastmod>` of a page with a date. A page without one (a free page, the search page, a kind without a
    /// date field) has none: the build's date would tell crawlers it changed with every daily build.
    private func lastmod(_ date: CalendarDate?) -> String {
        date.map { "<lastmod>\($0)</lastmod>" } ?? ""
    }

    /// A sitemap of `pages` at `path`, in their order, written a line at a time as the file is written.
    private func urlSet(_ path: String, _ pages: ArraySlice<SitemapEntry>) -> OutputFile {
        OutputFile(path: path, contents: .streamed { output in
            output.append(contentsOf: Array(#"<?xml version="1.0" encoding="UTF-8"?>\#n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\#n"#.utf8))
            for page in pages {
                let directory = page.path.hasSuffix("index.html") ? String(page.path.dropLast("index.html".count)) : page.path
                output.append(contentsOf: Array("<url><loc>\(xmlEscaped(site.url(directory)))</loc>\(lastmod(page.lastModified))</url>\n".utf8))
            }
            output.append(contentsOf: Array("</urlset>\n".utf8))
        })
    }
}
