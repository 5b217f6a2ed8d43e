import Foundation
import Noticeboard
import SiteModel
import Testing

/// Text fields an app fills in declare their placeholders (the example's safe-arrival messages).
@Suite struct PlaceholderTests {
    @Test func alertTemplatesKeepTheirPlaceholders() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let files = try TestSupport.buildTree(site, now: TestSupport.now)
        let alerts = try TestSupport.json(files, "api/alerts/templates.json")
        let messages = try #require(alerts["messages"] as? [[String: Any]])
        #expect(messages.map { $0["name"] as? String } == ["arrived", "running-late", "check-in-missed"])
        #expect(messages[0]["text_html"] as? String == "<p>Hi {{contact}}, I got to <strong>{{place}}</strong> safely.</p>\n")
        // A placeholder the app does not fill is a located error.
        let file = site + "/content/alerts/templates.yaml"
        TestSupport.write(TestSupport.read(file).replacingOccurrences(of: "Hi {{contact}}, I got", with: "Hi {{contact_name}}, I got"), to: file)
        do throws(BuildFailure) {
            _ = try Noticeboard.build(BuildOptions(root: site, now: TestSupport.now))
            Issue.record("an unknown placeholder was accepted")
        } catch {
            #expect(error.diagnostics.map(\.description) == [
                "content/alerts/templates.yaml:4:11: error: 'messages[1].text' uses the placeholder {{contact_name}}; the app fills in only {{contact}}, {{place}}",
            ])
        }
    }
}
