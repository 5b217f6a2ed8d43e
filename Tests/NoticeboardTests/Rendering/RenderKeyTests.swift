import Foundation
@testable import Rendering
import SiteModel
import Testing

/// A render key stands for the bytes a page renders to (`RenderKey`, `PageContext`).
@Suite struct RenderKeyTests {
    /// A render key stands for the bytes a page renders to: contexts that differ in any way, even only in how a
    /// text is split or whether it is HTML, must get different keys; equal ones the same key.
    @Test func renderKeysTellContextsApart() {
        let contexts: [Value] = [
            .null, .bool(false), .bool(true), .int(0), .int(1), .string(""), .string("1"), .html("1"), .string("ab"),
            .list([.string("ab"), .string("")]), .list([.string("a"), .string("b")]), .list([.list([])]), .list([]),
            .object([:]), .object(["a": .string("b")]), .object(["b": .string("a")]), .object(["a": .html("b")]),
            .object(["a": .null, "b": .null]), .object(["b": .null, "a": .null]),
            .decimal(FixedDecimal(units: 1850, scale: 2)), .decimal(FixedDecimal(units: 185, scale: 1)),
            .date(CalendarDate(year: 2026, month: 1, day: 9)!), .date(CalendarDate(year: 2026, month: 9, day: 1)!),
        ]
        let keys = contexts.map { RenderKey.of(fingerprint: "f", template: "t", context: $0) }
        #expect(Set(keys).count == contexts.count)
        #expect(keys == contexts.map { RenderKey.of(fingerprint: "f", template: "t", context: $0) })
        #expect(RenderKey.of(fingerprint: "f", template: "t2", context: .null) != keys[0])
        #expect(RenderKey.of(fingerprint: "f2", template: "t", context: .null) != keys[0])
        #expect(RenderKey.of(fingerprint: "ft", template: "", context: .null) != RenderKey.of(fingerprint: "f", template: "t", context: .null))
    }

    /// A stand-in replaces its field's value in the key, tagged apart from any value, so a context keyed through
    /// stand-ins never shares a key with one keyed by value; fields without one are keyed as before.
    @Test func renderKeyStandInsReplaceOnlyTheirField() {
        let context: Value = .object(["kind": .string("k"), "listings": .list([.string("card")])])
        let plain = RenderKey.of(fingerprint: "f", template: "t", context: context)
        let digest = Value.string(RenderKey.digest(of: .list([.string("card")])))
        let standIn = RenderKey.of(fingerprint: "f", template: "t", context: context, standIns: ["listings": digest])
        #expect(standIn != plain)
        #expect(RenderKey.of(fingerprint: "f", template: "t", context: .object(["kind": .string("k"), "listings": digest])) != standIn)
        #expect(RenderKey.of(fingerprint: "f", template: "t", context: context, standIns: ["absent": digest]) == plain)
        let otherKind: Value = .object(["kind": .string("j"), "listings": .list([.string("card")])])
        #expect(RenderKey.of(fingerprint: "f", template: "t", context: otherKind, standIns: ["listings": digest]) != standIn)
        #expect(RenderKey.digest(of: .list([.string("card")])) != RenderKey.digest(of: .list([.html("card")])))
    }

    /// A list digested an item at a time has the digest of the whole list, past the size at which its bytes
    /// are handed on in parts, and any item changed changes it.
    @Test func aListDigestedItemByItemMatchesTheWholeList() {
        for count in [0, 1, 3000] {
            let items = (0..<count).map { index in Value.list([.string("card \(index) " + String(repeating: "x", count: 40)), .object(["lat": .string("\(index)")])]) }
            #expect(RenderKey.digest(ofListOf: count) { items[$0] } == RenderKey.digest(of: .list(items)))
        }
        let items = (0..<3000).map { Value.int(Int64($0)) }
        #expect(RenderKey.digest(ofListOf: 3000) { $0 == 2999 ? .int(-1) : items[$0] } != RenderKey.digest(of: .list(items)))
        #expect(RenderKey.digest(ofListOf: 2999) { items[$0] } != RenderKey.digest(of: .list(items)))
    }

    /// Card digests made ahead are kept by position in the list they were made for. A card asked for at a
    /// position that holds another listing, or past the list, gets its own digest, never that position's.
    @Test func cardDigestsAreTheirOwnListingsWhereverAskedFor() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let renderer = try RenderShareTests.renderer(in: folder)
        let collection = try #require(renderer.catalogue.kinds.first { $0.schema.name == "cleaners" })
        let listings = collection.listings, schema = collection.schema, contexts = renderer.contexts
        try #require(listings.count > 2)
        let own = listings.map { contexts.cardDigest($0, schema: schema).hex }
        #expect(Set(own).count == listings.count)
        let made = CardDigests(listings, schema: schema, contexts: contexts)
        for (position, listing) in listings.enumerated() {
            #expect(made.digest(of: listing, at: position, schema: schema, contexts: contexts) == own[position])
            #expect(made.digest(of: listing, at: (position + 1) % listings.count, schema: schema, contexts: contexts) == own[position])
            #expect(made.digest(of: listing, at: listings.count + position, schema: schema, contexts: contexts) == own[position])
            #expect(CardDigests.none.digest(of: listing, at: position, schema: schema, contexts: contexts) == own[position])
        }
    }

    /// An owner's page takes the cards of the listings it gathers into its key as their digests, as list pages
    /// do: the ones made for the render where they were, the cards' own otherwise, which are the same.
    @Test func aListingPagesGatheredCardsGoInItsKeyAsTheirDigests() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let renderer = try RenderShareTests.renderer(in: folder)
        let contexts = renderer.contexts
        let owners = try #require(renderer.catalogue.collection("owners")), rentals = try #require(renderer.catalogue.collection("rentals"))
        let made = CardDigests(rentals.listings, schema: rentals.schema, contexts: contexts)
        var checked = 0
        for owner in owners.listings {
            let items = owner.fields["items"]?.listValue ?? []
            let shown = items.compactMap { item in rentals.listings.first { $0.slug == item["slug"]?.text } }
            let withMade = contexts.gatheredCards(owner, schema: owners.schema) { $0.schema.name == "rentals" ? made : .none }
            let withNone = contexts.gatheredCards(owner, schema: owners.schema) { _ in .none }
            let digests = shown.map { Value.string(contexts.cardDigest($0, schema: rentals.schema).hex) }
            #expect(withMade.keyStandIn == .object(["items": .list(digests)]))
            #expect(withNone.keyStandIn == withMade.keyStandIn)
            #expect(withMade.value == .object(["items": .list(shown.map { contexts.card($0, schema: rentals.schema, firstScreen: false) })]))
            if !shown.isEmpty { checked += 1 }
        }
        #expect(checked >= 2)
    }
}
