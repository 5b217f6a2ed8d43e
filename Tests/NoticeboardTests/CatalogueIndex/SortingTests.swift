import Foundation
@testable import CatalogueIndex
import SiteModel
import Support
import Testing

/// Text sorts by the site language's collation: case and accents ignored, the language's own letters where
/// it puts them, numbers inside text as numbers.
@Suite struct SortingTests {
    func sorted(_ names: [String], language: String) -> [String] {
        let listings = names.enumerated().map { index, name in
            Listing(kind: "people", slug: "p\(index)", file: "content/people/p\(index).yaml", fields: ["name": .string(name)])
        }
        return sortListings(listings, keys: [SortKey(field: "name", descending: false)], collation: Collation(language: language))
            .map { $0.fields["name"]!.text }
    }

    @Test func slashedLSortsWithLBeforeM() {
        let names = ["Žydrūnė", "Mateusz", "Łukasz", "Zofia", "Luke", "lukas"]
        #expect(sorted(names, language: "en-IE") == ["lukas", "Łukasz", "Luke", "Mateusz", "Zofia", "Žydrūnė"])
        // Polish puts ł after every l, still before m.
        #expect(sorted(names, language: "pl") == ["lukas", "Luke", "Łukasz", "Mateusz", "Zofia", "Žydrūnė"])
    }

    @Test func caseAndAccentsFoldAndNumbersCompareAsNumbers() {
        let collation = Collation(language: "en-IE")
        #expect(collation.compare("Ó Súilleabháin", "o suilleabhain") == .orderedSame)
        #expect(collation.compare("Émile", "emile") == .orderedSame)
        #expect(sorted(["Cleaner 10", "Cleaner 6", "cleaner 1"], language: "en-IE") == ["cleaner 1", "Cleaner 6", "Cleaner 10"])
    }

    /// A long text's key outgrows the first buffer and is asked for again.
    @Test func longTextsHaveWholeKeys() {
        let collation = Collation(language: "en-IE")
        let long = String(repeating: "ŁĄŻ ", count: 500)
        #expect(collation.compare(long + "a", long + "b") == .orderedAscending)
        #expect(collation.compare(long + "b", long + "a") == .orderedDescending)
    }

    /// Sorting compares the first eight bytes of two keys before the keys: texts whose keys share those bytes,
    /// or of which one begins the other, sort as their whole keys do, either way, and equal keys by slug.
    @Test func keysSharingTheirFirstBytesSortAsWholeKeys() {
        let collation = Collation(language: "en-IE")
        var random = SplitMix64(seed: 5)
        let stems = ["", "a", "abcdefg", "abcdefgh", "abcdefghij", "Abcdefgh", "ábcdefgh", "abcdefgh 2", "abcdefgh 10"]
        let names = (0..<300).map { _ in stems[Int(random.next() % UInt64(stems.count))] + String(repeating: "x", count: Int(random.next() % 3)) }
        let listings = names.enumerated().map { index, name in
            Listing(kind: "people", slug: "p\(index)", file: "content/people/p\(index).yaml", fields: ["name": .string(name)])
        }
        for descending in [false, true] {
            let expected = listings.sorted { a, b in
                let x = collation.key(a.fields["name"]!.text), y = collation.key(b.fields["name"]!.text)
                if x != y { return descending ? y.lexicographicallyPrecedes(x) : x.lexicographicallyPrecedes(y) }
                return a.slug < b.slug
            }
            let sorted = sortListings(listings, keys: [SortKey(field: "name", descending: descending)], collation: collation)
            #expect(sorted.map(\.slug) == expected.map(\.slug))
        }
    }

    /// A language ICU does not know sorts by the Unicode default order rather than failing.
    @Test func unknownLanguageFallsBackToTheDefaultOrder() {
        // "Ä" and "a" are equal at this strength, so the slug decides (p1 before p2).
        #expect(sorted(["b", "Ä", "a"], language: "xx-Unknown") == ["Ä", "a", "b"])
    }

    /// A text facet's values are listed in the same order.
    @Test func facetValuesSortByCollation() {
        let schema = KindSchema(
            name: "people", title: "People", singular: "Person", description: "", titleField: "name",
            fields: [FieldSchema(name: "name", type: .string, label: "Name"), FieldSchema(name: "town", type: .string, label: "Town")],
            facets: ["town"], file: "content/schemas/people.yaml")
        let listings = ["Zamość", "Łódź", "Mielec", "Lublin"].enumerated().map { index, town in
            Listing(kind: "people", slug: "p\(index)", file: "content/people/p\(index).yaml", fields: ["name": .string("P"), "town": .string(town)])
        }
        let (facets, problems) = facets(of: schema, listings: listings, entries: [], collation: Collation(language: "en-IE"), locator: .fileOnly)
        #expect(problems.isEmpty)
        #expect(facets.first?.values.map(\.text) == ["Łódź", "Lublin", "Mielec", "Zamość"])
    }
}
