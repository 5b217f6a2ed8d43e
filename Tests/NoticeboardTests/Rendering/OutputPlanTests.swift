import CatalogueIndex
import Foundation
@testable import Noticeboard
@testable import Rendering
import SiteLoader
import SiteModel
import SiteValidation
import Synchronization
import Testing

/// `Outputs.all` is the one list of what a build writes: every file written is declared there, the sitemap
/// lists its pages, and an in-place edit renders exactly the outputs that show the edited listing.
@Suite struct OutputPlanTests {
    static let now = CalendarDate(year: 2026, month: 11, day: 23)!

    /// A declared path as a pattern over written paths: `<…>` is one path segment (any depth below `assets/`
    /// and `media/`), and a folder is its `index.html`.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        let file = pattern.isEmpty || pattern.hasSuffix("/") ? pattern + "index.html" : pattern
        var expression = "^"
        for part in file.split(separator: "<", omittingEmptySubsequences: false).enumerated() {
            guard part.offset > 0 else {
                expression += NSRegularExpression.escapedPattern(for: String(part.element))
                continue
            }
            let pieces = part.element.split(separator: ">", maxSplits: 1, omittingEmptySubsequences: false)
            expression += pieces[0] == "file" ? ".+" : "[^/]+"
            expression += NSRegularExpression.escapedPattern(for: String(pieces.count > 1 ? pieces[1] : ""))
        }
        return path.range(of: expression + "$", options: .regularExpression) != nil
    }

    /// The example site's files, as a build from scratch renders them in memory, by path.
    static func render(changes: [String: Set<String>]? = nil) throws -> [String: String] {
        let root = TestSupport.makeSite()
        defer { TestSupport.removeTree(root) }
        let site = try LoadedSite(files: SiteFiles(root: root))
        var stages = StageTimes()
        let catalogue = try Noticeboard.enrichAndIndex(site, buildDate: now, stages: &stages).catalogue
        let collected = Collected()
        SiteRenderer(catalogue: catalogue, templates: site.templates, staticFiles: Noticeboard.staticFiles(site))
            .render(changes: changes.map { EditedPositions(slugs: $0, in: catalogue) }, emit: collected.add)
        return collected.files
    }

    /// Every name the site's own files and folders take where a kind's go (`<kind>/`, `api/<kind>.json`,
    /// `api/<kind>/`, `api/schema/<kind>.json`, `feeds/`) is a name no kind may take: a kind called `manifest`
    /// wrote its schema over the manifest's, and the build failed without saying where.
    @Test func everyNameTheSiteTakesWhereAKindsFilesGoIsReserved() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let paths = try TestSupport.buildTree(site).keys
        let kinds = Set(try TestSupport.json(TestSupport.tree(site + "/public"), "api/index.json")["kinds"].map { kinds in
            (kinds as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        } ?? [])
        // Free pages are checked against the kinds as they load.
        let pages = Set(try FileManager.default.contentsOfDirectory(atPath: site + "/content/pages").map { String($0.dropLast(".md".count)) })
        func name(_ entry: Substring) -> String { String(entry.prefix { $0 != "." }) }
        var taken: Set<String> = []
        let published = Set(TestSupport.tree(site + "/static").keys)
        for path in paths where !published.contains(path) {
            let parts = path.split(separator: "/")
            if parts.count > 1 { taken.insert(String(parts[0])) }
            if parts.count > 1, parts[0] == "api" { taken.insert(name(parts[1])) }
            if parts.count == 3, parts[0] == "api", parts[1] == "schema" { taken.insert(name(parts[2])) }
        }
        #expect(kinds.count >= 5 && taken.isSuperset(of: ["manifest", "facet", "jsonfeed", "feeds"]))
        let unreserved = taken.subtracting(kinds).subtracting(pages).subtracting(SiteConfig.reservedKindNames)
        #expect(unreserved.isEmpty, "\(unreserved.sorted())")
    }

    @Test func everyFileWrittenIsDeclaredAndEveryDeclarationWritten() throws {
        let root = TestSupport.makeSite()
        defer { TestSupport.removeTree(root) }
        // Two listings a page, so that lists have more than one page.
        let config = root + "/content/site.yaml"
        TestSupport.write(TestSupport.read(config).replacingOccurrences(of: "page_size: 24", with: "page_size: 2"), to: config)
        _ = try Noticeboard.build(BuildOptions(root: root, now: Self.now))
        // A second build, a day later, so that there is a change list to sync from.
        _ = try Noticeboard.build(BuildOptions(root: root, now: CalendarDate(year: 2026, month: 11, day: 24)!))
        let written = TestSupport.tree(root + "/public").keys.sorted()
        // The files of static/ are written where they are there, and are the only ones Outputs.staticFile stands for.
        let published = Set(TestSupport.tree(root + "/static").keys)
        #expect(!published.isEmpty && published.isSubset(of: written))
        let undeclared = written.filter { path in
            !published.contains(path) && !Outputs.all.contains { $0.paths.contains { $0 != Outputs.staticFile && Self.matches($0, path) } }
        }
        #expect(undeclared.isEmpty, "written but not declared: \(undeclared.prefix(5))")
        // The example site has every kind of output, so each declared path has files; but the sitemap is split
        // only past 50,000 pages (SitemapTests).
        for declaration in Outputs.all {
            for pattern in declaration.paths where pattern != "sitemap-<n>.xml" && pattern != Outputs.staticFile {
                #expect(written.contains { Self.matches(pattern, $0) }, "\(declaration.name): nothing written at \(pattern)")
            }
        }
    }

    @Test func theSitemapListsTheDeclaredPages() throws {
        let files = try Self.render()
        let sitemap = try #require(files["sitemap.xml"])
        let base = "https://example.org/catalogue/"
        let listed = Set(sitemap.components(separatedBy: "<loc>").dropFirst().map { entry in
            String(entry.prefix { $0 != "<" }.dropFirst(base.count)) + "index.html"
        })
        let pages = Set(files.keys.filter { $0.hasSuffix(".html") && $0 != "404.html" })
        #expect(listed == pages)
        #expect(files["404.html"] != nil)
    }

    /// An in-place edit of one cleaner renders the pages that show her (found by her link in a whole render),
    /// the home page, and the documents of her kind that hold her or her card (found by the link
    /// to her document); nothing else.
    @Test func anInPlaceRenderMakesExactlyWhatShowsTheListing() throws {
        let all = try Self.render()
        let changed = try Self.render(changes: ["cleaners": ["aoife-byrne"]])
        let link = "/catalogue/cleaners/aoife-byrne/"
        let showing = all.filter { $0.key.hasSuffix(".html") && $0.value.contains(link) }.keys
        #expect(Set(changed.keys.filter { $0.hasSuffix(".html") }) == Set(showing).union(["index.html"]))
        // The search index is made again whole: only its files whose bytes changed are written.
        let cards = all.filter { $0.key.hasSuffix(".json") && $0.value.contains("/catalogue/api/cleaners/aoife-byrne.json\"") }.keys
        #expect(cards.contains("api/cleaners/county/cork.json"))
        let documents = Set(cards).union(all.keys.filter { $0.hasPrefix("api/search/") }).union([
            "api/cleaners.json", "api/cleaners/aoife-byrne.json", "api/cleaners.csv", "feeds/cleaners.json",
            "feeds/cleaners.atom",
        ])
        #expect(Set(changed.keys.filter { !$0.hasSuffix(".html") }) == documents.intersection(all.keys))
        for path in changed.keys { #expect(changed[path] == all[path], "\(path) differs from a whole render") }
    }

    @Test func reservedSlugsComeFromTheDeclaredPaths() {
        #expect(Outputs.siteFolders == ["api", "assets", "media", "feeds", "search", "404"])
        #expect(Outputs.kindFolders(facets: ["county", "languages"]) == ["page", "map", "daily", "county", "languages"])
    }

    /// A facet filters the search page by a parameter of its name, so it may not have a name the page's script
    /// reads for itself, nor one whose folder the kind's own pages take.
    @Test func facetsMayNotTakeTheSearchPagesParametersOrTheKindsFolders() throws {
        let script = TestSupport.read(TestSupport.repository + "/templates/assets/search.js")
        let read = try Regex(#"params\.(?:get|set)\('([a-z_]+)'"#)
        let parameters = Set(script.matches(of: read).compactMap { $0.output[1].substring.map(String.init) })
        #expect(parameters == ["q", "kind", "min", "max", "sort"])
        #expect(Set(Outputs.reservedFacetNames.keys) == parameters.union(Outputs.kindFolders(facets: [])))
    }
}

/// Files handed over by the renderer's threads, as text.
private final class Collected: Sendable {
    private let collected = Mutex<[String: String]>([:])

    @Sendable func add(_ batch: [SiteRenderer.RenderedFile]) {
        collected.withLock { files in
            for item in batch {
                if let bytes = item.file.contents.inMemory { files[item.file.path] = String(decoding: bytes, as: UTF8.self) }
                if case .copy(let source) = item.file.contents { files[item.file.path] = source }
            }
        }
    }

    var files: [String: String] { collected.withLock { $0 } }
}
