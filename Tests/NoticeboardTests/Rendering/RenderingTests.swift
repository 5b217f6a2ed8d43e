import Foundation
import Mustache
import OrderedCollections
@testable import Rendering
import SiteModel
import Support
import Testing

@Suite struct RenderingTests {
    @Test func jsonKeepsKeyOrderAndEscapes() throws {
        let value: Value = .object([
            "z": .string("quote \" backslash \\ newline \n tab \t bell \u{7} é"),
            "a": .list([.int(-3), .decimal(FixedDecimal(units: 1850, scale: 2)), .bool(true), .null]),
            "d": .date(CalendarDate(year: 2026, month: 1, day: 9)!),
        ])
        let text = String(decoding: JSONWriter.bytes(value), as: UTF8.self)
        #expect(text == #"{"z":"quote \" backslash \\ newline \n tab \t bell \u0007 é","a":[-3,18.50,true,null],"d":"2026-01-09"}"# + "\n")
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]
        #expect((parsed?["z"] as? String)?.hasSuffix("é") == true)
    }

    @Test func templatesEscapeFieldTextButNotRenderedMarkdown() throws {
        let templates = try TemplateSet(sources: [
            "layout": ("templates/layout.mustache", "{{{content}}}"), "home": ("h", ""), "list": ("l", ""), "facet": ("f", ""),
            "listing": ("templates/listing.mustache", "<h1 title=\"{{listing.name}}\">{{listing.name}}</h1>{{{listing.bio_html}}}"),
        ])
        let context: Value = .object(["listing": .object(["name": .string("<script>\"x\"</script>&'"), "bio_html": .html("<p>ok</p>")])])
        #expect(templates.render(context, with: "listing") == "<h1 title=\"&lt;script&gt;&quot;x&quot;&lt;/script&gt;&amp;&#39;\">&lt;script&gt;&quot;x&quot;&lt;/script&gt;&amp;&#39;</h1><p>ok</p>")
    }

    /// A rendered file's bytes take at most an eighth more than their count in memory, not the room the
    /// renderer keeps for a large page (32 KB) or was given for content: rendered files wait for the writers
    /// in a queue bounded by the memory they hold. Bytes that fill their room are handed on as they are.
    @Test func renderedBytesHoldLittleSpareRoom() throws {
        let templates = try TemplateSet(sources: [
            "layout": ("templates/layout.mustache", "{{{content}}}"), "home": ("h", ""), "list": ("l", ""), "facet": ("f", ""),
            "listing": ("templates/listing.mustache", "<h1>{{name}}</h1>"),
        ])
        // The last two fill most of the 32 KB the renderer starts with, and most of a room given for them.
        for (repeats, room) in [(1, 0), (100, 0), (10_000, 0), (15_000, 0), (100_000, 0), (100_000, 200_000), (10, 1_000_000)] {
            let page = PageContext(["name": .string(String(repeating: "ab", count: repeats))])
            let bytes = templates.renderedBytes(page, with: "listing", room: room)
            #expect(bytes.count == 9 + 2 * repeats)
            #expect(bytes.capacity - bytes.count <= bytes.count / 8 || bytes.capacity < bytes.count + 64, "\(bytes.capacity) bytes held for \(bytes.count)")
        }
    }

    /// What compiling `sources` reports, one line each; nil when they compile.
    private func refusal(of sources: [String: (file: String, text: String)]) -> [String]? {
        do throws(BuildFailure) {
            _ = try TemplateSet(sources: sources)
            return nil
        } catch {
            return error.diagnostics.map(\.description)
        }
    }

    @Test func templateErrorsPointIntoTheTemplateFile() {
        let problems = refusal(of: [
            "layout": ("templates/layout.mustache", "<main>\n{{#content}}\n</main>\n"),
            "home": ("templates/home.mustache", "<p>\n  {{> partials/missing}}\n"),
            "list": ("templates/list.mustache", ""), "facet": ("templates/facet.mustache", ""),
        ])
        #expect(problems == [
            "templates/home.mustache:2:7: error: template 'home' includes the partial 'partials/missing', but templates/partials/missing.mustache does not exist",
            "templates/layout.mustache:2:1: error: template syntax error: {{#content}} opens a section that is never closed; close it with {{/content}}",
            "templates/listing.mustache:1:1: error: missing template: every site needs templates/listing.mustache",
        ])
    }

    /// A missing partial is found where a tag includes it, as the library reads tags: after a change of
    /// delimiters, and as a parent (`{{<name}}`), but not in a comment.
    @Test func aMissingPartialIsFoundWhereATagIncludesIt() {
        let problems = refusal(of: [
            "layout": ("templates/layout.mustache", "{{! the old header was {{> partials/header}} }}{{{content}}}"),
            "home": ("templates/home.mustache", "{{=<% %>=}}\n<p><%{listing.title%>}<%> partials/missing %></p>"),
            "list": ("templates/list.mustache", "{{<frame}}{{$body}}list{{/body}}{{/frame}}"),
            "listing": ("templates/listing.mustache", ""), "facet": ("templates/facet.mustache", ""),
        ])
        #expect(problems == [
            "templates/home.mustache:2:27: error: template 'home' includes the partial 'partials/missing', but templates/partials/missing.mustache does not exist",
            "templates/list.mustache:1:4: error: template 'list' includes the partial 'frame', but templates/frame.mustache does not exist",
        ])
    }

    /// A partial chosen by a value (`{{>*name}}`) could include itself, which would render without end, where
    /// no check can see it: it is refused wherever it stands, whatever delimiters it is written with.
    @Test func aPartialChosenByAValueIsAnError() {
        let choosing = [
            "templates/home.mustache": "<p>{{>*page.title}}</p>",
            "templates/list.mustache": "{{#kind}}\n  {{> partials/x}}{{>* kind.name }}{{/kind}}",
            "templates/facet.mustache": "{{=<% %>=}}\n<%>*listing.layout%>",
            "templates/listing.mustache": "{{<*listing.layout}}{{$body}}{{/body}}{{/*listing.layout}}",
        ]
        var sources = Dictionary(uniqueKeysWithValues: choosing.map { file, text in
            (String(file.dropFirst("templates/".count).dropLast(".mustache".count)), (file: file, text: text))
        })
        for name in ["layout", "partials/x"] { sources[name] = ("templates/\(name).mustache", "") }
        let why = "chooses its partial by a value, which Noticeboard does not do, as no check before the build could follow it "
            + "(to the names it uses, or to a partial included inside itself); include each partial by name, in a section that chooses it"
        #expect(refusal(of: sources) == [
            "templates/facet.mustache:2:5: error: '{{>*listing.layout}}' \(why)",
            "templates/home.mustache:1:8: error: '{{>*page.title}}' \(why)",
            "templates/list.mustache:2:24: error: '{{>*kind.name}}' \(why)",
            "templates/listing.mustache:1:5: error: '{{<*listing.layout}}' \(why)",
        ])
    }

    @Test func htmlEscapingMatchesSwiftMustache() {
        let library: [Character: String] = ["<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;", "'": "&#39;"]
        // Special characters beside non-ASCII text: some are Characters of their own, some are not.
        let beside = ["Łódź & <i>Kraków</i>", "é<b>", "\"\u{301}x", "\u{600}<", "<\u{200D}>", "&\u{FE0F}", "日本<語>", "'\u{1F600}'"]
        for text in TestSupport.awkwardTexts + beside {
            let expected = text.map { library[$0] ?? String($0) }.joined()
            #expect(HTMLEscaping().escapeText(text) == expected, "\(text)")
        }
    }

    /// The API documents splice each listing's encoded fields into its own document and its kind's; the bytes
    /// must be those of encoding each document whole.
    @Test func splicedJSONMatchesWholeDocuments() {
        let objects: [OrderedDictionary<String, Value>] = [
            [:], ["slug": .string("ana")], ["text": .string(TestSupport.awkwardTexts[2]), "list": .list([.int(1), .null]), "nested": .object([:])],
        ]
        for first in objects {
            for rest in objects where Set(rest.keys).isDisjoint(with: first.keys) {
                var whole = first
                whole.merge(rest) { a, _ in a }
                #expect(JSONWriter.bytes(first, followedByFieldsOf: JSONWriter.encoded(.object(rest))) == JSONWriter.bytes(.object(whole)))
                #expect(JSONWriter.bytes([:], followedByFieldsOf: JSONWriter.encoded(first, adding: rest)) == JSONWriter.bytes(.object(whole)))
            }
            for count in [0, 1, 3] {
                let items = Array(objects.prefix(count)).map { Value.object($0) }
                var whole = first
                whole["items"] = .list(items)
                #expect(JSONWriter.bytes(first, thenList: "items", of: items.map(JSONWriter.encoded)) == JSONWriter.bytes(.object(whole)))
                #expect(JSONWriter.bytes(first, thenList: "items", of: items.lazy.map(JSONWriter.encoded)) == JSONWriter.bytes(.object(whole)))
            }
        }
    }

    /// The manifest's list is encoded in runs on every core, a batch of runs at a time, into a stream; the
    /// bytes must be those of the list encoded in one go, at counts around the runs' and the batches' lengths.
    @Test func aListEncodedOnEveryCoreMatchesTheWholeDocument() {
        for count in [0, 1, 2, 4095, 4096, 4097, 10_000, 16 * 4096, 16 * 4096 + 1] {
            let items = (0..<count).map { index in Value.object(["path": .string("p\(index)"), "size": .int(Int64(index))]) }
            let head: OrderedDictionary<String, Value> = count == 1 ? [:] : ["$schema": .string("https://example.org/s.json")]
            var whole = head
            whole["files"] = .list(items)
            let streamed = ByteStream.collect { stream in
                JSONWriter.write(head, thenList: "files", count: count, encodedOnEveryCore: { JSONWriter.encoded(items[$0]) }, into: &stream)
            }
            #expect(streamed == JSONWriter.bytes(.object(whole)), "\(count) items")
        }
    }

    /// The manifest's and sync tree's file entries are written without a value tree; the bytes must be those
    /// of the object.
    @Test func fileEntriesMatchTheirObjects() {
        for path in ["api/index.json", "media/a \"b\"\\c.jpg", "cleaners/siobhán/index.html", "x\ny\u{1}"] + TestSupport.awkwardTexts {
            for size in [0, 7, 1 << 40] {
                let digest = SHA256.digest(Array(path.utf8))
                let object: Value = .object(["path": .string(path), "size": .int(Int64(size)), "sha256": .string(digest.hex)])
                let entry = JSONWriter.fileEntry(path: path, size: size, sha256: digest)
                #expect(JSONWriter.bytes([:], thenList: "e", of: [entry]) == JSONWriter.bytes([:], thenList: "e", of: [JSONWriter.encoded(object)]))
            }
        }
    }

    /// A section never closed is reported where it opens (the library stops at the end of the file): the
    /// innermost one left open, past sections that are closed, comments and triple mustaches.
    @Test func anUnclosedSectionIsFoundWhereItOpens() {
        let text = "<ul>\n{{! a {{#note}} }}{{#items}}\n  <li>{{{name}}} {{^empty}}x{{/empty}}\n  {{#tags}}<b>{{.}}</b>\n"
        let open = unclosedSection(in: text)
        #expect(open.map { "\($0.tag) \($0.name) \($0.line):\($0.column)" } == "#tags tags 4:3")
        #expect(unclosedSection(in: "{{#a}}{{/a}}") == nil)
        #expect(unclosedSection(in: "{{=<% %>=}}<%#a%>") == nil)
    }

    @Test func templatesUseTheFastEscapingAndKeepErrorLines() throws {
        let templates = try TemplateSet(sources: [
            "layout": ("templates/layout.mustache", "{{{content}}}"), "home": ("templates/home.mustache", "{{#a}}\n{{b}}\n{{/a}}\n"),
            "list": ("templates/list.mustache", ""), "listing": ("templates/listing.mustache", ""), "facet": ("templates/facet.mustache", ""),
        ])
        #expect(templates.render(.object(["a": .bool(true), "b": .string("<é>")]), with: "home") == "&lt;é&gt;\n")
        // A syntax error is reported where the library finds it in the user's own text, not one line lower.
        let text = "ok\n{{#open}}\n{{/shut}}\n"
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
}
