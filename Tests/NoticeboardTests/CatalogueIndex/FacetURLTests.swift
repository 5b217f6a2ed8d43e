import Foundation
import Noticeboard
import SiteModel
import Testing

/// A facet value's page keeps its URL whatever values are added: each value's URL segment is its own slug,
/// and a new value whose slug an existing one has is an error rather than a reason to move either.
@Suite struct FacetURLTests {
    func site() -> String {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        let schema = site + "/content/schemas/things.yaml"
        TestSupport.write(TestSupport.read(schema).replacingOccurrences(of: "date_field: added\n", with: "date_field: added\nfacets: [tags]\n"), to: schema)
        return site
    }

    /// Each facet value page's folder, with the value its page shows.
    func valuePages(_ site: String) -> [String: String] {
        let folder = site + "/public/things/tags"
        var pages: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name != "index.html" {
            let html = TestSupport.read(folder + "/" + name + "/index.html")
            pages[name] = html.firstMatch(of: /<title>([^<]*)<\/title>/).map { String($0.1) } ?? ""
        }
        return pages
    }

    @Test func addingValuesNeverMovesAnExistingOne() throws {
        let site = site()
        defer { TestSupport.removeTree(site) }
        let options = BuildOptions(root: site, now: LiveSiteTests.now)
        _ = try Noticeboard.build(options)
        let before = valuePages(site)
        #expect(before.keys.sorted() == ["brass", "light"])

        // Values sorting before, between and after the existing ones, one in a file sorting first.
        TestSupport.write("name: Anvil\ntags: [Aardvark, Brass band, Zinc, C++]\n", to: site + "/content/things/a-anvil.yaml")
        _ = try Noticeboard.build(options)
        let after = valuePages(site)
        #expect(after.keys.sorted() == ["aardvark", "brass", "brass-band", "c", "light", "zinc"])
        for (folder, title) in before { #expect(after[folder] == title, "\(folder) moved") }

        // A value written another way takes no URL: it is an error, and the site stays as it was.
        TestSupport.write("name: Bell\ntags: [BRASS]\n", to: site + "/content/things/a-bell.yaml")
        let output = TestSupport.tree(site + "/public")
        #expect {
            try Noticeboard.build(options)
        } throws: { error in
            "\(error)".contains("content/things/lamp.yaml:12:7: error: 'tags' value 'brass' would have the URL segment 'brass', which the value 'BRASS' in content/things/a-bell.yaml already has")
        }
        #expect(TestSupport.tree(site + "/public") == output)
    }
}
