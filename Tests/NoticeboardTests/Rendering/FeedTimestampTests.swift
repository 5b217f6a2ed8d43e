import Foundation
@testable import Rendering
import SiteModel
import Testing

/// Feed dates are midnight where the site is: at midnight UTC, a date of a site east of Greenwich would be
/// in its readers' future for hours.
@Suite struct FeedTimestampTests {
    @Test func aDateIsItsMidnightInTheSitesZone() throws {
        func stamp(_ date: String, _ zone: String) throws -> String {
            timestamp(try #require(CalendarDate(parsing: date[...])), in: try #require(TimeZone(identifier: zone)))
        }
        #expect(try stamp("2026-07-01", "UTC") == "2026-07-01T00:00:00Z")
        #expect(try stamp("2026-01-15", "Europe/Dublin") == "2026-01-15T00:00:00Z")
        #expect(try stamp("2026-07-01", "Europe/Dublin") == "2026-07-01T00:00:00+01:00")
        #expect(try stamp("2026-12-05", "Pacific/Auckland") == "2026-12-05T00:00:00+13:00")
        #expect(try stamp("2026-01-15", "America/New_York") == "2026-01-15T00:00:00-05:00")
        #expect(try stamp("2026-01-15", "Asia/Kolkata") == "2026-01-15T00:00:00+05:30")
        // Havana's clocks skip from midnight to one on 8 March 2026: the day starts at one.
        #expect(try stamp("2026-03-08", "America/Havana") == "2026-03-08T01:00:00-04:00")
    }
}
