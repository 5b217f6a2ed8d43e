import Foundation
import Rendering
import SiteLoader
import SiteModel
import Support

/// What the last build into an output folder was made from and what it wrote, kept in the git-ignored
/// `.noticeboard-cache/` of the site. It lets the next build skip rendering pages whose inputs did not
/// change and keep unchanged files as they are (same bytes, same modification time).
public struct BuildState: Equatable, Sendable {
    /// Everything besides the input files that decides the output: version, executable, options.
    public var settings: String
    public var inputs: InputStamps
    public var outputs: [String: Output]
    /// Reported again by a build that finds nothing changed.
    public var listings: Int
    public var warnings: [Diagnostic]
    /// What the output's staging folder holds (the site before this one), and the name of that record,
    /// which the staging marker must repeat for the folder to be reused; nil when not kept.
    public var staged: Staged?
    /// Each listing's digest and `updated` date, and the builds apps can sync from: kept from build to build
    /// (see `ListingVersions` and `SyncHistory`).
    public var versions: [String: ListingVersions.Version]
    public var sync: SyncHistory

    /// The staging folder's files as differences from `outputs`: most of them are the outputs' own, and
    /// only a build that writes needs them whole.
    public struct Staged: Equatable, Sendable {
        public var id: String
        /// Files whose digest is not the output's, or that are not outputs at all.
        public var differing: [String: FileDigest]
        /// Outputs that the staging folder does not hold.
        public var missing: Set<String>
    }

    public struct Output: Equatable, Sendable {
        public var digest: FileDigest
        public var renderKey: String?
    }

    private static let header = "noticeboard-build-state 3"

    public init(
        settings: String, inputs: InputStamps, outputs: [String: Output], listings: Int, warnings: [Diagnostic], staged: Staged?,
        versions: [String: ListingVersions.Version] = [:], sync: SyncHistory = .none
    ) {
        self.versions = versions
        self.sync = sync
        self.settings = settings
        self.inputs = inputs
        self.outputs = outputs
        self.listings = listings
        self.warnings = warnings
        self.staged = staged
    }

    /// The state file for one output folder of the site at `root` (a site may be built into several).
    public static func file(root: String, outputPath: String) -> String {
        let output = URL(fileURLWithPath: outputPath).standardizedFileURL.path
        let name = "build-" + String(SHA256.hex(Array(output.utf8)).prefix(16)) + ".state"
        return SitePaths.cache(name, in: root)
    }

    /// The marker beside the state file that says the staging folder is as the state describes it: a build
    /// removes it before changing that folder and writes it again once the state describing it is saved.
    public static func stagingMarker(for statePath: String) -> String {
        String(statePath.dropLast(".state".count)) + ".staged"
    }

    /// The staging folder's files, when the marker confirms the state's record of them.
    public func confirmedStaged(statePath: String) -> [String: FileDigest]? {
        guard let staged, stagingIsConfirmed(statePath: statePath) else { return nil }
        var digests = outputs.mapValues(\.digest)
        for path in staged.missing { digests[path] = nil }
        digests.merge(staged.differing) { $1 }
        return digests
    }

    /// Whether the marker beside the state file repeats the name of the state's staging record.
    public func stagingIsConfirmed(statePath: String) -> Bool {
        guard let staged, let marker = FileManager.default.contents(atPath: Self.stagingMarker(for: statePath)) else { return false }
        return String(decoding: marker, as: UTF8.self) == staged.id
    }

    /// Writes the marker for the saved state's staging record.
    public func confirmStaged(statePath: String) {
        guard let staged else { return }
        Self.replaceFile(at: Self.stagingMarker(for: statePath), with: Array(staged.id.utf8))
    }

