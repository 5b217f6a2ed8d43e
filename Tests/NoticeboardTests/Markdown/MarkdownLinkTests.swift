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

    @Test func aSiteAtTheHostsRootHasNoLinkLeavingIt() {
        #expect(MarkdownCheck(limits: .standard, sitePath: "/").check(Self.text).linksLeavingSite.isEmpty)
    }

    @Test func theMessageSaysWhatToWriteInstead() {
        let message = RootRelativeLink(url: "/about/", line: 1, byteColumn: 5).leavingMessage("'bio'", sitePath: "/catalogue/", namingLine: true)
        #expect(message == "'bio' links to '/about/' (line 2 of its text), outside the site, which lives at /catalogue/; "
            + "write '/catalogue/about/' for a page of this site, or the full address for another")
    }
}
