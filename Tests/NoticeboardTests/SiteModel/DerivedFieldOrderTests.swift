import SiteModel
import Testing

/// The order derived fields are computed in across kinds (`DerivedFieldOrder`): each after what it reads, and a
/// loop only where fields truly read each other.
@Suite struct DerivedFieldOrderTests {
    static func kind(_ name: String, references: [(String, String)], derived: [(String, DerivedField.Operation, from: String?, via: String?)], sort: [String] = []) -> KindSchema {
        var schema = KindSchema(
            name: name, title: name, singular: name, description: "", titleField: "name",
            fields: [FieldSchema(name: "name", type: .string, label: "Name")] + references.map { FieldSchema(name: $0.0, type: .reference(kind: $0.1), label: $0.0) },
            file: "content/schemas/\(name).yaml")
        schema.derived = derived.map { DerivedField(name: $0.0, label: $0.0, operation: $0.1, from: $0.from, via: $0.via, location: SourceLocation(file: schema.file)) }
        schema.sort = sort.map { SortKey(field: $0, descending: true) }
        return schema
    }

    static func order(_ schemas: [KindSchema]) throws -> [String] {
        try DerivedFieldOrder(schemas).runs.flatMap { run in run.fields.map { "\(run.kind).\($0.name)" } }
    }

    /// A kind sorted by a count of its own listings, and two lists of its own listings: a count reads nothing
    /// of theirs, and a list does not hold the kind's lists of its own listings.
    @Test func aKindsOwnCountAndListsAreNoLoop() throws {
        let categories = Self.kind(
            "categories", references: [("parent", "categories"), ("blocked_by", "categories")],
            derived: [("children", .count, "categories", "parent"), ("subtasks", .list(sort: []), "categories", "parent"),
                      ("blocks", .list(sort: []), "categories", "blocked_by")],
            sort: ["children"])
        #expect(try Self.order([categories]) == ["categories.children", "categories.subtasks", "categories.blocks"])
    }

    /// Two kinds whose lists hold each other's listings: the list made first holds the other's listings
    /// without their list of it, and a list comes after the other fields its listings hold.
    @Test func twoKindsListingEachOtherAreNoLoop() throws {
        let a = Self.kind("a", references: [("b_ref", "b")], derived: [("bs", .list(sort: []), "b", "a_ref")])
        let b = Self.kind("b", references: [("a_ref", "a")], derived: [("as_", .list(sort: []), "a", "b_ref"), ("count", .count, "a", "b_ref")])
        #expect(try Self.order([a, b]) == ["b.as_", "b.count", "a.bs"])
    }

    /// Fields that read each other round a loop have no order: the loop is named from its first field.
    @Test func fieldsReadingEachOtherAreALoop() {
        let a = Self.kind("a", references: [("b_ref", "b")], derived: [("x", .lookup(field: "y"), nil, "b_ref")])
        let b = Self.kind("b", references: [], derived: [("y", .maximum(field: "x"), "a", "b_ref")])
        #expect {
            _ = try DerivedFieldOrder([a, b])
        } throws: { error in
            (error as? DerivedFieldOrder.Loop)?.fields.map { "\($0.kind).\($0.field.name)" } == ["a.x", "b.y"]
        }
    }
}
