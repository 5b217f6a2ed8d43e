import Enrichment
import Markdown
import Foundation
import SiteModel
import Support
import Testing

@Suite struct EnrichmentTests {
    static let sample = """
        # Rates

        | Job | Price |
        |-----|------:|
        | Oven | €40 |

        ~~€22~~ €20, see https://example.org/rates

        - [x] windows
        - [ ] gutters

        <script>alert(1)</script> <b>bold</b>

        [click](javascript:alert(1)) ![x](data:text/html;base64,PHNjcmlwdD4=) ![ok](data:image/png;base64,iVBOR)
        """

    /// The Debian `cmark-gfm` command with the same extensions is the reference rendering.
    @Test func markdownMatchesTheCmarkGFMCommand() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/cmark-gfm")
        process.arguments = MarkdownRenderer.extensionNames.flatMap { ["-e", $0] }
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(Self.sample.utf8))
        try input.fileHandleForWriting.close()
        let reference = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(MarkdownRenderer(allowRawHTML: false).html(Self.sample) == reference)
    }

    @Test func rawHTMLAndScriptURLsAreDroppedUnlessTheSiteOptsIn() {
        let safe = MarkdownRenderer(allowRawHTML: false).html(Self.sample)
        #expect(!safe.contains("<script"))
        #expect(!safe.contains("<b>"))
        #expect(!safe.contains("javascript:"))
        #expect(!safe.contains("data:text/html"))
        #expect(safe.contains("data:image/png"))
        #expect(safe.contains("<table>") && safe.contains("<del>€22</del>") && safe.contains("<a href=\"https://example.org/rates\">"))
        let unsafe = MarkdownRenderer(allowRawHTML: true).html(Self.sample)
        #expect(unsafe.contains("<b>bold</b>"))
        // The tagfilter extension still disarms <script> when raw HTML is allowed.
        #expect(unsafe.contains("&lt;script>"))
    }

    /// Listings are enriched across all cores; cmark-gfm's shared state must not make the output vary.
    @Test func markdownRenderedConcurrentlyIsTheSameAsAlone() {
        let renderer = MarkdownRenderer(allowRawHTML: false)
        let alone = renderer.html(Self.sample)
        let together = Array(repeating: Self.sample, count: 2000).parallelMap(renderer.html)
        #expect(together.allSatisfy { $0 == alone })
    }

    @Test func slugsComeFromFileNames() {
        #expect(Slug.from(fileName: "ana-murphy.yaml") == "ana-murphy")
        #expect(Slug.from(fileName: "Siobhán Ó Súilleabháin.yaml") == "siobhan-o-suilleabhain")
        #expect(Slug.from(fileName: "Łukasz  Zieliński!.yml") == "lukasz-zielinski")
        #expect(Slug.from(fileName: "---.yaml") == "")
        #expect(Slug.isValid("ana-murphy") && !Slug.isValid("Ana") && !Slug.isValid("a--b") && !Slug.isValid("-a"))
    }

    @Test func currencyAndRatingsAreFormattedForPeople() {
        let formatter = DisplayFormatter(language: "en-IE", currency: "EUR")
        #expect(formatter.text(for: .decimal(FixedDecimal(units: 1850, scale: 2)), format: .currency, maximum: nil) == "€18.50")
        #expect(formatter.text(for: .int(1200), format: .currency, maximum: nil) == "€1,200.00")
        #expect(formatter.text(for: .decimal(FixedDecimal(units: 45, scale: 1)), format: .rating, maximum: 5) == "4.5 out of 5")
        #expect(formatter.text(for: .int(4), format: .rating, maximum: nil) == "4 out of 5")
        // A rating's number is written as the site's language writes numbers, as its prices are (a visitor's report).
        let polish = DisplayFormatter(language: "pl-PL", currency: "PLN")
        #expect(polish.text(for: .decimal(FixedDecimal(units: 47, scale: 1)), format: .rating, maximum: 5) == "4,7 out of 5")
        #expect(polish.text(for: .decimal(FixedDecimal(units: 2200, scale: 2)), format: .currency, maximum: nil)?.hasPrefix("22,00") == true)
    }

    @Test func decimalsKeepTheirDeclaredPrecision() {
        #expect(FixedDecimal(parsing: "18.5", scale: 2)?.description == "18.50")
        #expect(FixedDecimal(parsing: "-0.125", scale: 2)?.description == "-0.13")
        #expect(FixedDecimal(parsing: "7", scale: 0)?.description == "7")
        #expect(FixedDecimal(parsing: "1e3", scale: 2) == nil)
        #expect(FixedDecimal(parsing: ".", scale: 2) == nil)
    }
}
