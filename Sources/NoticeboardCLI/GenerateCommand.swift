import ArgumentParser
import Foundation
import SyntheticSite

/// `noticeboard generate`: a made-up catalogue for benchmarks, hidden from `--help` because sites never need it.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a synthetic catalogue (for benchmarks).", shouldDisplay: false)

    @Option(help: "The folder to write the site to: new, or an empty one.")
    var output: String

    @Option(help: "A site root whose content/schemas/ and templates/ the generated site copies.")
    var example: String = "."

    @Option var cleaners = 1000
    @Option var rentals = 1000
    @Option(help: "Quotes in all, in collections of 20.")
    var quotes = 2000
    @Option var seed: UInt64 = 1

    @Option(help: "Also write the same catalogue as Hugo content into this Hugo site folder, which has no content/ or static/media/ yet.")
    var hugo: String?

    func run() throws {
        let catalogue = SyntheticCatalogue(size: .init(cleaners: cleaners, rentals: rentals, quotes: quotes), seed: seed)
        // Both checked before either is written.
        if let hugo { try HugoWriter.checkFree(hugo) }
        try SiteWriter.write(catalogue, to: output, example: example)
        if let hugo { try HugoWriter.write(catalogue, to: hugo) }
        print("Generated \(catalogue.listingCount) listing files into \(output)/" + (hugo.map { " and Hugo content into \($0)/" } ?? ""))
    }
}
