@testable import Markdown
import SiteModel
import Testing

/// Root-relative links in Markdown: on a site at a sub-path, `/about/` leads off the site, so the check
/// names each such link and image with its line; links within the site's path, other hosts and relative
/// links are left alone.
struct MarkdownLinkTests {
    static let text = """
        See [our rules](/catalogue/about/) and [the board](/catalogue).
        Ask [the office](/about/) or [another site](//example.net/x),
        [a friend](https://example.net/) or [a neighbour](cleaners/ana/).

        ![A map](/media/map.png)

        [Reference][r]

        [r]: /contact/
        """

    @Test func linksOutsideTheSitePathAreFoundWithTheirLines() {
        let found = MarkdownCheck(limits: .standard, sitePath: "/catalogue/").check(Self.text)
        #expect(found.overrun == nil)
        #expect(found.linksLeavingSite == [
            RootRelativeLink(url: "/about/", line: 1, byteColumn: 5), RootRelativeLink(url: "/media/map.png", line: 4, byteColumn: 1),
            RootRelativeLink(url: "/contact/", line: 6, byteColumn: 1),
        ])
    }

    /// A code span over two lines before a link does not shift its line; the site's own path with a query or
    /// fragment stays on the site; a URL repeated is one finding.
    @Test func linesFollowCodeSpansAndEachURLIsFoundOnce() {
        let text = "line `code\nspan` then [x](/b) and [y](/b)\n[home](/catalogue?q=1) [top](/catalogue#top) [c](/catalogue/#c)"
        #expect(MarkdownCheck(limits: .standard, sitePath: "/catalogue/").check(text).linksLeavingSite == [
            RootRelativeLink(url: "/b", line: 1, byteColumn: 12),
        ])
    }

    /// A URL holding a decoded newline or tab is shown with control pictures, so the message stays one line
    /// (the build record keeps messages as tab-separated lines).
    @Test func theMessageIsOneLine() throws {
        let found = MarkdownCheck(limits: .standard, sitePath: "/catalogue/").check("[x](/a&#10;b&#9;c)").linksLeavingSite
        let link = try #require(found.first)
        let message = link.leavingMessage("'bio'", sitePath: "/catalogue/", namingLine: true)
        #expect(!message.contains("\n") && !message.contains("\t") && message.contains("'/a␊b␉c'"), "\(message)")
    }

    @Test func aSiteAtTheHostsRootHasNoLinkLeavingIt() {
        #expect(MarkdownCheck(limits: .standard, sitePath: "/").check(Self.text).linksLeavingSite.isEmpty)
    }

    @Test func theMessageSaysWhatToWriteInstead() {
        let message = RootRelativeLink(url: "/about/", line: 1, byteColumn: 5).leavingMessage("'bio'", sitePath: "/catalogue/", namingLine: true)
        #expect(message == "'bio' links to '/about/' (line 2 of its text), outside the site, which lives at /catalogue/; "
            + "write '/catalogue/about/' for a page of this site, or the full address for another")
    }
}
