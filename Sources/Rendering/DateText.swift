import Foundation
import SiteModel

/// Dates as pages show them, in the site's language: `en-IE` → "23 November 2026". A fixed locale, calendar
/// and time zone (UTC: a `CalendarDate` is a day, not an instant), so the text is the same on every build.
struct DateText: Sendable {
    private let style: Date.FormatStyle

    init(language: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        style = Date.FormatStyle(date: .long, time: .omitted, locale: Locale(identifier: language), calendar: calendar, timeZone: .gmt)
    }

    func text(_ date: CalendarDate) -> String {
        Date(timeIntervalSince1970: Double(date.dayNumber) * 86_400).formatted(style)
    }
}
