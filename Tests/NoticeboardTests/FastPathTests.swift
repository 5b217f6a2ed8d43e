import Foundation
@testable import CatalogueIndex
import Mustache
import OrderedCollections
@testable import Rendering
import SiteModel
import Support
import Testing

/// The speed work's fast paths must give exactly what the slow code they stand in for gives.
@Suite struct FastPathTests {
    static let awkwardTexts = [
        "", "plain words", "Oven & hob <cleaning> \"quoted\" it's", "Siobhán Ó Súilleabháin", "€18.50 an hour",
        "e\u{301}cole and \"\u{301} a quote with a combining accent", "line\r\nbreaks\tand\ttabs", "ΣΟΦΊΑ Ωραία",
        "Łukasz & Zofia 'o' <b>", "emoji 👩‍👩‍👧 family", " leading and trailing ", "a \u{301}b", "İstanbul DŽ ǅ",
        "C++ & C# 1,000.5", "Olena Коваленко: 5/5!",
    ]

    @Test func htmlEscapingMatchesSwiftMustache() {
        let library: [Character: String] = ["<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;", "'": "&#39;"]
        for text in Self.awkwardTexts {
            let expected = text.map { library[$0] ?? String($0) }.joined()
            #expect(HTMLEscaping().escapeText(text) == expected, "\(text)")
        }
    }

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

    /// The API documents splice each listing's encoded fields into its own document and its kind's; the bytes
    /// must be those of encoding each document whole.
    @Test func splicedJSONMatchesWholeDocuments() {
        let objects: [OrderedDictionary<String, Value>] = [
            [:], ["slug": .string("ana")], ["text": .string(Self.awkwardTexts[2]), "list": .list([.int(1), .null]), "nested": .object([:])],
        ]
        for first in objects {
            for rest in objects where Set(rest.keys).isDisjoint(with: first.keys) {
                var whole = first
                whole.merge(rest) { a, _ in a }
                #expect(JSONWriter.bytes(first, followedByFieldsOf: JSONWriter.encoded(.object(rest))) == JSONWriter.bytes(.object(whole)))
            }
            for count in [0, 1, 3] {
                let items = Array(objects.prefix(count)).map { Value.object($0) }
                var whole = first
                whole["items"] = .list(items)
                #expect(JSONWriter.bytes(first, thenList: "items", of: items.map(JSONWriter.encoded)) == JSONWriter.bytes(.object(whole)))
            }
        }
    }

    @Test func templatesUseTheFastEscapingAndKeepErrorLines() throws {
        let templates = try TemplateSet(sources: [
            "layout": ("templates/layout.mustache", "{{{content}}}"), "home": ("templates/home.mustache", "{{#a}}\n{{b}}\n{{/a}}\n"),
            "list": ("templates/list.mustache", ""), "listing": ("templates/listing.mustache", ""), "facet": ("templates/facet.mustache", ""),
        ])
        #expect(templates.render(.object(["a": .bool(true), "b": .string("<é>")]), with: "home") == "&lt;é&gt;\n")
        // A syntax error is reported where the library finds it in the user's own text, not one line lower.
        let text = "ok\n{{#open}}\n{{x}}\n"
        var expectedLine = 0
        do {
            _ = try MustacheTemplate(string: text)
        } catch let error as MustacheTemplate.ParserError {
            expectedLine = error.context.lineNumber
        } catch {}
        #expect(expectedLine > 1)
        do {
            _ = try TemplateSet(sources: ["layout": ("templates/layout.mustache", text)])
            Issue.record("an unclosed section should not compile")
        } catch {
            #expect(error.diagnostics.first { $0.location?.file == "templates/layout.mustache" }?.location?.line == expectedLine)
        }
    }

    @Test func asciiSlugsNeedNoTransliterator() {
        #expect(Slug.from(text: "Outdoor & Camping 2") == "outdoor-camping-2")
        #expect(Slug.from(fileName: "Siobhán Ó.yaml") == "siobhan-o")
        #expect(Slug.from(text: "Olena Коваленко") == Slug.from(text: "olena ") + "-kovalenko")
    }

    @Test func plainTextComparesAsFoundationDoes() {
        var generator = SplitMix64(seed: 42)
        let alphabet = Array("abcxyzABCXYZ -,.'&()_~!".utf8) + Array("é9".utf8)
        func text() -> String {
            String(decoding: (0..<Int(generator.next() % 6)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }, as: UTF8.self)
        }
        for _ in 0..<5000 {
            let (x, y) = (text(), text())
            #expect(compareText(x, y) == x.compare(y, options: .numeric), "\(x) vs \(y)")
        }
    }
}
