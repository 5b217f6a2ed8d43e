import Foundation
import Noticeboard
import SiteModel
import Testing

/// `api/<kind>.csv`: one row a listing, public fields only, readable by any RFC 4180 reader, and no
/// cell a spreadsheet would run as a formula.
@Suite struct CSVDownloadTests {
    /// RFC 4180 records: fields split at commas outside quotes, `""` inside quotes for a quote, CRLF between records.
    static func records(_ text: String) -> [[String]] {
        var records: [[String]] = [], record: [String] = [], field = "", quoted = false
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { field.append(characters.removeFirst()) } else { quoted = false }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                quoted = true
            } else if character == "," {
                record.append(field)
                field = ""
            } else if character == "\r\n" {
                records.append(record + [field])
                (record, field) = ([], "")
            } else {
                field.append(character)
            }
        }
        return records
    }

    /// The example site built with one line of Aoife Byrne's listing replaced; the caller removes it.
    private static func siteBuilt(replacingInAoife line: String, with replacement: String) throws -> String {
        let site = TestSupport.makeSite()
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: line, with: replacement), to: aoife)
        do {
            _ = try Noticeboard.build(BuildOptions(root: site, now: CalendarDate(year: 2026, month: 11, day: 23)!))
        } catch {
            TestSupport.removeTree(site)
            throw error
        }
        return site
    }

    @Test func aKindAsASpreadsheet() throws {
        let site = try Self.siteBuilt(replacingInAoife: "name: Aoife Byrne", with: "name: '=HYPERLINK(\"https://evil.example\", \"Aoife\")'")
        defer { TestSupport.removeTree(site) }

        let records = Self.records(TestSupport.read(site + "/public/api/cleaners.csv"))
        let header = try #require(records.first)
        #expect(Array(header.prefix(4)) == ["slug", "url", "name", "photo"])
        #expect(header.contains("rating") && header.contains("bio"))
        #expect(!header.contains("phone") && !header.contains("email"), "private fields are never published")
        let listings = try FileManager.default.contentsOfDirectory(atPath: site + "/content/cleaners").filter { $0.hasSuffix(".yaml") }
        #expect(records.count == listings.count + 1)
        #expect(records.allSatisfy { $0.count == header.count })

        let row = try #require(records.first { $0.first == "aoife-byrne" })
        func cell(_ column: String) -> String { row[header.firstIndex(of: column)!] }
        #expect(cell("name") == "'=HYPERLINK(\"https://evil.example\", \"Aoife\")", "a formula is kept as text")
        #expect(cell("hourly_rate") == "19.50")
        #expect(cell("languages") == "English; Irish")
        #expect(cell("eco_products") == "true")
        #expect(cell("url") == "https://example.org/catalogue/cleaners/aoife-byrne/")
        #expect(cell("bio").contains("\n"), "a Markdown field keeps its line breaks inside quotes")
    }

    /// A comma followed by a combining accent is one Character in Swift that is not ",", but the file still
    /// holds a comma byte there: the cell is quoted, so the row keeps its columns.
    @Test func aCommaUnderACombiningMarkStaysInItsCell() throws {
        let site = try Self.siteBuilt(replacingInAoife: "  - Oven cleaning", with: "  - \"Oven cleaning,\\u0301 hobs\"")
        defer { TestSupport.removeTree(site) }

        // Read as bytes: `records` splits Characters, and so would miss what a byte-reading spreadsheet sees.
        let bytes = Array(TestSupport.read(site + "/public/api/cleaners.csv").utf8)
        let quotedCell = Array("\"Regular home cleaning; Deep cleaning; Oven cleaning,\u{301} hobs\"".utf8)
        #expect(bytes.firstRange(of: quotedCell) != nil)
    }
}
