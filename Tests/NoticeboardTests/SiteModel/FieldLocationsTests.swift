import SiteModel
import Testing

@Suite struct FieldLocationsTests {
    @Test func aFieldIsFoundWhereItWasRecordedLast() {
        var locations = FieldLocations()
        #expect(locations.isEmpty)
        locations.record("name", line: 3, column: 7)
        locations.record("rate", line: 4, column: 9)
        locations.record("name", line: 12, column: 2)
        #expect(!locations.isEmpty)
        #expect(locations.location(of: "name", in: "content/a.yaml") == SourceLocation(file: "content/a.yaml", line: 12, column: 2))
        #expect(locations.location(of: "rate", in: "content/a.yaml") == SourceLocation(file: "content/a.yaml", line: 4, column: 9))
        #expect(locations.location(of: "bio", in: "content/a.yaml") == nil)
        #expect(locations.contains("rate") && !locations.contains("bio"))
    }

    @Test func aListingWithoutALocationIsReportedAtItsFile() {
        let listing = Listing(kind: "cleaners", slug: "ana", file: "content/cleaners/ana.yaml", fields: [:])
        #expect(listing.location(of: "name") == SourceLocation(file: "content/cleaners/ana.yaml"))
    }
}
