import Foundation
@testable import Noticeboard
@testable import Rendering
import SiteLoader
import SiteModel
import SiteValidation
import SyntheticSite
import Support
import Synchronization
import Testing

/// How a render is cut into shares: each is made on one core and its files handed on at once, so a share
/// that grows with the catalogue holds memory that grows with it.
@Suite struct RenderShareTests {
    /// A made-up catalogue of 150 cleaners, one listing a page, indexed.
    static func renderer(in folder: String, size: SyntheticCatalogue.Size = .init(cleaners: 150, rentals: 10, quotes: 20)) throws -> SiteRenderer {
        try SiteWriter.write(SyntheticCatalogue(size: size, seed: 1), to: folder, example: TestSupport.repository)
        let config = folder + "/content/site.yaml"
        TestSupport.write(TestSupport.read(config).replacingOccurrences(of: "page_size: 24", with: "page_size: 1"), to: config)
        let site = try LoadedSite(files: SiteFiles(root: folder))
        var stages = StageTimes()
        let catalogue = try Noticeboard.enrichAndIndex(site, buildDate: OutputPlanTests.now, stages: &stages).catalogue
        return SiteRenderer(catalogue: catalogue, templates: site.templates)
    }

    @Test func aLongListsPagesAreDescribedInGroups() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let renderer = try Self.renderer(in: folder)
        var indexPagesPerShare: [Int] = []
        for case .pages(let make) in renderer.plan(RenderPass(renderer: renderer, changes: nil)).work {
            let indexPages = make().filter { $0.path == "cleaners/index.html" || $0.path.hasPrefix("cleaners/page/") }.count
            if indexPages > 0 { indexPagesPerShare.append(indexPages) }
        }
        #expect(indexPagesPerShare.reduce(0, +) == 150)
        #expect(indexPagesPerShare.allSatisfy { $0 <= RenderPass.listPagesPerGroup }, "\(indexPagesPerShare)")
    }

    /// A long list's groups of pages share its links, made by the first group that needs them: each of its
    /// pages renders as it does made in one group.
    @Test func aLongListsGroupsOfPagesShareItsLinks() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let renderer = try Self.renderer(in: folder)
        var grouped: [String: [UInt8]] = [:]
        for case .pages(let make) in renderer.plan(RenderPass(renderer: renderer, changes: nil)).work {
            for page in make() where page.path == "cleaners/index.html" || page.path.hasPrefix("cleaners/page/") {
                grouped[page.path] = renderer.render(page)
            }
        }
        let cleaners = try #require(renderer.catalogue.kinds.first { $0.schema.name == "cleaners" })
        let whole = renderer.indexPages(cleaners, pages: Array(0..<150), links: MadeByFirstReader(), cardDigests: .none)
        #expect(grouped.count == 150 && whole.count == 150)
        for page in whole {
            #expect(grouped[page.path] == renderer.render(page), "\(page.path)")
        }
        #expect(String(decoding: grouped["cleaners/page/150/index.html"] ?? [], as: UTF8.self).contains("/cleaners/page/149/"))
    }

    /// The JSON pages of the kind's list and of each county's: a share holds one list's, never a facet's all.
    @Test func aListsJSONPagesAreMadeInGroupsOfOneList() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let renderer = try Self.renderer(in: folder)
        let pagePath = try Regex(#"^(api/cleaners/page|api/cleaners/county/[^/]+)(/page)?(/[0-9]+)?\.json$"#)
        var listsPerShare: [[Substring]] = []
        var pages = 0
        for case .documents(let make) in renderer.plan(RenderPass(renderer: renderer, changes: nil)).work {
            let lists = make().compactMap { file in (try? pagePath.wholeMatch(in: file.path))?.output[1].substring }
            guard !lists.isEmpty else { continue }
            pages += lists.count
            listsPerShare.append(Array(Set(lists)))
        }
        // 150 cleaners, one a page: the kind's 150 pages and, each cleaner in one county, 150 more.
        #expect(pages == 300)
        #expect(listsPerShare.count >= 5 && listsPerShare.allSatisfy { $0.count == 1 }, "\(listsPerShare)")
        // A longer list's pages come in groups of at most `documentPagesPerGroup`, in order.
        var groups: [[Int]] = []
        _ = RenderPass(renderer: renderer, changes: nil).listPageGroups(count: 600, shown: nil, of: RenderPass.documentPagesPerGroup) { pages in
            groups.append(pages)
            return .documents { [] }
        }
        #expect(groups.map(\.count) == [256, 256, 88] && Array(groups.joined()) == Array(0..<600))
    }
}

/// A build that keeps nothing for an in-place edit renders from listings without their source details.
@Suite struct CompactCatalogueTests {
    @Test func theCompactCatalogueRendersTheSameFiles() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let renderer = try RenderShareTests.renderer(in: folder)
        let compact = renderer.catalogue.withoutSourceDetails()
        let all = renderer.catalogue.kinds.flatMap { $0.listings + $0.entries + $0.facets.flatMap { $0.values.flatMap(\.listings) } }
        #expect(all.contains { !$0.references.isEmpty })
        let compacted = compact.kinds.flatMap { $0.listings + $0.entries + $0.facets.flatMap { $0.values.flatMap(\.listings) } } + compact.newest
        #expect(compacted.count == all.count + renderer.catalogue.newest.count)
        #expect(all.allSatisfy { !$0.file.isEmpty })
        #expect(compacted.allSatisfy { $0.references.isEmpty && $0.media.isEmpty && $0.file.isEmpty })
        let before = RenderedBytes(), after = RenderedBytes()
        renderer.render(emit: before.add)
        SiteRenderer(catalogue: compact, templates: renderer.templates).render(emit: after.add)
        #expect(before.files.count > 1000)
        #expect(before.files == after.files)
    }
}

/// A build that keeps nothing for an in-place edit lets go of what only reading and enriching needed before
/// it renders: the read listings, their slugs and the values references show.
@Suite struct ReleasedInputsTests {
    @Test func aBuildThatKeepsNothingHoldsNoListingTwice() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        try SiteWriter.write(SyntheticCatalogue(size: .init(cleaners: 20, rentals: 5, quotes: 10), seed: 1), to: folder, example: TestSupport.repository)
        for keeping in [true, false] {
            var run = try BuildRun(
                BuildOptions(root: folder, output: folder + "/public-\(keeping)", now: OutputPlanTests.now), keepingSite: keeping, waiting: {})
            let built = try #require(try Noticeboard.runStages(&run))
            let held = [built.site.listings.isEmpty, built.site.slugs.isEmpty, built.enrichment.references.isEmpty]
            #expect(held == (keeping ? [false, false, false] : [true, true, true]), "keeping: \(keeping)")
        }
    }
}

/// The bytes of each rendered file, by path.
private final class RenderedBytes: Sendable {
    private let collected = Mutex<[String: [UInt8]]>([:])

    @Sendable func add(_ batch: [SiteRenderer.RenderedFile]) {
        collected.withLock { files in
            for item in batch { if let bytes = item.file.contents.inMemory { files[item.file.path] = bytes } }
        }
    }

    var files: [String: [UInt8]] { collected.withLock { $0 } }
}
