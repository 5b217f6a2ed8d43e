import Foundation
import Noticeboard
import SiteModel
import Testing

/// Free Markdown pages from content/pages/: rendered, in the navigation, their front matter checked.
@Suite struct FreePageTests {
    @Test func freePagesAreRenderedAndInTheNavigation() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site, now: TestSupport.now)
        let about = String(decoding: try #require(files["about/index.html"]), as: UTF8.self)
        #expect(about.contains("<h1>About</h1>") && about.contains("<strong>Cork, Kerry, Galway and Dublin</strong>"))
        #expect(about.contains("<li><a href=\"/catalogue/about/\" aria-current=\"page\">About</a></li>"))
        #expect(String(decoding: files["index.html"]!, as: UTF8.self).contains("<li><a href=\"/catalogue/how-it-works/\">How it works</a></li>"))
        // A page without a description has no empty one for search engines to show.
        TestSupport.write("---\ntitle: Plain\n---\nText\n", to: site + "/content/pages/plain.md")
        let plain = String(decoding: try #require(try TestSupport.buildTree(site, now: TestSupport.now)["plain/index.html"]), as: UTF8.self)
        #expect(!plain.contains("description") && about.contains("<meta name=\"description\" content=\"Who runs Noticeboard West"))
        TestSupport.write("---\ntitle: Bad\nnav: first\n---\nText\n", to: site + "/content/pages/bad.md")
        do throws(BuildFailure) {
            _ = try Noticeboard.build(BuildOptions(root: site, now: TestSupport.now))
            Issue.record("bad front matter was accepted")
        } catch {
            #expect(error.diagnostics.map(\.description) == ["content/pages/bad.md:3:6: error: 'nav' must be a whole number from 0 to 1000, not 'first'"])
        }
    }
}
