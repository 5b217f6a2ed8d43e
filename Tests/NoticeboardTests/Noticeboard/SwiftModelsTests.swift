import Foundation
@testable import Noticeboard
import SiteLoader
import SiteValidation
import SiteModel
import Testing

/// `noticeboard codegen swift`: the models compile with `swiftc` and decode every document an app reads of
/// the example site (the API root, every listing, every kind's file, page, facet and daily pick).
@Suite struct SwiftModelsTests {
    /// Also with names that would hide the types the models use: fields `string` (an enum, whose type hid
    /// Swift's `String` in the listing) and `coding_keys` (an object, whose type clashed with the coding keys),
    /// a value with accents, and a kind whose singular names a shared type (`JSONValue`).
    @Test func theModelsCompileAndDecodeEveryPublishedDocument() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let reviews = site + "/content/schemas/reviews.yaml"
        TestSupport.write(TestSupport.read(reviews) + "  string: {type: enum, values: [a, Ünïcode]}\n  coding_keys: {type: object, fields: {x: string}}\n", to: reviews)
        let houses = site + "/content/schemas/houses.yaml"
        TestSupport.write(TestSupport.read(houses).replacingOccurrences(of: "singular: House", with: "singular: JSON value"), to: houses)
        _ = try Noticeboard.build(BuildOptions(root: site, now: CalendarDate(year: 2026, month: 11, day: 23)!))
        let generated = try TestSupport.runCLI(["codegen", "swift", "--output", site + "/Models"], in: site)
        #expect(generated.status == 0, "\(generated.stderr)")

        let loaded = try LoadedSite(files: SiteFiles(root: site))
        let models = SwiftModels(schemas: loaded.schemas)
        let kinds = loaded.schemas.map { schema in
            let type = models.typeName(schema.name)
            let entry = schema.entriesField.map { "\(type).\(models.nestedTypeName($0))" } ?? type
            let facets = schema.facets.map { "\"\($0)\"" }.joined(separator: ", ")
            return "kind(\"\(schema.name)\", \(type).self, \(type)Card.self, \(entry).self, facets: [\(facets)])"
        }
        TestSupport.write(Self.checker + kinds.joined(separator: "\n") + "\nfinish()\n", to: site + "/Models/main.swift")
        let sources = try FileManager.default.contentsOfDirectory(atPath: site + "/Models").filter { $0.hasSuffix(".swift") }.map { site + "/Models/" + $0 }
        let compiled = try TestSupport.run("swiftc", ["-o", site + "/check-models"] + sources)
        #expect(compiled.status == 0, "\(compiled.stderr)")
        let checked = try TestSupport.run(site + "/check-models", [site + "/public/api"])
        #expect(checked.status == 0, "\(checked.stdout)\(checked.stderr)")
        #expect(checked.stdout.contains("decoded"), "\(checked.stdout)")
        let count = Int(checked.stdout.split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? 0
        #expect(count > 500, "\(checked.stdout)")
        let reviewModel = TestSupport.read(site + "/Models/Review.swift")
        #expect(reviewModel.contains("public enum StringValue") && reviewModel.contains("case unicode") && reviewModel.contains("public struct CodingKeysValue"))
        #expect(models.typeName("houses") == "JSONValueListing")
    }

