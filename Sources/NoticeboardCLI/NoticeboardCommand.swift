import ArgumentParser
import Foundation
import Noticeboard
import NoticeboardServer
import OutputWriter
import SiteModel
import Support

@main
struct NoticeboardCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "noticeboard",
        abstract: "Builds a catalogue site and JSON feeds from listing files.",
        version: Noticeboard.version,
        subcommands: [Build.self, Check.self, Serve.self, New.self, Schema.self, SyncCommand.self, Codegen.self, Generate.self, SearchIndexTime.self],
        defaultSubcommand: Build.self)
}

struct SiteOptions: ParsableArguments {
    @Option(name: .long, help: "The site root, holding content/ and templates/.")
    var root: String = "."

    @Option(name: .long, help: ArgumentHelp("Refuse input files larger than this many bytes.", valueName: "bytes"))
    var maxFileBytes: Int = 10 * 1024 * 1024

    @Option(help: ArgumentHelp("Build as if today were this date (YYYY-MM-DD), for reproducible output.", valueName: "date"))
    var now: BuildDate?

    func validate() throws {
        let dates = DailyPick.buildDates
        if let now = now?.date, !dates.contains(now) {
            throw ValidationError("--now \(now) is outside \(dates.lowerBound) to \(dates.upperBound): the daily picks of up to "
                + "\(DailyPick.archiveDays) days before the build date and \(DailyPick.mostDays) days from it must be dates of years 1 to 9999")
        }
    }
}

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check the site and write it to the output folder.")

    @OptionGroup var site: SiteOptions

    @Option(name: .shortAndLong, help: "The output folder (default: <root>/public). It is replaced whole on success.")
    var output: String?

    @Flag(name: .shortAndLong, help: "Print nothing but problems.")
    var quiet = false

    @Flag(help: "Print how long each stage of the build took.")
    var timings = false

    func run() throws {
        var options = BuildOptions(root: site.root, output: output, maxFileBytes: site.maxFileBytes, now: site.now?.date)
        options.processEndsAfter = true
        // Progress goes to a terminal only, on one line that the summary replaces.
        let showProgress = !quiet && isatty(STDERR_FILENO) == 1
        if showProgress { options.progress = { stage in FileHandle.standardError.write(Data("\r\u{1B}[K\(stage)…".utf8)) } }
        do {
            let report = try Noticeboard.build(options) {
                FileHandle.standardError.write(Data("Another build is writing \(options.outputPath)/; waiting for it to finish.\n".utf8))
            }
            if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            printDiagnostics(report.warnings)
            if !quiet {
                let megabytes = Double(report.bytes) / 1_048_576
                let images = report.imagesProcessed == 0 ? "" : ", \(report.imagesProcessed) image\(report.imagesProcessed == 1 ? "" : "s") processed"
                print(String(
                    format: "Built %d listing%@ into %@/: %d page%@, %d file%@ (%d written, %d unchanged%@), %.1f MB in %.2f s",
                    report.listings, plural(report.listings), options.outputPath, report.pages, plural(report.pages), report.files,
                    plural(report.files), report.written, report.files - report.written, images, megabytes, report.seconds))
            }
            if timings {
                for stage in report.stages.stages { FileHandle.standardError.write(Data((stage.line + "\n").utf8)) }
            }
        } catch {
            if showProgress { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            fail(error)
        }
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Build the site, serve it on this machine, rebuild on every change and reload open pages.")

    @OptionGroup var site: SiteOptions

    @Option(help: "The address to listen on; only this machine can reach the default.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 4000

    @Flag(help: "After each build, print how long each of its stages took.")
    var timings = false

    /// A number past 65535 would be taken modulo 65536 by the socket, while the address printed and the
    /// `Host` check kept it.
    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be from 1 to 65535, not \(port)") }
    }

    func run() async throws {
        let server = PreviewServer(
            root: site.root, host: host, port: port, now: site.now?.date, maxFileBytes: site.maxFileBytes, timings: timings)
        do {
            try await server.run { line in
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
            }
        } catch let failure as PreviewServer.Failure {
            FileHandle.standardError.write(Data((failure.description + "\n").utf8))
            Foundation.exit(1)
        }
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check every listing, schema and template without writing the site (checked images go in the image cache).")

    @OptionGroup var site: SiteOptions

    func run() throws {
        do {
            let warnings = try Noticeboard.check(BuildOptions(root: site.root, maxFileBytes: site.maxFileBytes, now: site.now?.date))
            printDiagnostics(warnings)
            print(warnings.isEmpty ? "No problems found." : "No errors found; \(warnings.count) warning\(warnings.count == 1 ? "" : "s") above.")
        } catch {
            fail(error, writes: false)
        }
    }
}

struct BuildDate: ExpressibleByArgument {
    let date: CalendarDate

    init?(argument: String) {
        guard let date = CalendarDate(parsing: argument[...]) else { return nil }
        self.date = date
    }
}

/// "s" after a word counting `count`, unless it is one.
private func plural(_ count: Int) -> String {
    count == 1 ? "" : "s"
}

/// `path` as a shell reads it back: as it is when it holds only characters no shell treats specially, else in
/// single quotes (`'my site'`).
func shellQuoted(_ path: String) -> String {
    let plain = path.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || "/._-+,:@%=".unicodeScalars.contains($0)) }
    return plain && !path.isEmpty ? path : "'" + path.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

/// Diagnostics go to standard error, as compilers print them, naming files relative to the site root.
private func printDiagnostics(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    FileHandle.standardError.write(Data((diagnostics.map(\.description).joined(separator: "\n") + "\n").utf8))
}

/// Prints the problems and their count, and exits 1; a command that writes says it wrote nothing.
func fail(_ failure: BuildFailure, writes: Bool = true) -> Never {
    printDiagnostics(failure.diagnostics)
    let errors = failure.diagnostics.filter { $0.severity == .error }.count
    FileHandle.standardError.write(Data("\(errors) error\(errors == 1 ? "" : "s")\(writes ? "; nothing was written" : "").\n".utf8))
    Foundation.exit(1)
}

struct New: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Make a small working site to start from.")

    @Argument(help: "The folder to create; it must not exist or be empty.")
    var folder: String

    func run() throws {
        let manager = FileManager.default
        if let refusal = OwnedFolders.checkNewSite(folder) {
            FileHandle.standardError.write(Data("error: \(refusal)\n".utf8))
            Foundation.exit(1)
        }
        guard let scaffold = Bundle.module.url(forResource: "Scaffold", withExtension: nil) else {
            FileHandle.standardError.write(Data("error: the starter site is missing from this installation\n".utf8))
            Foundation.exit(1)
        }
        try manager.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for item in try manager.contentsOfDirectory(atPath: scaffold.path) {
            try manager.copyItem(atPath: scaffold.path + "/" + item, toPath: folder + "/" + item)
        }
        // In the current folder, there is nowhere to go first.
        let here = folder == "." || folder == "./"
        let goThere = here ? "" : "  cd \(shellQuoted(folder))\n"
        print("Made a new site \(here ? "here" : "in \(folder.hasSuffix("/") ? folder : folder + "/")"). Next:\n\(goThere)  noticeboard serve     # preview at http://127.0.0.1:4000/\n  noticeboard build     # write the site to public/")
    }
}

struct Schema: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a JSON Schema per kind for the listing files, for editors that check YAML as you type.")

    @OptionGroup var site: SiteOptions

    @Option(name: .shortAndLong, help: "Where to write <kind>.schema.json (default: <root>/content/schemas/json).")
    var output: String?

    func run() throws {
        let folder = output ?? SitePaths.path("content/schemas/json", in: site.root)
        do throws(BuildFailure) {
            let files = try Noticeboard.editorSchemas(BuildOptions(root: site.root, maxFileBytes: site.maxFileBytes))
            tellOfEarlierFiles(try writeFiles(files, into: folder, markedBy: Noticeboard.editorSchemaMarks), in: folder, madeBy: "noticeboard schema")
            print("Wrote \(files.count) schemas to \(folder)/")
        } catch {
            fail(error)
        }
    }
}
