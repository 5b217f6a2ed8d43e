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
        do {
            let files = try Noticeboard.swiftModels(BuildOptions(root: site.root, maxFileBytes: site.maxFileBytes))
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            for file in files {
                guard case .bytes(let bytes) = file.contents else { continue }
                try Data(bytes).write(to: URL(fileURLWithPath: output + "/" + file.path))
            }
            print("Wrote \(files.count) files to \(output)/")
        } catch let failure as BuildFailure {
            fail(failure)
        }
    }
}
