import Foundation
import Testing

/// The home page's context holds the first entries of each collection kind, so a home template can list quotes.
@Suite struct HomeEntriesTests {
    @Test func homeTemplatesCanListACollectionsEntries() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        TestSupport.write(
            "<ol id=\"quotes\">{{#entries.quotes}}<li><a href=\"{{path}}\">{{listing.text}}</a> ({{listing.source}})</li>{{/entries.quotes}}</ol>\n"
                + TestSupport.read(site + "/templates/home.mustache"),
            to: site + "/templates/home.mustache")
        let files = try TestSupport.buildTree(site)
        let home = String(decoding: files["index.html"] ?? Data(), as: UTF8.self)
        let items = home.matches(of: /<li><a href="\/catalogue\/quotes\/([a-z-]+)\/#entry-(\d+)">[^<]+<\/a> \(([^)]+)\)<\/li>/)
        #expect(items.count == 8)
        // In the kind's entry order (by source), each linking to its place in its collection.
        let sources = items.map { String($0.3) }
        #expect(sources == sources.sorted { $0.localizedCaseInsensitiveCompare($1) != .orderedDescending })
        let collection = try TestSupport.json(files, "api/quotes/\(items[0].1).json")
        let quotes = try #require(collection["quotes"] as? [[String: Any]])
        #expect(quotes[Int(items[0].2)!]["source"] as? String == sources[0])
    }
}
