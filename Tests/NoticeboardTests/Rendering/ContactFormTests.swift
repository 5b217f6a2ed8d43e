import Foundation
import Testing

/// The contact path: the example site's `contact:` puts a contact-request form on every listing page of the
/// kinds it names (their own templates and the default one alike), posting the listing's kind and slug.
@Suite struct ContactFormTests {
    @Test func everyCleanerAndRentalPageHasTheFormWithItsSlug() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site)
        var checked = 0
        for kind in ["cleaners", "rentals"] {
            let slugs = try FileManager.default.contentsOfDirectory(atPath: TestSupport.repository + "/content/" + kind).map { String($0.dropLast(5)) }
            #expect(slugs.count >= 10)
            for slug in slugs {
                let page = try #require(files["\(kind)/\(slug)/index.html"]).text
                let form = try #require(Self.form(in: page), "no contact form on \(kind)/\(slug)/")
                #expect(form.contains(#"action="https://forms.example.org/noticeboard-west""#))
                #expect(form.contains(#"<input type="hidden" name="kind" value="\#(kind)">"#))
                #expect(form.contains(#"<input type="hidden" name="slug" value="\#(slug)">"#))
                for (name, autocomplete) in [("name", "name"), ("email", "email"), ("phone", "tel")] {
                    #expect(form.contains(#"<label for="contact-\#(name)">"#) && form.contains(#"autocomplete="\#(autocomplete)""#))
                }
                #expect(form.contains(#"<textarea id="contact-message" name="message" rows="5" required"#))
                checked += 1
            }
        }
        #expect(checked >= 28)
        // Owners are not in `contact.kinds`; their pages have no form.
        #expect(try Self.form(in: #require(files["owners/aisling-ryan/index.html"]).text) == nil)
    }

    @Test func theDefaultListingTemplateShowsTheFormToo() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        try FileManager.default.removeItem(atPath: site + "/templates/rentals/listing.mustache")
        let files = try TestSupport.buildTree(site)
        let page = try #require(files["rentals/kayak/index.html"]).text
        #expect(page.contains(#"<dl class="fields">"#), "the default template rendered the page")
        #expect(Self.form(in: page)?.contains(#"name="slug" value="kayak""#) == true)
    }

    static func form(in page: String) -> String? {
        guard let start = page.range(of: #"<form class="contact-form""#), let end = page.range(of: "</form>", range: start.upperBound..<page.endIndex)
        else { return nil }
        return String(page[start.lowerBound..<end.upperBound])
    }
}

extension Data {
    fileprivate var text: String { String(decoding: self, as: UTF8.self) }
}
