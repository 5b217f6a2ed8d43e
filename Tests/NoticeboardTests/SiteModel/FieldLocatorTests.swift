import SiteModel
import Testing

@Suite struct FieldLocatorTests {
    static let listing = Listing(kind: "cleaners", slug: "ana", file: "content/cleaners/ana.yaml", fields: [:])

    @Test func aFieldIsFoundWhereTheFileWritesIt() {
        let locator = FieldLocator { file, kind, field in
            kind == "cleaners" && field == "name" ? SourceLocation(file: file, line: 3, column: 7) : nil
        }
        #expect(locator.location(of: "name", in: Self.listing) == SourceLocation(file: "content/cleaners/ana.yaml", line: 3, column: 7))
        #expect(locator.written("name", in: Self.listing) == SourceLocation(file: "content/cleaners/ana.yaml", line: 3, column: 7))
    }

    @Test func aFieldTheFileDoesNotWriteIsReportedAtTheFile() {
        let locator = FieldLocator { _, _, _ in nil }
        #expect(locator.location(of: "rate", in: Self.listing) == SourceLocation(file: "content/cleaners/ana.yaml"))
        #expect(locator.written("rate", in: Self.listing) == nil)
        #expect(FieldLocator.fileOnly.location(of: "name", in: Self.listing) == SourceLocation(file: "content/cleaners/ana.yaml"))
    }
}
