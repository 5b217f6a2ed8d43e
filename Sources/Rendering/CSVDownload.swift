import CatalogueIndex
import SiteModel
import Support

/// `api/<kind>.csv`: a kind's listings as a spreadsheet (RFC 4180: comma-separated, CRLF line ends, UTF-8),
/// one row a listing, with `slug`, `url` (for kinds with pages), then every public field and derived value in the
/// JSON's order.
extension SiteRenderer {
    /// The download, made as it is written (`ByteStream`); `made` is given where each listing's row lies in it.
    func csvDownload(_ collection: KindCollection, made: @escaping @Sendable (ItemSpans) -> Void) -> OutputFile {
        OutputFile(path: Self.csvDownloadPath(collection.schema), contents: .streamed { made(writeCSVDownload(collection, into: &$0)) })
    }

    /// Writes the download into `output`; returns where each listing's row lies in it.
    func writeCSVDownload(_ collection: KindCollection, into output: inout some ByteSink) -> ItemSpans {
        let columns = Self.csvColumns(collection.schema)
        var header: [UInt8] = []
        Self.appendRow(columns.map { Value.string($0) }, to: &header)
        output.append(contentsOf: header)
        var spans = ItemSpans()
        let listings = collection.listings
        // Rows are made on every core a run at a time, so that only one run's rows are held beside the download.
        for run in listings.indices.runs(of: Self.rowsPerRun) {
            for row in Array(run).parallelMap({ Self.csvRow(listings[$0], columns: columns) }) {
                spans.append(row, to: &output)
            }
        }
        return spans
    }

    static let rowsPerRun = 4_096

    static func csvDownloadPath(_ schema: KindSchema) -> String { "api/\(schema.name).csv" }

    static func csvColumns(_ schema: KindSchema) -> [String] {
        ["slug"] + (schema.hasPages ? ["url"] : []) + schema.fields.filter { !$0.isPrivate }.map(\.name) + schema.derived.map(\.name)
    }

    /// A listing's row, with its line end.
    static func csvRow(_ listing: Listing, columns: [String]) -> [UInt8] {
        var row: [UInt8] = []
        appendRow(columns.map { listing.fields[$0] ?? .null }, to: &row)
        return row
    }

    private static func appendRow(_ cells: [Value], to bytes: inout [UInt8]) {
        for (index, cell) in cells.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            appendCell(cell, to: &bytes)
        }
        bytes.append(contentsOf: "\r\n".utf8)
    }

    /// Numbers as JSON writes them; text quoted when it must be; a list's items joined by "; "; a reference
    /// or a listing as its slug, an image as its URL.
    private static func appendCell(_ value: Value, to bytes: inout [UInt8]) {
        switch value {
        case .null: return
        case .int, .decimal, .bool, .date: bytes.append(contentsOf: value.text.utf8)
        case .string(let text), .html(let text): appendText(text, to: &bytes)
        case .list(let items): appendText(items.map { plainText($0) }.joined(separator: "; "), to: &bytes)
        case .object: appendText(plainText(value), to: &bytes)
        }
    }

    private static func plainText(_ value: Value) -> String {
        switch value {
        case .object(let fields): return (fields["slug"] ?? fields["url"])?.text ?? fields.values.map(plainText).joined(separator: " · ")
        case .list(let items): return items.map(plainText).joined(separator: "; ")
        default: return value.text
        }
    }

    /// Quoted when it holds a comma, quote or line break byte (a comma under a combining mark too, which Swift
    /// counts as another character). Text that a spreadsheet would take for a formula (starting with `=`, `+`,
    /// `-`, `@`, a tab or a carriage return) gets a leading `'`, as OWASP advises, so opening the file never
    /// runs what a listing says.
    private static func appendText(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            let isFormula = utf8.first.map { "=+-@\t\r".utf8.contains($0) } ?? false
            let isQuoted = nextToQuote(in: utf8) < utf8.count
            if isQuoted { bytes.append(UInt8(ascii: "\"")) }
            if isFormula { bytes.append(UInt8(ascii: "'")) }
            guard isQuoted else { return bytes.append(contentsOf: utf8) }
            for byte in utf8 {
                if byte == UInt8(ascii: "\"") { bytes.append(byte) }
                bytes.append(byte)
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// The first comma, quote or line break byte.
    private static func nextToQuote(in utf8: UnsafeBufferPointer<UInt8>) -> Int {
        ByteScan.next(
            in: utf8, from: 0,
            wordHolds: { word in
                ByteScan.hasByte(UInt8(ascii: ","), in: word) || ByteScan.hasByte(UInt8(ascii: "\""), in: word)
                    || ByteScan.hasByte(UInt8(ascii: "\n"), in: word) || ByteScan.hasByte(UInt8(ascii: "\r"), in: word)
            },
            isSpecial: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
    }
}
