import Foundation
import Noticeboard
import SiteModel
import Testing

/// Every `url` and `path` (and `…_url`) in every JSON file of the example site names a file the build wrote:
/// items of kinds without pages (reviews, tasks) carry none, nor do references to them.
@Suite struct JSONLinksTests {
    static let base = "https://example.org/catalogue/"

    /// Each link-valued string in a JSON value, with where it sits. An image's `path` names its source below
    /// `content/media/` (README: Images), and the manifest's are relative to the output folder.
    static func links(in value: Any, at place: String, into found: inout [(place: String, link: String)]) {
        if let object = value as? [String: Any] {
            for (key, item) in object {
                if let text = item as? String, key == "url" || key == "path" || key.hasSuffix("_url"), !(key == "path" && object["src"] != nil) {
                    found.append((place + "." + key, text))
                } else {
                    links(in: item, at: place + "." + key, into: &found)
                }
            }
        } else if let list = value as? [Any] {
            for (index, item) in list.enumerated() { links(in: item, at: place + "[\(index)]", into: &found) }
        }
    }

    /// The output file a link names, or nil for a link that leaves the site.
    static func target(of link: String, manifest: Bool) -> String? {
        var relative: Substring
        let withoutAnchor = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        if manifest {
            relative = withoutAnchor
        } else if withoutAnchor.hasPrefix(base) {
            relative = withoutAnchor.dropFirst(base.count)
        } else if withoutAnchor.hasPrefix("/catalogue/") {
            relative = withoutAnchor.dropFirst("/catalogue/".count)
        } else {
            return nil
        }
        return relative.isEmpty || relative.hasSuffix("/") ? relative + "index.html" : String(relative)
    }

    @Test func everyLinkInEveryJSONFileResolves() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try Noticeboard.build(BuildOptions(root: site, now: LiveSiteTests.now))
        let output = site + "/public"
        let files = (FileManager.default.subpaths(atPath: output) ?? []).filter { $0.hasSuffix(".json") || $0.hasSuffix(".geojson") }
        var checked = 0
        var broken: [String] = []
        for file in files.sorted() where !file.hasPrefix("api/schema/") {
            let json = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/" + file)))
            var found: [(place: String, link: String)] = []
            Self.links(in: json, at: "", into: &found)
            for (place, link) in found {
                guard let target = Self.target(of: link, manifest: file == "api/manifest.json") else {
                    #expect(!link.contains("example.org"), "\(file)\(place): \(link) is on the site but outside its base URL")
                    continue
                }
                checked += 1
                if !FileManager.default.fileExists(atPath: output + "/" + target) { broken.append("\(file)\(place): \(link)") }
            }
        }
        #expect(checked > 1000, "only \(checked) links checked")
        #expect(broken.isEmpty, "\(broken.count) links answer 404, such as \(broken.prefix(8))")
    }

    /// A reference to a listing without a page shows its title, not a link, on pages and in JSON.
    @Test func aReferenceToAListingWithoutAPageIsNoLink() throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        let owners = site + "/content/schemas/owners.yaml"
        TestSupport.write(TestSupport.read(owners).replacingOccurrences(of: "title_field: name\n", with: "title_field: name\npages: false\n"), to: owners)
        _ = try Noticeboard.build(BuildOptions(root: site, now: LiveSiteTests.now))
        let page = TestSupport.read(site + "/public/things/lamp/index.html")
        #expect(page.contains("Mary") && !page.contains("owners/mary"), "\(page)")
        #expect(TestSupport.read(site + "/public/api/things/lamp.json").contains(#""owner":{"kind":"owners","slug":"mary","title":"Mary"}"#))
        #expect(!TestSupport.read(site + "/public/api/owners/mary.json").contains("owners/mary"))
    }
}
