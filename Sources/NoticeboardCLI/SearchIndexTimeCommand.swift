import ArgumentParser
import Noticeboard
import SiteModel

/// `noticeboard search-index-time`: how long the build's search index takes, for `make bench`; hidden.
struct SearchIndexTime: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search-index-time", abstract: "Time the search index writer alone (for benchmarks).", shouldDisplay: false)

    @Option(help: "The site's root folder.")
    var root: String = "."

    @Option(help: "Build as if today were this date (YYYY-MM-DD).")
    var now: String?

    func run() throws {
        var options = BuildOptions(root: root)
        if let now { options.now = CalendarDate(parsing: Substring(now)) }
        let (seconds, files, bytes) = try Noticeboard.searchIndexTime(options)
        print("search index: \(String(format: "%.3f", seconds)) s, \(files) files, \(bytes) bytes")
    }
}
