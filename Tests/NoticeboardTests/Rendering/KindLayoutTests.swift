import LocatedYAML
@testable import Rendering
import SchemaValidation
import SiteModel
import Testing

/// What cards and pages read from a kind's schema, worked out once (`KindLayout`): the card's parts with
/// their labels, the public date fields, the field that titles a collection's entries.
@Suite struct KindLayoutTests {
    static func schema(_ text: String, kind: String = "things") throws -> KindSchema {
        try #require(decodeKindSchema(try parseYAML(Array(text.utf8), file: "s.yaml"), kind: kind, file: "s.yaml", knownKinds: [kind], reservedFacetNames: [:]).0)
    }

    @Test func aDefaultCardTakesItsLabelsAndFacetsFromTheSchema() throws {
        let schema = try Self.schema("""
            title: Things
            title_field: name
            facets: [town]
            fields:
              name: {type: string, required: true}
              secret_day: {type: date, private: true}
              listed: {type: date}
              photo: {type: image}
              town: {type: string, label: Home town}
              price: {type: decimal, format: currency, label: Price a day}
              next_visit: {type: date, label: Next visit}
            """)
        let layout = KindLayout(schema)
        #expect(layout.photo == "photo")
        #expect(layout.figures.map { "\($0.name): \($0.label)" } == ["price: Price a day"])
        #expect(layout.place.map { "\($0.name): \($0.label), facet \($0.isFacet)" } == "town: Home town, facet true")
        #expect(layout.dateFields == ["listed", "next_visit"], "a private date is never shown")
        #expect(layout.entryTitleField == nil)
    }

    @Test func aCollectionsEntriesAreTitledByTheirFirstTextField() throws {
        let schema = try Self.schema("""
            title: Quotes
            title_field: title
            entries_field: quotes
            fields:
              title: {type: string, required: true}
              quotes:
                type: list
                of:
                  type: object
                  fields:
                    year: {type: int}
                    text: {type: string, required: true}
                    source: {type: string}
            """, kind: "quotes")
        #expect(KindLayout(schema).entryTitleField == "text")
    }
}
