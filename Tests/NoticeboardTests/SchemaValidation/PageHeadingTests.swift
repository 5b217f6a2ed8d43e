import SchemaValidation
import Testing

/// A page shows its title as its heading: a body that starts with a `#` heading of its own is warned about
/// there, and a `##` heading, or one after text, is not.
@Suite struct PageHeadingTests {
    func warnings(_ body: String) -> [String] {
        let text = "---\ntitle: About\n---\n" + body
        let (page, problems) = decodePage(Array(text.utf8), file: "content/pages/about.md", slug: "about")
        #expect(page != nil)
        return problems.map { "\($0.location!.line):\($0.location!.column) \($0.severity)" }
    }

    @Test func aLeadingTopHeadingIsWarnedAbout() {
        #expect(warnings("# About us\n\nWe are…\n") == ["4:1 warning"])
        #expect(warnings("\n\n  #\tAbout\n") == ["6:3 warning"])
        #expect(warnings("## Who we are\n").isEmpty)
        #expect(warnings("We are…\n\n# Later\n").isEmpty)
        #expect(warnings("#hashtag in a line\n").isEmpty)
        #expect(warnings("    # an indented code block\n").isEmpty)
    }
}
