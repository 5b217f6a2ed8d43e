import OrderedCollections
import SiteModel
import Testing

@Suite struct FieldLayoutsTests {
    private func storage(_ layout: OrderedSet<String>) -> UInt {
        layout.elements.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// Listings with the same fields in the same order are given one set of names; another order, another.
    @Test func oneOrderOfNamesIsHeldOnce() {
        let layouts = FieldLayouts()
        let first = layouts.layout(of: ["slug", "name", "rate"])
        let again = layouts.layout(of: ["slug", "name", "rate"])
        let other = layouts.layout(of: ["slug", "rate", "name"])
        #expect(Array(first) == ["slug", "name", "rate"] && Array(other) == ["slug", "rate", "name"])
        #expect(storage(first) == storage(again))
        #expect(storage(first) != storage(other))
    }

    @Test func fieldsKeepTheirOrderAndValues() {
        let layouts = FieldLayouts()
        var list = FieldList(capacity: 2)
        list.append("name", .string("Ana"))
        list.append("rate", .int(18))
        let fields = layouts.fields(list)
        #expect(fields == ["name": .string("Ana"), "rate": .int(18)])
        #expect(Array(fields.keys) == ["name", "rate"])
        let texts = layouts.dictionary(names: ["rate"], values: ["€18.00"])
        #expect(texts == ["rate": "€18.00"])
        var grown = fields
        grown["stars"] = .int(4)
        #expect(Array(layouts.sharing(grown).keys) == ["name", "rate", "stars"] && layouts.sharing(grown) == grown)
    }

    /// A kind whose optional fields give nearly every listing an order of its own keeps no more than a bound.
    @Test func ordersPastTheBoundAreNotKept() {
        let layouts = FieldLayouts()
        for index in 0..<4096 { _ = layouts.layout(of: ["slug", "field-\(index)"]) }
        // Both held at once, so the second cannot be given the first's freed storage.
        let late = layouts.layout(of: ["slug", "one-too-many"]), lateAgain = layouts.layout(of: ["slug", "one-too-many"])
        #expect(storage(late) != storage(lateAgain))
        let kept = layouts.layout(of: ["slug", "field-7"]), keptAgain = layouts.layout(of: ["slug", "field-7"])
        #expect(storage(kept) == storage(keptAgain))
    }
}
