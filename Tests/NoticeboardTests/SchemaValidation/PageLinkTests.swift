import SchemaValidation
import SiteModel
import Testing

/// A free page's links that leave a site at a sub-path are warned about at their own line and column, counted
/// in characters, also on a paragraph's later lines and after a code span over two lines.
@Suite struct PageLinkTests {
    func warnings(_ body: String) -> [String] {
        let text = "---\ntitle: About\n---\n" + body
        let (page, problems) = decodePage(Array(text.utf8), file: "content/pages/about.md", slug: "about", sitePath: "/catalogue/")
        #expect(page != nil)
        return problems.map { "\($0.location!.line):\($0.location!.column) \($0.message.prefix { $0 != "," })" }
    }

    /// With raw HTML allowed, a tag the tag filter still escapes is warned about at its line; without, all raw
    /// HTML is left out, as the README says, and nothing is.
    @Test func tagsTheTagFilterEscapesAreWarnedAboutWhereRawHTMLIsAllowed() {
        let text = "---\ntitle: Video\n---\nIntro <b>bold</b>.\n\n<IFRAME src=\"https://video.example/\"></iframe>\n\n<p>A <textarea>x</textarea></p>\n\nA paragraph\nwith `a\ncode span` then <style>p {}</style> inline.\n"
        for allowed in [true, false] {
            let (_, problems) = decodePage(Array(text.utf8), file: "content/pages/video.md", slug: "video", allowRawHTML: allowed)
            #expect(problems.map { "\($0.location!.line) \($0.message.prefix { $0 != "," })" } == (allowed ? [
                "6 the page has <iframe>", "8 the page has <textarea>", "12 the page has <style>",
            ] : []))
        }
    }

    @Test func eachLinkIsPlacedWhereItStarts() {
        #expect(warnings("Voilà: [a](/a/).\nText\n   and [b](/b/)\n\n`code\nspan` then [c](/c/)\n\n> quoted\n[d](/d/)\n") == [
            "4:8 the page links to '/a/'", "6:8 the page links to '/b/'", "9:12 the page links to '/c/'", "12:1 the page links to '/d/'",
        ])
    }
}
