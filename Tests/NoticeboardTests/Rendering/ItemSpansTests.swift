@testable import CatalogueIndex
import Foundation
@testable import Rendering
import SiteModel
import Support
import Synchronization
import Testing

/// An in-place edit splices the edited listings' items into the last kind document and CSV download: the
/// result, and where its items lie, must be what writing the document anew gives.
@Suite struct ItemSpansTests {
    /// A document of `items` between a head and a tail, with a comma between items, as the kind document has.
    private static func document(_ items: [[UInt8]]) -> (bytes: [UInt8], spans: ItemSpans) {
        var bytes = Array("{\"items\":[".utf8), spans = ItemSpans()
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            spans.append(item, to: &bytes)
        }
        bytes += Array("]}\n".utf8)
        return (bytes, spans)
    }

    /// SplitMix64 as Swift's random source, so that a failure can be run again.
    private struct Seeded: RandomNumberGenerator {
        var mix: SplitMix64
        mutating func next() -> UInt64 { mix.next() }
    }

    @Test func splicedDocumentsEqualDocumentsWrittenAnew() {
        var random = Seeded(mix: SplitMix64(seed: 7))
        func item() -> [UInt8] { (0..<Int.random(in: 0...12, using: &random)).map { _ in UInt8.random(in: 97...122, using: &random) } }
        func oneIn(_ chances: Int) -> Bool { Int.random(in: 0..<chances, using: &random) == 0 }
        for _ in 0..<300 {
            var items = (0..<Int.random(in: 1...20, using: &random)).map { _ in item() }
            var (bytes, spans) = Self.document(items)
            // Several splices in a row, each from the last one's result, as successive edits in `serve` make:
            // each item is kept, replaced or removed, and new ones come before any of them or at the end.
            for _ in 0..<3 where !items.isEmpty {
                var edits: [ItemSpans.Edit] = [], now: [[UInt8]] = []
                for position in 0...items.count {
                    while oneIn(6) {
                        let new = item()
                        edits.append(.inserting(new, at: position))
                        now.append(new)
                    }
                    guard position < items.count else { break }
                    if oneIn(5) {
                        let new = item()
                        edits.append(.replacing(position, with: new))
                        now.append(new)
                    } else if oneIn(5) {
                        edits.append(.removing(position))
                    } else {
                        now.append(items[position])
                    }
                }
                let made = spans.splicing(bytes, edits, separator: [UInt8(ascii: ",")])
                // What it says is unchanged at the start is the last document's.
                #expect(made.bytes.prefix(made.unchanged) == bytes.prefix(made.unchanged) && made.unchanged <= min(bytes.count, made.bytes.count))
                (bytes, spans) = (made.bytes, made.spans)
                items = now
                let anew = Self.document(items)
                #expect(bytes == anew.bytes && spans == anew.spans)
            }
        }
    }

    @Test func spansFitOnlyADocumentLongEnoughWithAsManyItems() {
        let (bytes, spans) = Self.document([Array("ab".utf8), Array("cd".utf8)])
        #expect(spans.fit(bytes, count: 2))
        #expect(!spans.fit(bytes, count: 3) && !spans.fit(Array(bytes.prefix(14)), count: 2))
    }
}

/// The render pass splices in place only from the last build's own bytes, and makes the document anew otherwise.
@Suite struct SplicedDocumentsTests {
    /// The cleaners with the first, the tenth and the last one's bio changed.
    private static func edited(_ collection: KindCollection) -> (collection: KindCollection, slugs: Set<String>) {
        var listings = collection.listings
        var slugs: Set<String> = []
        for position in [0, 9, listings.count - 1] {
            listings[position].fields["bio"] = .string("Edited, with a comma, a \"quote\" and é: \(position).")
            slugs.insert(listings[position].slug)
        }
        return (KindCollection(schema: collection.schema, listings: listings, entries: collection.entries, facets: collection.facets), slugs)
    }