    /// Nil when there is no usable state: never built, written by another version, or damaged.
    /// Parsed as bytes: a large site's state has a line for each of its tens of thousands of files, and
    /// splitting it as Swift strings took half of a no-change rebuild.
    public static func load(_ path: String) -> BuildState? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return data.withUnsafeBytes { raw in parse(raw.bindMemory(to: UInt8.self)) }
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> BuildState? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
        var lines = LineReader(bytes: bytes)
        guard let first = lines.next(), string(first) == header, let settingsLine = lines.next() else { return nil }
        let settings = string(settingsLine)
        // Most lines are inputs or outputs: room for every line in each saves growing them line by line.
        let lineCount = bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        var inputs: [String: String] = Dictionary(minimumCapacity: lineCount)
        var outputs: [String: Output] = Dictionary(minimumCapacity: lineCount)
        var listings = 0
        var warnings: [Diagnostic] = []
        // The staging folder's record, as differences from the outputs.
        var stagingID: String?
        var stagedDifferent: [String: FileDigest] = [:]
        var unstaged: Set<String> = []
        var versions: [String: ListingVersions.Version] = [:]
        var sync = SyncHistory.none
        while let line = lines.next() {
            if line.isEmpty { continue }
            let fields = split(line, maxFields: 5)
            switch (string(fields[0]), fields.count) {
            case ("listings", 2):
                listings = Int(string(fields[1])) ?? 0
            case ("warning", 5):
                guard let line = Int(string(fields[2])), let column = Int(string(fields[3])) else { return nil }
                warnings.append(.warning(at: SourceLocation(file: string(fields[1]), line: line, column: column), string(fields[4])))
            case ("input", 3):
                inputs[string(fields[2])] = string(fields[1])
            case ("staging", 2):
                stagingID = string(fields[1])
            case ("staged", 4):
                guard let size = Int(string(fields[1])) else { return nil }
                stagedDifferent[string(fields[3])] = FileDigest(size: size, sha256: string(fields[2]))
            case ("unstaged", 2):
                unstaged.insert(string(fields[1]))
            case ("output", 5):
                guard let size = Int(string(fields[1])) else { return nil }
                let renderKey = string(fields[3])
                outputs[string(fields[4])] = Output(digest: FileDigest(size: size, sha256: string(fields[2])), renderKey: renderKey == "-" ? nil : renderKey)
            default:
                guard readTracking(fields, versions: &versions, sync: &sync) else { return nil }
            }
        }
        let staged = stagingID.map { Staged(id: $0, differing: stagedDifferent, missing: unstaged) }
        return BuildState(
            settings: settings, inputs: InputStamps(stamps: inputs), outputs: outputs, listings: listings, warnings: warnings, staged: staged,
            versions: versions, sync: sync)
    }

    /// A line of the listings' versions or the sync history; false when it is neither, or damaged.
    private static func readTracking(
        _ fields: [UnsafeBufferPointer<UInt8>.SubSequence], versions: inout [String: ListingVersions.Version], sync: inout SyncHistory
    ) -> Bool {
        switch (string(fields[0]), fields.count) {
        case ("listing", 4):
            guard let date = CalendarDate(parsing: Substring(string(fields[1]))) else { return false }
            versions[string(fields[3])] = ListingVersions.Version(updated: date, sha256: string(fields[2]))
        case ("build", 4):
            guard let build = Int(string(fields[1])) else { return false }
            sync.build = build
            sync.date = CalendarDate(parsing: Substring(string(fields[2])))
            sync.root = string(fields[3])
        case ("change", 5):
            guard let build = Int(string(fields[1])), let date = CalendarDate(parsing: Substring(string(fields[2]))) else { return false }
            sync.changes.append(ChangeList(build: build, date: date, from: string(fields[3]), to: string(fields[4]), files: [:]))
        case ("changed", 4):
            guard let size = Int(string(fields[1])), !sync.changes.isEmpty else { return false }
            sync.changes[sync.changes.count - 1].files[string(fields[3])] = FileDigest(size: size, sha256: string(fields[2]))
        case ("removed", 2):
            guard !sync.changes.isEmpty else { return false }
            sync.changes[sync.changes.count - 1].files[string(fields[1])] = .some(nil)
        default:
            return false
        }
        return true
    }

    private static func string(_ bytes: UnsafeBufferPointer<UInt8>.SubSequence) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
    }

    /// A line's tab-separated fields; the last takes the rest of the line, tabs and all.
    private static func split(_ line: UnsafeBufferPointer<UInt8>.SubSequence, maxFields: Int) -> [UnsafeBufferPointer<UInt8>.SubSequence] {
        var fields: [UnsafeBufferPointer<UInt8>.SubSequence] = []
        var rest = line
        while fields.count < maxFields - 1, let tab = rest.firstIndex(of: UInt8(ascii: "\t")) {
            fields.append(rest[..<tab])
            rest = rest[(tab + 1)...]
        }
        fields.append(rest)
        return fields
    }

    private struct LineReader {
        let bytes: UnsafeBufferPointer<UInt8>
        var position = 0

        mutating func next() -> UnsafeBufferPointer<UInt8>.SubSequence? {
            guard position < bytes.count else { return nil }
            let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            defer { position = end + 1 }
            return bytes[position..<end]
        }
    }

    /// The state file's bytes; nil when a path or message cannot be written in its tab-separated lines.
    public func encoded() -> [UInt8]? {
        func isField(_ text: String) -> Bool { !text.utf8.contains { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\t") } }
        guard inputs.stamps.keys.allSatisfy(isField), outputs.keys.allSatisfy(isField),
            warnings.allSatisfy({ $0.location.map { isField($0.file) } == true && isField($0.message) })
        else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(160 * (inputs.stamps.count + outputs.count))
        func line(_ fields: String...) {
            for (index, field) in fields.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: "\t")) }
                bytes.append(contentsOf: field.utf8)
            }
            bytes.append(UInt8(ascii: "\n"))
        }
        line(Self.header)
        line(settings)
        line("listings", String(listings))
        for warning in warnings {
            line("warning", warning.location!.file, String(warning.location!.line), String(warning.location!.column), warning.message)
        }
        for (path, stamp) in inputs.stamps.sorted(by: { $0.key < $1.key }) { line("input", stamp, path) }
        for (path, output) in outputs.sorted(by: { $0.key < $1.key }) {
            line("output", String(output.digest.size), output.digest.sha256, output.renderKey ?? "-", path)
        }
        for (key, version) in versions.sorted(by: { $0.key < $1.key }) { line("listing", version.updated.description, version.sha256, key) }
        line("build", String(sync.build), sync.date?.description ?? "-", sync.root)
        for list in sync.changes {
            line("change", String(list.build), list.date.description, list.from, list.to)
            for (path, digest) in list.files.sorted(by: { $0.key < $1.key }) {
                if let digest { line("changed", String(digest.size), digest.sha256, path) } else { line("removed", path) }
            }
        }
        if let staged, staged.differing.keys.allSatisfy(isField) {
            line("staging", staged.id)
            for (path, digest) in staged.differing.sorted(by: { $0.key < $1.key }) {
                line("staged", String(digest.size), digest.sha256, path)
            }
            for path in staged.missing.sorted() { line("unstaged", path) }
        }
        return bytes
    }

    /// Writes encoded state beside the site; a site that cannot be written to simply builds in full next time.
    public static func save(_ bytes: [UInt8]?, to path: String) {
        guard let bytes else { return }
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        replaceFile(at: path, with: bytes)
    }

    /// Through a temporary file and a rename, so a reader (or a build killed half-way) finds the old bytes or
    /// the new ones; a failure leaves the old file.
    private static func replaceFile(at path: String, with bytes: [UInt8]) {
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(bytes)) else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// True when the output folder is the one this state describes: its manifest, which holds the digest of
    /// every other file, has the bytes the state recorded, and every file the state lists is there with its
    /// size. (A build killed after swapping its output in but before saving its state leaves the previous
    /// state beside a newer output; files of the same sizes would pass for the ones the state describes.)
    public func outputsAreIntact(in outputPath: String) -> Bool {
        guard let manifest = outputs[Manifest.path], let bytes = FileManager.default.contents(atPath: outputPath + "/" + Manifest.path),
            Manifest.digest([UInt8](bytes)) == manifest.digest
        else { return false }
        // One stat per file, tens of thousands on a large site: across all cores, each path looked up from
        // the output folder rather than from the root.
        let folder = open(outputPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return false }
        defer { close(folder) }
        return Array(outputs).parallelMap { path, output in
            var info = stat()
            return fstatat(folder, path, &info, 0) == 0 && Int(info.st_size) == output.digest.size
        }.allSatisfy { $0 }
    }
}

extension BuildState.Staged {
    /// A staging folder holding `files`, recorded against `outputs`.
    public init(id: String, holding files: [String: BuildState.Output], against outputs: [String: BuildState.Output]) {
        self.init(
            id: id, differing: files.filter { outputs[$0.key]?.digest != $0.value.digest }.mapValues(\.digest),
            missing: Set(outputs.keys.filter { files[$0] == nil }))
    }
}
