import Rendering
import Foundation
import SiteLoader
import SiteModel

/// What the last build into an output folder was made from and what it wrote, kept in the git-ignored
/// `.noticeboard-cache/` of the site. It lets the next build skip rendering pages whose inputs did not
/// change and keep unchanged files as they are (same bytes, same modification time).
struct BuildState: Equatable {
    /// Everything besides the input files that decides the output: version, executable, options.
    var settings: String
    var inputs: InputStamps
    var outputs: [String: Output]
    /// Reported again by a build that finds nothing changed.
    var listings: Int
    var warnings: [Diagnostic]

    struct Output: Equatable {
        var digest: FileDigest
        var renderKey: String?
    }

    static let folder = ".noticeboard-cache"
    private static let header = "noticeboard-build-state 1"

    /// The state file for one output folder (a site may be built into several).
    static func file(for options: BuildOptions) -> String {
        let output = URL(fileURLWithPath: options.outputPath).standardizedFileURL.path
        let name = "build-" + String(Manifest.sha256(Array(output.utf8)).prefix(16)) + ".state"
        return (options.root == "." ? "" : options.root + "/") + folder + "/" + name
    }

    /// Nil when there is no usable state: never built, written by another version, or damaged.
    static func load(_ path: String) -> BuildState? {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { return nil }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        guard lines.popFirst() == Substring(header), let settings = lines.popFirst() else { return nil }
        var inputs: [String: String] = [:]
        var outputs: [String: Output] = [:]
        var listings = 0
        var warnings: [Diagnostic] = []
        for line in lines where !line.isEmpty {
            let fields = line.split(separator: "\t", maxSplits: 4, omittingEmptySubsequences: false)
            switch (fields.first, fields.count) {
            case ("listings", 2):
                listings = Int(fields[1]) ?? 0
            case ("warning", 5):
                guard let line = Int(fields[2]), let column = Int(fields[3]) else { return nil }
                warnings.append(.warning(at: SourceLocation(file: String(fields[1]), line: line, column: column), String(fields[4])))
            case ("input", 3):
                inputs[String(fields[2])] = String(fields[1])
            case ("output", 5):
                guard let size = Int(fields[1]) else { return nil }
                outputs[String(fields[4])] = Output(
                    digest: FileDigest(size: size, sha256: String(fields[2])), renderKey: fields[3] == "-" ? nil : String(fields[3]))
            default:
                return nil
            }
        }
        return BuildState(settings: String(settings), inputs: InputStamps(stamps: inputs), outputs: outputs, listings: listings, warnings: warnings)
    }

    /// Writes the state beside the site; a site that cannot be written to simply builds in full next time.
    func save(_ path: String) {
        let texts = Array(inputs.stamps.keys) + Array(outputs.keys) + warnings.map { $0.message + ($0.location?.file ?? "") }
        guard !texts.contains(where: { $0.contains("\n") || $0.contains("\t") }), warnings.allSatisfy({ $0.location != nil }) else { return }
        var text = Self.header + "\n" + settings + "\n" + "listings\t\(listings)\n"
        for warning in warnings {
            text += "warning\t\(warning.location!.file)\t\(warning.location!.line)\t\(warning.location!.column)\t\(warning.message)\n"
        }
        for (path, stamp) in inputs.stamps.sorted(by: { $0.key < $1.key }) { text += "input\t\(stamp)\t\(path)\n" }
        for (path, output) in outputs.sorted(by: { $0.key < $1.key }) {
            text += "output\t\(output.digest.size)\t\(output.digest.sha256)\t\(output.renderKey ?? "-")\t\(path)\n"
        }
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// True when the output folder is the one this state describes: its manifest, which holds the digest of
    /// every other file, has the bytes the state recorded, and every file the state lists is there with its
    /// size. (A build killed after swapping its output in but before saving its state leaves the previous
    /// state beside a newer output; files of the same sizes would pass for the ones the state describes.)
    func outputsAreIntact(in outputPath: String) -> Bool {
        guard let manifest = outputs[Manifest.path], let bytes = FileManager.default.contents(atPath: outputPath + "/" + Manifest.path),
            Manifest.digest([UInt8](bytes)) == manifest.digest
        else { return false }
        return outputs.allSatisfy { path, output in
            var info = stat()
            return stat(outputPath + "/" + path, &info) == 0 && Int(info.st_size) == output.digest.size
        }
    }

    /// The build's version, the running executable's own stamp, and the options that shape output.
    static func settings(for options: BuildOptions, buildDate: CalendarDate) -> String {
        var info = stat()
        let executable = stat("/proc/self/exe", &info) == 0 ? "\(info.st_size) \(info.st_mtim.tv_sec)" : "unknown"
        return "version=\(Noticeboard.version) executable=\(executable) now=\(buildDate) max-file-bytes=\(options.maxFileBytes) base-url=\(options.baseURL ?? "")"
    }
}
