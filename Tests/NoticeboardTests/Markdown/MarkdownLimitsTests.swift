import CCmarkGFM
import Foundation
@testable import Markdown
import SiteModel
import Testing

/// A Markdown field either breaks one of the site's limits, and is refused before rendering, or parses and
/// renders within the memory and HTML the limits allow: hostile inputs of each class that can blow up cmark-gfm's output or memory.
struct MarkdownLimitsTests {
    static let hostile: [String: String] = [
        "padded table": "|" + Array(repeating: "h", count: 249).joined(separator: "|") + "|\n|"
            + Array(repeating: "-", count: 249).joined(separator: "|") + "|\n" + String(repeating: "x\n", count: 2000),
        "aligned table": "|" + Array(repeating: "h", count: 40).joined(separator: "|") + "|\n|"
            + Array(repeating: ":-:", count: 40).joined(separator: "|") + "|\n" + String(repeating: "x\n", count: 200),
        "filled table": "|" + Array(repeating: "head", count: 10).joined(separator: "|") + "|\n|"
            + Array(repeating: "-", count: 10).joined(separator: "|") + "|\n"
            + String(repeating: "|" + Array(repeating: "cell", count: 10).joined(separator: "|") + "|\n", count: 1200),
        "table in a quote": "> |a|b|c|d|e|f|g|h|i|j|\n> |-|-|-|-|-|-|-|-|-|-|\n" + String(repeating: "> x\n", count: 1500),
        "deep quotes": (1..<400).map { String(repeating: ">", count: $0) + " q" }.joined(separator: "\n"),
        "quote line": String(repeating: ">", count: 200_000),
        "deep lists": (0..<200).map { String(repeating: "  ", count: $0) + "- x" }.joined(separator: "\n"),
        "list line": String(repeating: "- ", count: 100_000),
        "nested emphasis": String(repeating: "*a ", count: 200) + String(repeating: " b*", count: 200),
        "reference links": "[r]: https://example.org/" + String(repeating: "a", count: 5000) + "\n\n"
            + String(repeating: String(repeating: "[r] ", count: 1000) + "\n\n", count: 20),
        "entities": String(repeating: "&#x10FFFF;&quot;&amp;", count: 50_000),
        "quote marks": String(repeating: "\"", count: 200_000) + String(repeating: "<>&", count: 10_000),
        "autolinks": String(repeating: "www.a.co https://b.co a@b.co ", count: 20_000),
        "emails in long text": String(repeating: "a@b.co " + String(repeating: "x", count: 1000) + " ", count: 500),
        "run of stars": String(repeating: "*", count: 100_000),
        "run of brackets": String(repeating: "[", count: 100_000),
        "emphasis": String(repeating: String(repeating: "*a* ", count: 1000) + "\n\n", count: 100),
        "links": String(repeating: String(repeating: "[a](b) ", count: 600) + "\n\n", count: 200),
        "short lines": String(repeating: "a\n", count: 200_000),
        "raw html": String(repeating: "<b x=\"&\">", count: 50_000),
        "quotes on carriage-return lines": String(repeating: String(repeating: ">", count: 200) + " a\r\r", count: 20_000),
        "greater-than signs": String(repeating: "x>", count: 200_000),
        "runs of quotes and periods": String(repeating: "\"", count: 300_000) + String(repeating: "'", count: 300_000) + String(repeating: ".", count: 300_000),
                "quote paragraphs": String(repeating: String(repeating: ">", count: 30) + " a\n\n", count: 50_000),
    ]

    @Test(arguments: hostile.keys.sorted())
    func hostileMarkdownIsRefusedOrBounded(_ name: String) {
        let markdown = Self.hostile[name]!
        let limits = MarkdownLimits.standard
        guard MarkdownCheck(limits: limits).overrun(markdown) == nil else { return }
        let size = markdown.utf8.count
        let held = try! CmarkSession.withDocument(markdown, options: CMARK_OPT_DEFAULT) { _ in CmarkSession.peak }
        #expect(held <= limits.maxMemoryBytes(forSource: size), "\(name)")
        for allowRawHTML in [false, true] {
            let html = MarkdownRenderer(allowRawHTML: allowRawHTML).html(markdown)
            #expect(html.utf8.count <= limits.maxHTMLBytes(forSource: size), "\(name)")
        }
    }

    /// The bound the check compares with the limit is never below what cmark-gfm writes.
    @Test(arguments: hostile.keys.sorted() + ["everyday"])
    func htmlBoundIsAtLeastTheHTML(_ name: String) throws {
        let markdown = Self.hostile[name].map { String($0.prefix(20_000)) } ?? EnrichmentTests.sample
        for allowRawHTML in [false, true] {
            let options = allowRawHTML ? CMARK_OPT_UNSAFE : CMARK_OPT_DEFAULT
            let bound = try CmarkSession.withDocument(markdown, options: options) { DocumentShape($0.document).htmlBytes }
            #expect(MarkdownRenderer(allowRawHTML: allowRawHTML).html(markdown).utf8.count <= bound, "\(name)")
        }
    }

    @Test func eachClassIsRefusedByTheLimitThatNamesIt() {
        let check = MarkdownCheck(limits: .standard)
        func refusal(_ name: String, _ check: MarkdownCheck = check) -> String? {
            switch check.overrun(Self.hostile[name]!) {
            case .paragraphMarks?: "paragraph marks"
            case .nesting?: "nesting"
            case .tableCells?: "table cells"
            case .html?: "html"
            case .memory?: "memory"
            case nil: nil
            }
        }
        #expect(refusal("table in a quote") == "memory")
        #expect(refusal("filled table") == "table cells")
        #expect(refusal("padded table") == "memory")
        #expect(refusal("deep quotes") == "nesting")
        #expect(refusal("deep lists") == "nesting")
        #expect(refusal("nested emphasis") == "nesting")
        #expect(refusal("quote line") == "nesting")
        #expect(refusal("run of stars") == "paragraph marks")
        #expect(refusal("reference links") == "memory")
        #expect(refusal("emails in long text") == "memory")
        let strict = MarkdownCheck(limits: MarkdownLimits(maxNesting: 32, maxTableCells: 10_000, maxHTMLGrowth: 1, maxMemoryGrowth: 50))
        #expect(refusal("greater-than signs", strict) == "html")
        #expect(check.overrun(Self.hostile["deep quotes"]!) == .nesting(399, limit: 32))
    }

    @Test func everydayMarkdownPasses() {
        #expect(MarkdownCheck(limits: .standard).overrun(EnrichmentTests.sample) == nil)
        let longPage = String(repeating: "A paragraph with **bold**, *emphasis*, a [link](https://example.org/) and `code`.\n\n", count: 10_000)
        #expect(MarkdownCheck(limits: .standard).overrun(longPage) == nil)
    }
}
