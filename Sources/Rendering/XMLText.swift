import Foundation
import SiteModel

/// Escapes text for XML element content and attribute values; used for Atom and the sitemap.
/// Escaping `<`, `>` and `&` (never CDATA) means no field content can close an element or a section.
func xmlEscaped(_ text: String) -> String {
    // Most text (every URL of the sitemap) has nothing to escape or drop, and is returned as it is.
    var scanned = text
    guard scanned.withUTF8({ nextToEscapeOrDrop(in: $0) < $0.count }) else { return text }
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar {
        case "<": escaped += "&lt;"
        case ">": escaped += "&gt;"
        case "&": escaped += "&amp;"
        case "\"": escaped += "&quot;"
        case "'": escaped += "&apos;"
        // Characters XML 1.0 forbids even escaped are dropped.
        case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": continue
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    return escaped
}

/// The offset of the first byte of UTF-8 text that may start something `xmlEscaped` changes, or the text's
/// length; eight bytes at a time, as the JSON, HTML and CSV writers scan.
private func nextToEscapeOrDrop(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
    ByteScan.next(
        in: bytes, from: 0,
        wordHolds: { word in
            ByteScan.hasByte(below: 0x20, in: word) || ByteScan.hasByte(UInt8(ascii: "<"), in: word) || ByteScan.hasByte(UInt8(ascii: ">"), in: word)
                || ByteScan.hasByte(UInt8(ascii: "&"), in: word) || ByteScan.hasByte(UInt8(ascii: "\""), in: word)
                || ByteScan.hasByte(UInt8(ascii: "'"), in: word) || ByteScan.hasByte(0xEF, in: word)
        },
        isSpecial: mayNeedEscaping)
}

/// Whether a UTF-8 byte may start something `xmlEscaped` changes: a markup character, a control character
/// other than tab and the line ends, or the first byte of U+FFFE and U+FFFF (as of other scalars).
private func mayNeedEscaping(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "&"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0xEF: return true
    case 0x09, 0x0A, 0x0D: return false
    default: return byte < 0x20
    }
}

/// A calendar date as an RFC 3339 timestamp of its first moment where the site is (`SiteConfig.timeZone`),
/// as Atom and JSON Feed want: `2026-07-01T00:00:00+01:00`, or `…Z` in UTC, and `01:00` on a day whose
/// midnight a clock change skips. Midnight UTC would put a date of a site east of Greenwich in its readers'
/// future.
func timestamp(_ date: CalendarDate, in zone: TimeZone) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    let noon = DateComponents(year: date.year, month: date.month, day: date.day, hour: 12)
    guard let start = calendar.date(from: noon).map(calendar.startOfDay) else { return "\(date)T00:00:00Z" }
    return ISO8601DateFormatter.string(from: start, timeZone: zone, formatOptions: .withInternetDateTime)
}
