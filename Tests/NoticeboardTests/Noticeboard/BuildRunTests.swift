import Foundation
@testable import Noticeboard
import OutputWriter
import Rendering
import SiteModel
import Testing

/// What a build holds of the last build's record, and for how long.
@Suite struct BuildRunTests {
    /// A build that writes holds the last record's listing versions apart from the record, which the output's
    /// bookkeeping keeps to the end, until `track` takes them (`LiveSiteTests` checks the dates they give).
    @Test func aBuildThatWritesHoldsTheLastVersionsApartUntilTaken() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let options = BuildOptions(root: site, now: TestSupport.now)
        _ = try Noticeboard.build(options)
        let joao = site + "/content/cleaners/joao-ferreira.yaml"
        TestSupport.write(TestSupport.read(joao).replacingOccurrences(of: "hourly_rate: 18.00", with: "hourly_rate: 18.75"), to: joao)

        var run = try BuildRun(options, keepingSite: false, waiting: {})
        #expect(run.lastRecord?.versions.isEmpty == true && run.recorded?.versions.isEmpty == true)
        #expect(run.lastRecord?.inputs.count == 0 && run.recorded?.outputs.isEmpty == false)
        let last = run.takeLastVersions()
        #expect(!last.isEmpty && run.takeLastVersions().isEmpty)
    }

    /// A run that finds nothing changed stops before `track`: a kept site starts from the whole record, versions and all.
    @Test func aKeptSiteThatFindsNothingChangedKeepsTheWholeRecord() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let options = BuildOptions(root: site, now: TestSupport.now)
        _ = try Noticeboard.build(options)
        let run = try BuildRun(options, keepingSite: true, waiting: {})
        #expect(run.unchangedSummary != nil)
        #expect(run.previous?.versions.isEmpty == false && run.previous?.inputs.count == run.inputs.count)
    }
}
