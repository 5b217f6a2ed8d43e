import CatalogueIndex
import Mustache
@testable import Rendering
import SiteModel
import Testing

/// A list page's `pagination`: every page of the list in `pages`, made as a template walks it, and the same
/// bytes as the value made ahead.
@Suite struct PaginationValueTests {
    static let template = """
        {{pagination.number}}/{{pagination.count}} {{#pagination.prev}}<{{.}}{{/pagination.prev}}\
        {{#pagination.pages}} {{number}}{{#current}}*{{/current}}{{#first}}^{{/first}}{{/pagination.pages}} |\
        {{#pagination.window}}{{#gap}}…{{/gap}}{{number}}{{/pagination.window}}{{#pagination}} {{is_paged}}{{/pagination}}
        """

    /// Each page's `pages` links every page, its own marked current, and makes none of them until walked:
    /// made ahead for each page, the links grew with the square of a list's length.
    @Test func everyPageLinksEveryPageMadeAsWalked() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let contexts = try RenderShareTests.renderer(in: folder).contexts
        let paginations = Pagination.pages(of: Array(0..<95), size: 10, basePath: "cleaners")
        let values = contexts.paginationValues(paginations, links: contexts.paginationLinks(count: 10, basePath: "cleaners"))
        #expect(values.count == 10)
        for (pagination, value) in zip(paginations, values) {
            guard case .madeList(let pages)? = value.context.templateField(named: "pages") else {
                Issue.record("page \(pagination.number): pages is not made as it is walked")
                continue
            }
            #expect(pages.map { $0["number"] } == (1...10).map { .int(Int64($0)) })
            #expect(pages.map { $0["current"] } == (1...10).map { .bool($0 == pagination.number) })
            // Render keys take the stand-in they took when `pages` was made ahead: the fields in their order, `pages`
            // as the digest of the links as they look on other pages (`number` says which one is current).
            let others = pages.map { link in Value.object(["number": link["number"]!, "path": link["path"]!, "current": .bool(false)]) }
            let context = value.context
            #expect(context["prev"] == (pagination.number == 1 ? Value.null : pages[pagination.number - 2]["path"]!))
            #expect(context["next"] == (pagination.number == 10 ? Value.null : pages[pagination.number]["path"]!))
            #expect(
                value.keyStandIn == .object([
                    "number": .int(Int64(pagination.number)), "count": .int(10), "is_paged": .bool(true), "prev": context["prev"]!,
                    "next": context["next"]!, "pages": .string(RenderKey.digest(of: .list(others))),
                ]))
        }
    }

    /// Rendered, a page's pagination writes what the value made ahead writes, through the library too.
    @Test func aPagesPaginationRendersAsItsValue() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let contexts = try RenderShareTests.renderer(in: folder).contexts
        let templates = try TemplateRendererTests.templateSet(Self.template)
        HTMLEscaping.registered
        var library = MustacheLibrary()
        for (name, source) in TemplateRendererTests.sources(Self.template) {
            library.register(try MustacheTemplate(string: HTMLEscaping.pragma + source.text), named: name)
        }
        for count in [1, 9, 40] {
            let paginations = Pagination.pages(of: Array(0..<count), size: 4, basePath: "rentals")
            let links = contexts.paginationLinks(count: paginations[0].count, basePath: "rentals")
            for value in contexts.paginationValues(paginations, links: links) {
                var page = PageContext(["title": .string("List")])
                page.set("pagination", value)
                let madeAhead = page.value
                #expect(madeAhead["pagination"]?["pages"]?.listValue?.count == paginations.count)
                let rendered = templates.render(page, with: "case")
                #expect(rendered == templates.render(madeAhead, with: "case"))
                #expect(rendered == library.render(madeAhead, withTemplate: "case"))
                #expect(rendered.hasPrefix("\(value.keyStandIn["number"]?.text ?? "")/\(paginations.count) "))
            }
        }
    }
}
