import Foundation
import PathJournal
import Rendering
import SiteLoader
import SiteModel
import Support

/// A build record as saved, read whole but parsed only as far as a question needs. Whether anything changed
/// since (its settings, its inputs' digest, its outputs still on disk) takes the head and one pass over the
/// output lines, without a string per file; only a build that goes on to render, or keeps the site, parses
/// the `BuildState` (`state(withInputs:)`). At 430,000 listings the record is about 200 MB, and parsing it
/// whole took longer than the rest of a no-change rebuild.
public struct SavedBuildState: Sendable {
    /// The file, mapped rather than copied: at 430,000 listings it is about 200 MB.
    private let bytes: Data
    /// Nil when the record is not one this version wrote, or its head is damaged: then nothing is taken
    /// as unchanged, but `state()` may still read a record of the version before.
    private let head: Head?

    private struct Head: Sendable {
        /// Everything besides the input files that decided the output (`BuildState.settings`).
        let settings: String
        /// What the build reported.
        let summary: BuildState.Summary
        /// How many inputs the build read, and their digest.
        let inputs: (count: Int, digest: StampsDigest)
        /// Where the output lines are in `bytes`; they are written together.
        let outputLines: Range<Int>
    }

    /// Nil when there is no record to read.
    public init?(path: String) {
        guard let data = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return nil }
        bytes = data
        head = bytes.withUnsafeBytes { Self.readHead($0.bindMemory(to: UInt8.self)) }
    }

    public var settings: String? { head?.settings }
    public var summary: BuildState.Summary? { head?.summary }

    /// The whole record; nil when damaged or of an older version than the one before. Without `withInputs`,
    /// its inputs are checked but left out (empty): only a build that keeps the site compares a later scan
    /// with them, and one that does not needs only the head's digest of them (`wasMade(from:)`). At 430,000
    /// listings, reading the record without them lowered a build's peak by 63 MiB.
    public func state(withInputs: Bool = true) -> BuildState? {
        bytes.withUnsafeBytes { BuildState.parse($0.bindMemory(to: UInt8.self), withInputs: withInputs) }
    }

    /// Whether the record was made from `scanned`.
    public func wasMade(from scanned: InputStamps) -> Bool {
        guard let head else { return false }
        return scanned.count == head.inputs.count && scanned.digest == head.inputs.digest
    }

    /// True when the output folder is the one this record describes: its manifest, which holds the digest of
    /// every other file, has the bytes the record gives it, and every file the record lists is there with its
    /// size. (A build killed after swapping its output in but before saving its record leaves the previous
    /// record beside a newer output; files of the same sizes would pass for the ones the record describes.)
    /// One stat per file, hundreds of thousands on a large site: across all cores, each path looked up from
    /// the output folder rather than from the root.
    public func outputsAreIntact(in outputPath: String) -> Bool {
        guard let checks = try? eachRunOfOutputLines(in: outputPath, { lines, folder in Self.checkOutputs(lines, in: folder, outputPath: outputPath) })
        else { return false }
        return checks.allSatisfy { $0 != .differs } && checks.contains(.intactWithManifest)
    }

    /// The folders below the output's top (paths relative to it) whose change time is `time` or later: those
    /// an entry was added to or taken from since then. Every folder that holds an output, or holds one that
    /// does, is stat'ed where the record's paths, sorted, first reach it: in the runs and on the cores
    /// `outputsAreIntact` uses. A folder is stat'ed again only where two runs share it, or where Unicode's
    /// order of the paths (the record's) differs from their bytes'. None when the folder is not there; throws when it
    /// is but cannot be opened (too many files open, say): a check taking that for "none changed" would look nowhere.
    public func foldersChanged(since time: timespec, in outputPath: String) throws(FileFailure) -> Set<String> {
        let changed = try eachRunOfOutputLines(in: outputPath) { lines, output in Self.changedFolders(lines, in: output, since: time) }
        return (changed ?? []).reduce(into: Set()) { $0.formUnion($1) }
    }

    /// `body` of each run of the record's output lines, on every core, with the output folder open for paths
    /// relative to it; nil when the record has no output lines or the folder is not there. Throws when it is there
    /// but cannot be opened.
    private func eachRunOfOutputLines<Result: Sendable>(
        in outputPath: String, _ body: @Sendable (RecordText.Lines, Int32) -> Result
    ) throws(FileFailure) -> [Result]? {
        guard let outputLines = head?.outputLines else { return nil }
        let folder = open(outputPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else {
            let failure = errno
            guard failure == ENOENT else { throw FileFailure(path: outputPath, code: failure) }
            return nil
        }
        defer { close(folder) }
        let runs = bytes.withUnsafeBytes { RecordText.runs(of: $0.bindMemory(to: UInt8.self)[outputLines], count: 4 * ProcessInfo.processInfo.activeProcessorCount) }
        return runs.parallelMap { run in bytes.withUnsafeBytes { body(RecordText.Lines($0.bindMemory(to: UInt8.self)[run]), folder) } }
    }

    /// `foldersChanged` for one run of output lines; `output` is the output folder, open.
    private static func changedFolders(_ lines: RecordText.Lines, in output: Int32, since time: timespec) -> [String] {
        var changed: [String] = []
        var previous: RecordText.Line?
        var path: [UInt8] = []
        for line in lines {
            var fields = RecordText.Fields(line)
            guard fields.next() != nil, fields.next() != nil, fields.next() != nil, fields.next() != nil, let file = fields.remainder,
                let slash = file.lastIndex(of: UInt8(ascii: "/"))
            else { continue }
            let parent = file[..<slash]
            if let previous, parent.elementsEqual(previous) { continue }
            // Each folder on the way to `parent`, outermost first, and `parent` itself.
            for end in parent.indices.filter({ parent[$0] == UInt8(ascii: "/") }) + [parent.endIndex] {
                let folder = parent[..<end]
                if let previous, isItselfOrAbove(previous, folder) { continue }
                path.removeAll(keepingCapacity: true)
                path.append(contentsOf: folder)
                path.append(0)
                if changedSince(time, path, in: output) { changed.append(String(decoding: folder, as: UTF8.self)) }
            }
            previous = parent
        }
        return changed
    }

    /// Whether `folder` is `path` itself or a folder that holds it: its folders were stat'ed as it was reached.
    private static func isItselfOrAbove(_ path: RecordText.Line, _ folder: RecordText.Line) -> Bool {
        path.starts(with: folder) && (path.count == folder.count || path[path.startIndex + folder.count] == UInt8(ascii: "/"))
    }

    /// `path`: relative to `output`, ending in a zero byte.
    private static func changedSince(_ time: timespec, _ path: [UInt8], in output: Int32) -> Bool {
        var info = stat()
        let found = path.withUnsafeBufferPointer { path in
            path.withMemoryRebound(to: CChar.self) { fstatat(output, $0.baseAddress!, &info, AT_SYMLINK_NOFOLLOW) == 0 }
        }
        return found && (info.st_ctim.tv_sec, info.st_ctim.tv_nsec) >= (time.tv_sec, time.tv_nsec)
    }

    private enum OutputCheck: Sendable { case intact, intactWithManifest, differs }

    /// Each output line's file is there with its size; the manifest, if among them, has its digest too. The
    /// fields are read in place and the path copied into one buffer: an array of fields per line was a
    /// third of this check's own time at 780,000 outputs.
    private static func checkOutputs(_ lines: RecordText.Lines, in folder: Int32, outputPath: String) -> OutputCheck {
        var path: [UInt8] = []
        var sawManifest = false
        for line in lines {
            var fields = RecordText.Fields(line)
            guard fields.next() != nil, let size = fields.next()?.decimal, let sha256 = fields.next(), fields.next() != nil,
                let file = fields.remainder
            else { return .differs }
            path.removeAll(keepingCapacity: true)
            path.append(contentsOf: UnsafeBufferPointer(rebasing: file))
            path.append(0)
            var info = stat()
            let found = path.withUnsafeBufferPointer { path in
                path.withMemoryRebound(to: CChar.self) { fstatat(folder, $0.baseAddress!, &info, 0) == 0 }
            }
            guard found, Int(info.st_size) == size else { return .differs }
            if file.count == Manifest.path.utf8.count, file.elementsEqual(Manifest.path.utf8) {
                // Mapped, not read and copied: at 430,000 listings the manifest is 108 MB.
                guard let manifest = try? Data(contentsOf: URL(fileURLWithPath: outputPath + "/" + Manifest.path), options: .alwaysMapped),
                    manifest.count == size, manifest.withUnsafeBytes({ SHA256.hex($0) }) == sha256.text
                else { return .differs }
                sawManifest = true
            }
        }
        return sawManifest ? .intactWithManifest : .intact
    }

    /// The head: the lines before the first input line, and the count of the output lines, which must be as
    /// many as the head says (a record cut short between two lines is refused). Nil when the bytes are not a
    /// record this version wrote.
    private static func readHead(_ bytes: UnsafeBufferPointer<UInt8>) -> Head? {
        var lines = RecordText.Lines(bytes[...])
        guard let first = lines.next(), first.text == BuildState.header, let settings = lines.next()?.text, !settings.isEmpty else { return nil }
        var summary: BuildState.Summary?
        var listings = 0
        var warnings: [Diagnostic] = []
        var inputs: (Int, StampsDigest)?
        var outputLines: Range<Int>?
        var outputCount = 0
        for line in lines {
            if line.starts(with: "input\t".utf8) { continue }
            if line.starts(with: "output\t".utf8) {
                outputLines = (outputLines?.lowerBound ?? line.startIndex)..<min(line.endIndex + 1, bytes.count)
                outputCount += 1
                continue
            }
            if outputLines != nil { break }
            let fields = line.fields(max: 5)
            switch (fields[0].text, fields.count) {
            case ("listings", 2):
                listings = Int(fields[1].text) ?? 0
            case ("outputs", 4):
                guard let files = fields[1].decimal, let pages = fields[2].decimal, let size = fields[3].decimal else { return nil }
                summary = BuildState.Summary(listings: 0, pages: pages, files: files, bytes: size, warnings: [])
            case ("inputs", 3):
                guard let count = fields[1].decimal, let digest = StampsDigest(fields[2].text) else { return nil }
                inputs = (count, digest)
            case ("warning", 5):
                guard let line = Int(fields[2].text), let column = Int(fields[3].text) else { return nil }
                warnings.append(.warning(at: SourceLocation(file: fields[1].text, line: line, column: column), fields[4].text))
            default:
                return nil
            }
        }
        guard var summary, let inputs, let outputLines, outputCount == summary.files else { return nil }
        (summary.listings, summary.warnings) = (listings, warnings)
        return Head(settings: settings, summary: summary, inputs: inputs, outputLines: outputLines)
    }
}
