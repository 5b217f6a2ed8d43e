import Foundation
import OrderedCollections
import SiteModel
import Testing

/// A 430,000-listing site holds about ten million values at once, so their width is part of its peak memory.
@Suite struct ValueLayoutTests {
    /// The widest payload is a string's 16 bytes, and the case takes one more: 24 with alignment. An object in
    /// place (24 bytes) or a date of three `Int`s made every value 32.
    @Test func aValueIsTwentyFourBytesWide() {
        #expect(MemoryLayout<Value>.stride == 24)
        #expect(MemoryLayout<CalendarDate>.size <= 16)
    }

    /// Dates held small keep their fields, order and day arithmetic, from the first year to the last.
    @Test func datesKeepTheirFieldsAndArithmetic() throws {
        let first = try #require(CalendarDate(year: 1, month: 1, day: 1))
        let last = try #require(CalendarDate(year: 9999, month: 12, day: 31))
        #expect(last.year == 9999 && last.month == 12 && last.day == 31 && last.description == "9999-12-31")
        #expect(CalendarDate(dayNumber: first.dayNumber) == first && CalendarDate(dayNumber: last.dayNumber) == last)
        #expect(last.adding(days: 1).description == "10000-01-01")
        let leap = try #require(CalendarDate(parsing: "2024-02-29"))
        #expect(leap.adding(days: 1) == CalendarDate(year: 2024, month: 3, day: 1) && leap < leap.adding(days: 1))
        #expect(CalendarDate(year: 2023, month: 2, day: 29) == nil && CalendarDate(year: 0, month: 1, day: 1) == nil)
    }

    /// The day at an instant depends on the zone: one instant is the 5th in Los Angeles and London, the 6th in
    /// Auckland; days before 1970 count back.
    @Test func theDayAtAnInstantIsTheZones() throws {
        let instant = Date(timeIntervalSince1970: 1_764_977_400)  // 2025-12-05T23:30:00Z
        func day(_ zone: String, _ at: Date = instant) throws -> String {
            CalendarDate.day(in: try #require(TimeZone(identifier: zone)), at: at).description
        }
        #expect(try day("UTC") == "2025-12-05" && day("Europe/London") == "2025-12-05")
        #expect(try day("Pacific/Auckland") == "2025-12-06" && day("America/Los_Angeles") == "2025-12-05")
        #expect(try day("America/Los_Angeles", instant.addingTimeInterval(9 * 3600)) == "2025-12-06")
        #expect(try day("UTC", Date(timeIntervalSince1970: -1)) == "1969-12-31" && day("UTC", Date(timeIntervalSince1970: 0)) == "1970-01-01")
    }

    /// A boxed object reads, compares and hashes as one in place did.
    @Test func objectsCompareByTheirFields() {
        let object: Value = .object(["name": .string("Ana"), "tags": .list([.string("oven")])])
        let same: Value = .object(["name": .string("Ana"), "tags": .list([.string("oven")])])
        #expect(object == same && object.hashValue == same.hashValue && object["name"] == .string("Ana"))
        #expect(object != .object(["name": .string("Ana")]))
    }
}
