import CatalogueIndex
import SiteModel
import Support

/// `api/<kind>.csv`: a kind's listings as a spreadsheet (RFC 4180: comma-separated, CRLF line ends, UTF-8),
/// one row a listing, with `slug`, `url` (for kinds with pages), then every public field and derived value in the
/// JSON's order.
extension SiteRenderer {
    func csvDownload(_ collection: KindCollection) -> OutputFile {
        let schema = collection.schema
        let columns = ["slug"] + (schema.hasPages ? ["url"] : []) + schema.fields.filter { !$0.isPrivate }.map(\.name) + schema.derived.map(\.name)
        var bytes = Array(Self.csvRow(columns.map(Self.csvText)).utf8)
        for row in collection.listings.parallelMap({ listing in Self.csvRow(columns.map { Self.csvCell(listing.fields[$0]) }) }) {
            bytes.append(contentsOf: row.utf8)
        }
        return OutputFile(path: "api/\(schema.name).csv", contents: .bytes(bytes))
    }

    private static func csvRow(_ cells: [String]) -> String {
        cells.joined(separator: ",") + "\r\n"
    }

    /// Numbers as JSON writes them; text quoted when it must be; a list's items joined by "; "; a reference
    /// or a listing as its slug, an image as its URL.
    private static func csvCell(_ value: Value?) -> String {
        switch value {
        case nil, .null?: return ""
        case .int?, .decimal?, .bool?, .date?: return value!.text
        case .string(let text)?, .html(let text)?: return csvText(text)
        case .list(let items)?: return csvText(items.map { plainText($0) }.joined(separator: "; "))
        case .object?: return csvText(plainText(value!))
        }
    }

    private static func plainText(_ value: Value) -> String {
        switch value {
        case .object(let fields): return (fields["slug"] ?? fields["url"])?.text ?? fields.values.map(plainText).joined(separator: " · ")
        case .list(let items): return items.map(plainText).joined(separator: "; ")
        default: return value.text
        }
    }

    /// Quoted when it holds a comma, quote or line break. Text that a spreadsheet would take for a formula
    /// (starting with `=`, `+`, `-`, `@`, a tab or a carriage return) gets a leading `'`, as OWASP advises,
    /// so opening the file never runs what a listing says.
    private static func csvText(_ text: String) -> String {
        var text = text
        if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first) { text = "'" + text }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
