import CatalogueIndex
import Enrichment
import OrderedCollections
import Rendering
import SiteModel
import Testing

/// A reference's value is made once for the listing it refers to, and shared by the listings that refer to it.
@Suite struct ReferenceValuesTests {
    static let site = SiteConfig(
        title: "Board", description: "", baseURL: "https://example.org/sub/", language: "en", currency: "EUR", pageSize: 24, allowRawHTML: false,
        kinds: ["cleaners", "owners"])
    static let titles = ["cleaners": ["ana": "Ana Murphy"], "owners": ["olga": "Olga"]]

    func reference(_ kind: String, _ slug: String) -> Reference {
        Reference(kind: kind, slug: slug, fieldPath: ["cleaner"], location: SourceLocation(file: "content/reviews/a.yaml"))
    }

    /// Where the value's field names are stored: the same place for a shared value.
    func storage(_ value: Value) -> UnsafeRawPointer? {
        guard case .object(let fields) = value else { return nil }
        return fields.keys.elements.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func aListingReferredToTwiceHasOneValue() throws {
        let references = ReferenceValues(
            site: Self.site, titles: Self.titles, kindsWithPages: ["cleaners"], referenced: [reference("cleaners", "ana"), reference("cleaners", "ana")])
        let first = references.value(kind: "cleaners", slug: "ana"), second = references.value(kind: "cleaners", slug: "ana")
        #expect(first == .object([
            "kind": .string("cleaners"), "slug": .string("ana"), "title": .string("Ana Murphy"),
            "path": .string("/sub/cleaners/ana/"), "url": .string("https://example.org/sub/cleaners/ana/"),
        ]))
        #expect(try #require(storage(first)) == storage(second))
    }

    /// A listing referred to takes its page's path and URL from its references' value: the same strings, not copies.
    @Test func aListingReferredToSharesItsPageWithItsReferences() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let catalogue = try RenderShareTests.renderer(in: folder).catalogue
        var compared = 0
        for collection in catalogue.kinds {
            for listing in collection.listings {
                for case .object(let reference) in listing.fields.values {
                    guard case .string(let kind)? = reference["kind"], case .string(let slug)? = reference["slug"], reference["url"] != nil,
                        let target = catalogue.collection(kind)?.listings.first(where: { $0.slug == slug })
                    else { continue }
                    for field in ["url", "path"] {
                        let own = try #require(target.fields[field]?.stringValue), shown = try #require(reference[field]?.stringValue)
                        // Longer than 15 bytes, a string's bytes are in storage of its own, which its copies share.
                        #expect(own == shown && own.utf8.count > 15 && utf8Storage(own) == utf8Storage(shown), "\(kind)/\(slug) \(field)")
                    }
                    compared += 1
                }
            }
        }
        #expect(compared > 10)
    }

    func utf8Storage(_ text: String) -> UnsafeRawPointer? {
        var text = text
        return text.withUTF8 { UnsafeRawPointer($0.baseAddress) }
    }

    /// A listing no one referred to when the table was made (an edit in `serve` adds a reference) still gets its value.
    @Test func aListingNotInTheTableIsMadeWhenAskedFor() {
        let references = ReferenceValues(site: Self.site, titles: Self.titles, kindsWithPages: ["cleaners"], referenced: [])
        #expect(references.value(kind: "owners", slug: "olga") == .object(["kind": .string("owners"), "slug": .string("olga"), "title": .string("Olga")]))
        #expect(references.value(kind: "owners", slug: "gone") == .object(["kind": .string("owners"), "slug": .string("gone"), "title": .string("gone")]))
        #expect(!references.isEmpty && ReferenceValues.none(site: Self.site).isEmpty)
    }
}