    /// A kind whose singular names a type an app already has (Swift's `Task`, the shared `Page`, SwiftUI's
    /// `Image`) is named with `Listing` after it; others keep their singular.
    @Test func aSingularThatNamesATakenTypeGetsListingAfterIt() throws {
        let schemas = ["Task", "page", "Image", "Rental item", "Tasks"].enumerated().map { index, singular in
            KindSchema(name: "kind\(index)", title: "Kind", singular: singular, description: "", titleField: "name", fields: [], file: "")
        }
        let models = SwiftModels(schemas: schemas)
        #expect(SwiftModels.sharedTypeNames == [
            "Slug", "CalendarDay", "Reference", "PublishedImage", "GroupTotal", "Page", "FacetValues", "KindDocument", "DailyPick", "APIRoot",
            "JSONValue",
        ])
        #expect(schemas.map { models.typeName($0.name) } == ["TaskListing", "PageListing", "ImageListing", "RentalItem", "Tasks"])
        try models.checkTypeNamesDiffer()
        // `Task` and `Task listing` would both be TaskListing, one file written over the other.
        let clashing = SwiftModels(schemas: schemas + [KindSchema(name: "jobs", title: "Jobs", singular: "Task listing", description: "", titleField: "name", fields: [], file: "content/schemas/jobs.yaml")])
        #expect(throws: BuildFailure.self) { try clashing.checkTypeNamesDiffer() }
        // `Task card` would be the card of `Task`'s listing type too.
        let card = SwiftModels(schemas: schemas + [KindSchema(name: "cards", title: "Cards", singular: "Task listing card", description: "", titleField: "name", fields: [], file: "content/schemas/cards.yaml")])
        #expect(throws: BuildFailure.self) { try card.checkTypeNamesDiffer() }
    }

    /// Decodes the documents below `api/` with the generated models; exits 1 on the first kind that fails.
    static let checker = #"""
        import Foundation

        let api = CommandLine.arguments[1]
        var failures = 0, decoded = 0

        func decode<T: Decodable>(_ type: T.Type, _ path: String) {
            do {
                _ = try JSONDecoder().decode(type, from: Data(contentsOf: URL(fileURLWithPath: api + "/" + path)))
                decoded += 1
            } catch {
                print("\(path): \(error)")
                failures += 1
            }
        }

        func kind<Listing: Decodable & Sendable, Card: Decodable & Sendable, Entry: Decodable & Sendable>(
            _ name: String, _ listing: Listing.Type, _ card: Card.Type, _ entry: Entry.Type, facets: [String]
        ) {
            decode(KindDocument<Listing>.self, name + ".json")
            for path in FileManager.default.subpaths(atPath: api + "/" + name) ?? [] where path.hasSuffix(".json") {
                let parts = path.split(separator: "/")
                if parts.first == "daily" {
                    decode(DailyPick<Entry>.self, name + "/" + path)
                } else if parts.count == 1, facets.contains(String(path.dropLast(5))) {
                    decode(FacetValues.self, name + "/" + path)
                } else if parts.count == 1 {
                    decode(Listing.self, name + "/" + path)
                } else {
                    decode(Page<Card>.self, name + "/" + path)
                }
            }
        }

        func finish() {
            // Decimals come from the number's text, not through a Double.
            struct Exact: Decodable { let total: GroupTotal }
            let exact = try! JSONDecoder().decode(Exact.self, from: Data(#"{"total": {"group": "a", "total": 1234567890.123456789}}"#.utf8))
            if exact.total.total != Decimal(string: "1234567890.123456789")! { print("decimal: \(exact.total.total)"); failures += 1 }
            let aoife = try! JSONDecoder().decode(Cleaner.self, from: Data(contentsOf: URL(fileURLWithPath: api + "/cleaners/aoife-byrne.json")))
            if aoife.hourlyRate != Decimal(string: "19.50")! || aoife.county != .cork || aoife.slug != Slug("aoife-byrne") { print("aoife: \(aoife)"); failures += 1 }
            // An enum value a later build adds is kept, not an error.
            let later = try! JSONDecoder().decode([Cleaner.County].self, from: Data(#"["Cork", "Sligo"]"#.utf8))
            if later != [.cork, .unknown("Sligo")] { print("unknown: \(later)"); failures += 1 }
            print("decoded \(decoded)")
            exit(failures == 0 ? 0 : 1)
        }

        decode(APIRoot.self, "index.json")
        // The example's `tasks` kind (singular `Task`) leaves Swift's own Task to the app.
        let answer = Task<Int, Never> { 42 }
        _ = answer

        """#
}
