import Foundation
@testable import Noticeboard
@testable import Rendering
import SiteLoader
import SiteModel
import SiteValidation
import Support
import Testing

/// The map page of a kind with coordinates.
@Suite struct MapPageTests {
    func text(_ files: [String: Data], _ path: String) -> String {
        String(decoding: files[path] ?? Data(), as: UTF8.self)
    }

    @Test func theMapPageListsEveryPlaceOfTheGeoJSONWithItsLink() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        let page = text(files, "rentals/map/index.html")
        let features = try #require(try TestSupport.json(files, "api/rentals.geojson")["features"] as? [[String: Any]])
        #expect(features.count > 5)
        for feature in features {
            let properties = try #require(feature["properties"] as? [String: Any])
            let slug = try #require(properties["slug"] as? String)
            #expect(page.contains("<li data-slug=\"\(slug)\""), "\(slug) is not listed")
            #expect(page.contains("<a href=\"/catalogue/rentals/\(slug)/\">"), "\(slug) is not linked")
        }
        #expect(page.components(separatedBy: "<li data-slug=").count - 1 == features.count)
        // The rentals without coordinates are not on it, and it says how many.
        let rentals = try #require(try TestSupport.json(files, "api/rentals.json")["items"] as? [[String: Any]])
        #expect(rentals.count > features.count)
        #expect(page.contains("<p>With no place given: \(rentals.count - features.count) of the <a href=\"/catalogue/rentals/\">rentals</a>.</p>"))
        #expect(page.contains("data-tiles=\"https://tile.openstreetmap.org/{z}/{x}/{y}.png\""))
        #expect(page.contains("<script src=\"/catalogue/assets/leaflet/leaflet.min.js\" defer></script>"))
        // Linked from the kind's list page and the navigation; kinds without coordinates have none.
        #expect(text(files, "rentals/index.html").contains("<a href=\"/catalogue/rentals/map/\">"))
        #expect(text(files, "index.html").contains("<li><a href=\"/catalogue/rentals/map/\">Map</a></li>"))
        #expect(files["cleaners/map/index.html"] == nil)
    }

    /// A site with map tiles whose theme has no map template (a `new` site's) is told why a kind with `geo` has
    /// no map page; its GeoJSON is written all the same.
    @Test func aKindWithGeoButNoMapTemplateIsWarnedAbout() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        try FileManager.default.removeItem(atPath: site + "/templates/map.mustache")
        let report = try Noticeboard.build(BuildOptions(root: site, now: TestSupport.now))
        #expect(report.warnings.map(\.description) == [
            "content/schemas/rentals.yaml:1:1: warning: kind 'rentals' has geo and the site has map tiles, but the theme has no "
                + "templates/map.mustache, so it gets no map page; add one (the example site's theme has it, with assets/map.js and assets/leaflet/)",
        ])
        #expect(FileManager.default.fileExists(atPath: site + "/public/api/rentals.geojson"))
        #expect(!FileManager.default.fileExists(atPath: site + "/public/rentals/map/index.html"))
    }

    @Test func withoutTilesTheMapPageIsAListAndLoadsNoLeaflet() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let config = TestSupport.read(site + "/content/site.yaml")
        let withoutMap = try #require(config.range(of: "\nmap:")).lowerBound
        TestSupport.write(String(config[..<withoutMap]) + "\n", to: site + "/content/site.yaml")
        let files = try TestSupport.buildTree(site)
        let page = text(files, "rentals/map/index.html")
        #expect(page.contains("<li data-slug=\"kayak\""))
        #expect(!page.contains("leaflet") && !page.contains("id=\"map\""))
    }

    /// The map page's render key takes each card as its digest (`placeCards`): a rebuild after a place's card,
    /// coordinates or facets change renders the page again.
    @Test func theMapPageIsRenderedAgainWhenAPlaceChanges() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try TestSupport.buildTree(site)
        let kayak = site + "/content/rentals/kayak.yaml", original = TestSupport.read(kayak)
        let edits = [
            ("a card's title", "title: Sit-on-top sea kayak", "title: Sit-on-top touring kayak", "Sit-on-top touring kayak</a>"),
            ("a place's coordinates", "lat: 53.29370", "lat: 53.29999", "data-lat=\"53.29999\""),
            ("a place's facets", "city: Galway", "city: Westport", "Westport"),
        ]
        for (what, old, new, shown) in edits {
            TestSupport.write(original.replacingOccurrences(of: old, with: new), to: kayak)
            let page = text(try TestSupport.buildTree(site), "rentals/map/index.html")
            #expect(page.contains(shown), "\(what): the map page was not rendered again")
            let clean = site + "/clean-" + UUID().uuidString
            defer { TestSupport.removeTree(clean) }
            _ = try Noticeboard.build(BuildOptions(root: site, output: clean, now: TestSupport.now))
            #expect(page == text(TestSupport.tree(clean), "rentals/map/index.html"), "\(what): not the page a clean build makes")
        }
    }

    /// The listings without a place are named with links to their pages, in the kind's order, so a visitor can
    /// reach them from the map.
    @Test func theMapPageNamesTheListingsItCannotShow() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        let page = text(files, "rentals/map/index.html")
        let rentals = try #require(try TestSupport.json(files, "api/rentals.json")["items"] as? [[String: Any]])
        let unplaced = rentals.filter { $0["lat"] == nil || $0["lon"] == nil }
        #expect(unplaced.count == 2)
        let named = unplaced.map { "<li><a href=\"\($0["path"] as? String ?? "")\">\($0["title"] as? String ?? "")</a></li>" }
        #expect(page.contains("<ul class=\"unplaced\">\n" + named.joined(separator: "\n") + "\n</ul>"), "\(page)")
        #expect(!page.contains("more, in"))
    }

    /// A kind with more listings without a place than a map page names: the first ones in the kind's order are
    /// named, the rest counted, with a link to the kind's list.
    @Test func theUnplacedListingsNamedAreBounded() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let added = SiteRenderer.unplacedNamedAtMost + 5
        for number in 1...added {
            TestSupport.write("""
                title: Unplaced item \(number)
                photos: [rentals/kayak.jpg]
                category: Party
                price_per_day: 9.00
                condition: Good
                city: Cork
                owner: mary-kelly
                listed: 2026-11-\(String(format: "%02d", number % 20 + 1))
                description: Nowhere in particular.
                """, to: site + "/content/rentals/unplaced-\(number).yaml")
        }
        let files = try TestSupport.buildTree(site)
        let page = text(files, "rentals/map/index.html")
        let rentals = try #require(try TestSupport.json(files, "api/rentals.json")["items"] as? [[String: Any]])
        let unplaced = rentals.filter { $0["lat"] == nil }
        #expect(unplaced.count == added + 2)
        let shown = page.components(separatedBy: "<ul class=\"unplaced\">").last?.components(separatedBy: "</ul>").first ?? ""
        let expected = unplaced.prefix(SiteRenderer.unplacedNamedAtMost).map { "<a href=\"\($0["path"] as? String ?? "")\">" }
        #expect(shown.components(separatedBy: "<li>").count - 1 == SiteRenderer.unplacedNamedAtMost)
        #expect(expected.allSatisfy(shown.contains), "\(shown)")
        #expect(page.contains("<p>And \(added + 2 - SiteRenderer.unplacedNamedAtMost) more, in <a href=\"/catalogue/rentals/\">the list of all rentals</a>.</p>"))
    }

    /// The map page's render key holds the names of the listings without a place as the page shows them: an
    /// edit to what it shows of one renders the page again, an edit to what it does not show, or to another
    /// kind, leaves its key as it was.
    @Test func theMapPagesKeyFollowsTheUnplacedListingsItNames() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let (key, _) = try mapPage(site)
        func edit(_ file: String, _ old: String, _ new: String) {
            let path = site + "/content/" + file
            let text = TestSupport.read(path)
            #expect(text.contains(old), "\(file) has no \(old)")
            TestSupport.write(text.replacingOccurrences(of: old, with: new), to: path)
        }
        edit("rentals/fondue-set.yaml", "for a winter dinner party.", "for a long winter dinner party.")
        edit("cleaners/joao-ferreira.yaml", "hourly_rate: 18.00", "hourly_rate: 18.75")
        #expect(try mapPage(site).key == key, "an edit the map page does not show changed its key")
        edit("rentals/fondue-set.yaml", "title: Cheese fondue set for six", "title: Cheese fondue set for eight")
        let (renamedKey, renamed) = try mapPage(site)
        #expect(renamedKey != key)
        #expect(renamed.contains(">Cheese fondue set for eight</a></li>"))
    }

    /// The example site's rentals map page as a build renders it, with its render key.
    private func mapPage(_ site: String) throws -> (key: SHA256.Digest, html: String) {
        let loaded = try LoadedSite(files: SiteFiles(root: site))
        var stages = StageTimes()
        let catalogue = try Noticeboard.enrichAndIndex(loaded, buildDate: TestSupport.now, stages: &stages).catalogue
        let renderer = SiteRenderer(catalogue: catalogue, templates: loaded.templates)
        let rentals = try #require(catalogue.collection("rentals"))
        let page = try #require(renderer.mapPage(rentals))
        let key = page.context.renderKey(fingerprint: renderer.templates.fingerprint, template: page.template)
        return (key, String(decoding: renderer.render(page), as: UTF8.self))
    }

    /// The theme ships Debian's libjs-leaflet as it is (the Makefile installs the package).
    @Test func leafletIsDebiansCopy() throws {
        let package = "/usr/share/javascript/leaflet/", theme = TestSupport.repository + "/templates/assets/leaflet/"
        let shipped = ["leaflet.min.js", "leaflet.css", "images/marker-icon.png", "images/marker-icon-2x.png", "images/marker-shadow.png",
                       "images/layers.png", "images/layers-2x.png"]
        let found = try FileManager.default.subpathsOfDirectory(atPath: theme).filter { !$0.hasSuffix("images") }
        #expect(Set(found) == Set(shipped))
        for file in shipped {
            let packaged = try #require(FileManager.default.contents(atPath: package + file), "\(package + file) missing: apt-get install libjs-leaflet")
            #expect(FileManager.default.contents(atPath: theme + file) == packaged, "\(file) differs from libjs-leaflet's")
        }
    }
}
