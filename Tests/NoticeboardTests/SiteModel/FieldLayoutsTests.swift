import OrderedCollections
import SiteModel
import Testing

@Suite struct FieldLayoutsTests {
    /// Where a dictionary's names are stored.
    private func names<Element>(_ dictionary: OrderedDictionary<String, Element>) -> UInt {
        dictionary.keys.elements.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    private func fields(_ layouts: FieldLayouts, _ names: [String]) -> OrderedDictionary<String, Value> {
        layouts.dictionary(names: names, values: names.map { .string("value of \($0)") })
    }

    /// Dictionaries with the same names in the same order hold one copy of them; another order, another.
    @Test func oneOrderOfNamesIsHeldOnce() {
        let layouts = FieldLayouts()
        let first = fields(layouts, ["slug", "name", "rate"]), again = fields(layouts, ["slug", "name", "rate"])
        let other = fields(layouts, ["slug", "rate", "name"])
        #expect(Array(first.keys) == ["slug", "name", "rate"] && Array(other.keys) == ["slug", "rate", "name"])
        #expect(first["rate"] == .string("value of rate") && other["rate"] == .string("value of rate"))
        #expect(names(first) == names(again))
        #expect(names(first) != names(other))
        // Past 15 names a dictionary hashes them: its table is shared too, and lookups still work.
        let many = (0..<20).map { "field-\($0)" }
        let wide = fields(layouts, many), wideAgain = fields(layouts, many)
        #expect(names(wide) == names(wideAgain) && wideAgain["field-17"] == .string("value of field-17"))
    }

    @Test func fieldsKeepTheirOrderAndValues() {
        let layouts = FieldLayouts()
        var list = FieldList(capacity: 2)
        list.append("name", .string("Ana"))
        list.append("rate", .int(18))
        let made = layouts.fields(list)
        #expect(made == ["name": .string("Ana"), "rate": .int(18)])
        #expect(Array(made.keys) == ["name", "rate"])
        let texts = layouts.dictionary(names: ["rate"], values: ["€18.00"])
        #expect(texts == ["rate": "€18.00"])
        var grown = made
        grown["stars"] = .int(4)
        let shared = layouts.sharing(grown)
        #expect(Array(shared.keys) == ["name", "rate", "stars"] && shared == grown)
        #expect(names(shared) == names(fields(layouts, ["name", "rate", "stars"])))
    }

    /// A kind whose optional fields give nearly every listing an order of its own keeps no more than a bound.
    @Test func ordersPastTheBoundAreNotKept() {
        let layouts = FieldLayouts()
        for index in 0..<4096 { _ = fields(layouts, ["slug", "field-\(index)"]) }
        // Both held at once, so the second cannot be given the first's freed storage.
        let late = fields(layouts, ["slug", "one-too-many"]), lateAgain = fields(layouts, ["slug", "one-too-many"])
        #expect(names(late) != names(lateAgain))
        let kept = fields(layouts, ["slug", "field-7"]), keptAgain = fields(layouts, ["slug", "field-7"])
        #expect(names(kept) == names(keptAgain))
    }
}
