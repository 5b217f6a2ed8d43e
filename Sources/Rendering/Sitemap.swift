import SiteModel

/// `sitemap.xml` (every HTML page, with the date its newest listing changed) and `robots.txt` pointing at it.
extension SiteRenderer {
    func sitemapAndRobots(_ pages: [SitemapEntry]) -> [OutputFile] {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">

            """
        for page in pages.sorted(by: { $0.path < $1.path }) {
            let directory = page.path.hasSuffix("index.html") ? String(page.path.dropLast("index.html".count)) : page.path
            xml += "<url><loc>\(xmlEscaped(site.url(directory)))</loc>"
            xml += "<lastmod>\(page.lastModified ?? catalogue.buildDate)</lastmod></url>\n"
        }
        xml += "</urlset>\n"
        // Crawlers read robots.txt only at a host's root; under a sub-path it is written for the host to serve there.
        let robots = "User-agent: *\nAllow: /\n\nSitemap: \(site.url("sitemap.xml"))\n"
        return [OutputFile(path: "sitemap.xml", text: xml), OutputFile(path: "robots.txt", text: robots)]
    }
}