    @Test func anEditedKindsDocumentsAreSplicedFromTheLastBytes() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let renderer = try RenderShareTests.renderer(in: folder)
        let cleaners = try #require(renderer.catalogue.collection("cleaners"))
        let keeper = RenderKeeper()
        let full = RenderPass(renderer: renderer, changes: nil, keeper: keeper)
        var lastFiles: [String: [UInt8]] = [:]
        for file in [full.kindDocument(cleaners), full.csvDownload(cleaners)] {
            guard case .streamed = file.contents, let bytes = file.contents.inMemory else { Issue.record("\(file.path) is not streamed"); return }
            lastFiles[file.path] = bytes
        }
        #expect(keeper.kept.spans.keys.sorted() == ["api/cleaners.csv", "api/cleaners.json"])
        // An edit of rentals leaves the cleaners' documents alone; other files it may splice.
        for path in ["api/cleaners.json", "api/cleaners.csv"] {
            #expect(keeper.kept.mayBeSpliced(path, byAnEditOf: ["cleaners"]) && !keeper.kept.mayBeSpliced(path, byAnEditOf: ["rentals"]))
        }
        #expect(keeper.kept.mayBeSpliced("api/manifest.json", byAnEditOf: ["rentals"]))

        let (collection, slugs) = Self.edited(cleaners)
        var anewBytes: ([UInt8], [UInt8]) = ([], [])
        let anewSpans = (renderer.writeKindDocument(collection, into: &anewBytes.0), renderer.writeCSVDownload(collection, into: &anewBytes.1))
        // The last bytes as the build wrote them; with a head that differs (which only a splice copies); none.
        let otherHead = lastFiles.mapValues { bytes in [UInt8](repeating: UInt8(ascii: "#"), count: 8) + bytes.dropFirst(8) }
        for lastBytes in [lastFiles, otherHead, [:]] {
            let asked = Mutex<[String]>([])
            let next = RenderKeeper(startingFrom: keeper.kept)
            let pass = RenderPass(
                renderer: renderer, changes: EditedPositions(slugs: ["cleaners": slugs], in: renderer.catalogue), last: keeper.kept,
                lastBytes: { path in asked.withLock { $0.append(path) }; return lastBytes[path] }, keeper: next)
            let made = [pass.kindDocument(collection), pass.csvDownload(collection)].map { $0.contents.inMemory ?? [] }
            let expected = [anewBytes.0, anewBytes.1].map { bytes in
                lastBytes == otherHead ? Array("########".utf8) + bytes.dropFirst(8) : bytes
            }
            #expect(made == expected && made != [lastFiles["api/cleaners.json"], lastFiles["api/cleaners.csv"]])
            #expect(next.kept.spans["api/cleaners.json"] == anewSpans.0 && next.kept.spans["api/cleaners.csv"] == anewSpans.1)
            #expect(asked.withLock { $0 } == ["api/cleaners.json", "api/cleaners.csv"])
        }
    }
}

/// The CSV's rows are made a run at a time: across runs, the download is still every row in the kind's order.
@Suite struct CSVRunsTests {
    @Test func aDownloadMadeInRunsHoldsEveryRowInOrder() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let renderer = try RenderShareTests.renderer(in: folder)
        let cleaners = try #require(renderer.catalogue.collection("cleaners"))
        let columns = SiteRenderer.csvColumns(cleaners.schema)
        for count in [0, 1, SiteRenderer.rowsPerRun, SiteRenderer.rowsPerRun + 1, 2 * SiteRenderer.rowsPerRun + 7] {
            let listings = (0..<count).map { index in
                var listing = cleaners.listings[index % cleaners.listings.count]
                listing.slug = "cleaner-\(index)"
                return listing
            }
            let collection = KindCollection(schema: cleaners.schema, listings: listings, entries: [], facets: [])
            var bytes: [UInt8] = []
            let spans = renderer.writeCSVDownload(collection, into: &bytes)
            let header = Array((columns.joined(separator: ",") + "\r\n").utf8)
            let expected = header + listings.flatMap { SiteRenderer.csvRow($0, columns: columns) }
            let same = bytes == expected
            #expect(same, "\(count) rows: \(bytes.count) bytes for \(expected.count)")
            #expect(spans.count == count)
        }
    }
}
