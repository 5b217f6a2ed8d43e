import Foundation
import SiteModel
import Synchronization

/// Dates as pages show them, in the site's language: `en-IE` → "23 November 2026". A fixed locale, calendar
/// and time zone (UTC: a `CalendarDate` is a day, not an instant), so the text is the same on every build.
///
/// Each day's text is formatted once and remembered: cards and pages show the same few thousand dates
/// tens of thousands of times, and formatting one through ICU costs about as much as rendering a card.
final class DateText: Sendable {
    private let style: Date.FormatStyle
    private let made = Mutex<[Int: String]>([:])

    init(language: String) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        style = Date.FormatStyle(date: .long, time: .omitted, locale: Locale(identifier: language), calendar: calendar, timeZone: .gmt)
    }

    func text(_ date: CalendarDate) -> String {
        let day = date.dayNumber
        if let text = made.withLock({ $0[day] }) { return text }
        let text = Date(timeIntervalSince1970: Double(day) * 86_400).formatted(style)
        made.withLock { $0[day] = text }
        return text
    }
}
