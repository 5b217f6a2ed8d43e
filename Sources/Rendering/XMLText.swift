/// Escapes text for XML element content and attribute values; used for Atom and the sitemap.
/// Escaping `<`, `>` and `&` (never CDATA) means no field content can close an element or a section.
func xmlEscaped(_ text: String) -> String {
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

/// A calendar date as an RFC 3339 timestamp at midnight UTC, as Atom and JSON Feed want.
func timestamp(_ date: CalendarDate) -> String { "\(date)T00:00:00Z" }

import SiteModel
