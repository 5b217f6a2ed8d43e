import Foundation
import Noticeboard
import SiteModel
import Testing

/// Without `--now` a build is dated today where the site is (`time_zone` in site.yaml), not where the
/// machine that builds it is: a chore board's "days since" counts the household's days.
@Suite struct BuildDateTests {
    /// UTC+14 and UTC−11: at any moment at least one of them is on another date than UTC, so a build that
    /// dated itself in UTC fails one of the two.
    @Test(arguments: ["Pacific/Kiritimati", "Pacific/Pago_Pago"])
    func aBuildIsDatedTodayWhereTheSiteIs(zoneName: String) throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        let config = site + "/content/site.yaml"
        TestSupport.write(TestSupport.read(config) + "time_zone: \(zoneName)\n", to: config)
        let zone = try #require(TimeZone(identifier: zoneName))
        let before = CalendarDate.day(in: zone)
        let report = try Noticeboard.build(BuildOptions(root: site))
        let after = CalendarDate.day(in: zone)
        let root = try TestSupport.json(TestSupport.tree(site + "/public"), "api/index.json")
        let dated = try #require(root["date"] as? String)
        #expect([before.description, after.description].contains(dated), "dated \(dated) in \(zoneName)")
        // The next build, dated the same way before it reads the site, finds nothing changed.
        if CalendarDate.day(in: zone) == after {
            #expect(report.written > 0)
            #expect(try Noticeboard.build(BuildOptions(root: site)).written == 0)
        }
    }
}
