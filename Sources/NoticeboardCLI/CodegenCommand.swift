import ArgumentParser
import Foundation
import Noticeboard
import SiteModel

/// `noticeboard codegen swift --output DIR`: Swift models of the site's published JSON.
struct Codegen: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write Swift Codable models of the site's published JSON, from its schemas.")

    @Argument(help: "The language: swift.")
    var language: String

    @OptionGroup var site: SiteOptions

    @Option(name: .shortAndLong, help: "Where to write the .swift files.")
    var output: String

    func run() throws {
        guard language == "swift" else { throw ValidationError("the only language is swift, not '\(language)'") }
        do throws(BuildFailure) {
            let files = try Noticeboard.swiftModels(BuildOptions(root: site.root, maxFileBytes: site.maxFileBytes))
            tellOfEarlierFiles(try writeFiles(files, into: output, markedBy: [SwiftModels.fileMark]), in: output, madeBy: "noticeboard codegen swift")
            print("Wrote \(files.count) files to \(output)/")
        } catch {
            fail(error)
        }
    }
}
