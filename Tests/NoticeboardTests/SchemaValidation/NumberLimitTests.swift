import Foundation
import Noticeboard
import SiteModel
import Testing

/// Numbers from input stay within ±(2^53 − 1), and every computation past it is a located error, never a
/// crash: in a build, and in `serve`, in place or not, which keeps the last good site.
@Suite struct NumberLimitTests {
    @Test func decimalsWhoseUnitsOverflowAreNotNumbers() {
        // 9 × 10^15 at scale 4 is 9 × 10^19 units, past Int64: parsing used to trap.
        #expect(FixedDecimal(parsing: "9000000000000000", scale: 4) == nil)
        #expect(FixedDecimal(parsing: "922337203685477580.8", scale: 1) == nil)
        #expect(FixedDecimal(parsing: "-92233720368547758.08", scale: 2) == nil)
        #expect(FixedDecimal(parsing: "92233720368547758.07", scale: 2)?.units == Int64.max)
        #expect(FixedDecimal(parsing: "18.505", scale: 2)?.units == 1851)
    }

    @Test func schemaBoundsAreWrittenAsJSONNumbersWithoutOverflow() {
        // A bound with a fraction was written as its millionths, which pass Int64 from 9.2 × 10^12.
        #expect(Value.number(10_000_000_000_000.5) == .decimal(FixedDecimal(units: 1_000_000_000_000_050, scale: 2)))
        #expect(Value.number(-9_007_199_254_740_991) == .int(-9_007_199_254_740_991))
        #expect(Value.number(4.5) == .decimal(FixedDecimal(units: 4_500_000, scale: 6)))
    }

    @Test func aSchemaBoundWithAFractionBuilds() throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        let schema = site + "/content/schemas/things.yaml"
        TestSupport.write(
            TestSupport.read(schema).replacingOccurrences(of: "minimum: 0, maximum: 100}", with: "minimum: -10000000000000.5, maximum: 9007199254740991}"),
            to: schema)
        _ = try Noticeboard.build(BuildOptions(root: site, now: LiveSiteTests.now))
        #expect(TestSupport.read(site + "/public/api/schema/things.listing.json").contains("\"minimum\":-10000000000000.50"))
    }

    /// An edit built in place computes the listing's derived fields again; one past the limit fails that
    /// build at the number, leaves the last good site, and the next good edit is built in place again.
    @Test func anOverflowInPlaceKeepsTheLastGoodSite() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let schema = site + "/content/schemas/cleaners.yaml", aoife = site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(
            TestSupport.read(schema) + "  rate_per_review: {op: ratio, numerator: hourly_rate, denominator: review_count, scale: 9}\n",
            to: schema)
        let live = LiveSite(options: BuildOptions(root: site, now: LiveSiteTests.now))
        _ = try live.build()
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 19.50", with: "hourly_rate: 19.75"), to: aoife)
        _ = try live.build()

        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 19.75", with: "hourly_rate: 90071992547409.91"), to: aoife)
        let before = TestSupport.tree(site + "/public")
        #expect {
            try live.build()
        } throws: { error in
            "\(error)".hasPrefix("content/cleaners/aoife-byrne.yaml:3:14: error: 'hourly_rate' / 'review_count', kept to 9 fraction digits, takes derived field 'rate_per_review'")
        }
        #expect(TestSupport.tree(site + "/public") == before)

        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "hourly_rate: 90071992547409.91", with: "hourly_rate: 21.00"), to: aoife)
        #expect(try live.build().stages.stages.map(\.name) == LiveSiteTests.inPlaceStages)
        #expect(TestSupport.read(site + "/public/api/cleaners/aoife-byrne.json").contains("\"rate_per_review\":7.000000000"))
    }
}
