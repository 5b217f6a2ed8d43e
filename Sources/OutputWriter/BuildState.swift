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
    public var outputs: OutputTable
    /// Reported again by a build that finds nothing changed.
    public var listings: Int
    public var warnings: [Diagnostic]
    /// What the output's staging folder holds (the site before this one), and the name of that record,
    /// which the staging marker must repeat for the folder to be reused; nil when not kept.
    public var staged: Staged?
    /// Each listing's digest and `updated` date, and the builds apps can sync from: kept from build to build
    /// (see `ListingVersions` and `SyncHistory`).
    public var versions: VersionTable
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
        public var renderKey: SHA256.Digest?
    }

    static let header = "noticeboard-build-state 4"
    /// The version before, which lacks the head's summaries (see `SavedBuildState`); still read whole, so
    /// that its listings' `updated` dates and sync history carry over to the next build.
    static let previousHeader = "noticeboard-build-state 3"

    public init(
        settings: String, inputs: InputStamps, outputs: OutputTable, listings: Int, warnings: [Diagnostic], staged: Staged?,
        versions: VersionTable = VersionTable(), sync: SyncHistory = .none
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

    /// The staging folder's files, when the marker confirms the state's record of them: read through the
    /// outputs' digests, not copied from them (a table of 776,000 held through the build at 430,000 listings).
    public func confirmedStaged(statePath: String) -> WrittenDigests? {
        guard let staged, stagingIsConfirmed(statePath: statePath) else { return nil }
        return staged.files(over: outputs)
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

    /// Nil when the bytes are not a record this version wrote, or are damaged. Without `withInputs`, the
    /// input lines are checked but not kept (`SavedBuildState.state(withInputs:)`).
    /// Parsed as bytes: a large site's state has a line for each of its tens of thousands of files, and
    /// splitting it as Swift strings took half of a no-change rebuild.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, withInputs: Bool = true) -> BuildState? {
        guard String(validating: bytes, as: UTF8.self) != nil else { return nil }
        var lines = RecordText.Lines(bytes[...])
        guard let first = lines.next(), [header, previousHeader].contains(first.text), let settingsLine = lines.next() else { return nil }
        let settings = settingsLine.text
        // Made at their size once the head's summaries give it (a record of the version before has none, and
        // grows them), rather than each at the count of all lines, which at 430,000 listings made each table two
        // to four times its size. A damaged count reserves no more than that.
        let lineCount = bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        var inputs: [String: String] = [:]
        var outputs = OutputTable()
        var listings = 0
        var warnings: [Diagnostic] = []
        // The staging folder's record, as differences from the outputs.
        var stagingID: String?
        var stagedDifferent: [String: FileDigest] = [:]
        var unstaged: Set<String> = []
        var versions = VersionTable()
        var sync = SyncHistory.none
        while let line = lines.next() {
            if line.isEmpty { continue }
            let fields = line.fields(max: 5)
            switch (fields[0].text, fields.count) {
            case ("listings", 2):
                listings = Int(fields[1].text) ?? 0
            case ("outputs", 4):
                outputs.reserveCapacity(min(fields[1].decimal ?? 0, lineCount))
            case ("inputs", 3):
                if withInputs { inputs.reserveCapacity(min(fields[1].decimal ?? 0, lineCount)) }
            case ("warning", 5):
                guard let line = Int(fields[2].text), let column = Int(fields[3].text) else { return nil }
                warnings.append(.warning(at: SourceLocation(file: fields[1].text, line: line, column: column), fields[4].text))
            case ("input", 3):
                if withInputs { inputs[fields[2].text] = fields[1].text }
            case ("staging", 2):
                stagingID = fields[1].text
            case ("staged", 4):
                guard let digest = fileDigest(size: fields[1], sha256: fields[2]) else { return nil }
                stagedDifferent[fields[3].text] = digest
            case ("unstaged", 2):
                unstaged.insert(fields[1].text)
            case ("output", 5):
                guard let digest = fileDigest(size: fields[1], sha256: fields[2]) else { return nil }
                let renderKey = fields[3].elementsEqual("-".utf8) ? nil : SHA256.Digest(hex: fields[3])
                guard renderKey != nil || fields[3].count == 1 else { return nil }
                outputs[bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: fields[4]))] = Output(digest: digest, renderKey: renderKey)
            default:
                guard readTracking(fields, versions: &versions, sync: &sync) else { return nil }
            }
        }
        let staged = stagingID.map { Staged(id: $0, differing: stagedDifferent, missing: unstaged) }
        return BuildState(
            settings: settings, inputs: InputStamps(stamps: inputs), outputs: outputs, listings: listings, warnings: warnings, staged: staged,
            versions: versions, sync: sync)
    }

    /// A file's size and digest from their fields; nil when either is damaged.
    private static func fileDigest(size: RecordText.Line, sha256: RecordText.Line) -> FileDigest? {
        guard let size = size.decimal, let sha256 = SHA256.Digest(hex: sha256) else { return nil }
        return FileDigest(size: size, sha256: sha256)
    }

    /// A line of the listings' versions or the sync history; false when it is neither, or damaged.
    private static func readTracking(
        _ fields: [RecordText.Line], versions: inout VersionTable, sync: inout SyncHistory
    ) -> Bool {
        switch (fields[0].text, fields.count) {
        case ("listing", 4):
            guard let date = CalendarDate(parsing: Substring(fields[1].text)), let sha256 = SHA256.Digest(hex: fields[2]) else { return false }
            // A key without a kind and a slug, which no build writes, makes the record unreadable: the next build is whole.
            return versions.set(ListingVersions.Version(updated: date, sha256: sha256), forKey: fields[3].text)
        case ("build", 4):
            guard let build = Int(fields[1].text) else { return false }
            sync.build = build
            sync.date = CalendarDate(parsing: Substring(fields[2].text))
            sync.root = fields[3].text
        case ("change", 5):
            guard let build = Int(fields[1].text), let date = CalendarDate(parsing: Substring(fields[2].text)) else { return false }
            sync.changes.append(ChangeList(build: build, date: date, from: fields[3].text, to: fields[4].text, files: [:]))
        case ("changed", 4):
            guard let digest = fileDigest(size: fields[1], sha256: fields[2]), !sync.changes.isEmpty else { return false }
            sync.changes[sync.changes.count - 1].files[fields[3].text] = digest
        case ("removed", 2):
            guard !sync.changes.isEmpty else { return false }
            sync.changes[sync.changes.count - 1].files[fields[1].text] = .some(nil)
        case ("bucket", 3):
            guard let sha256 = SHA256.Digest(hex: fields[2]), !sync.changes.isEmpty else { return false }
            sync.changes[sync.changes.count - 1].buckets[fields[1].text] = sha256
        default:
            return false
        }
        return true
    }

    /// What a build reports of its output: counts and sizes, and the warnings it gave.
    public struct Summary: Equatable, Sendable {
        public var listings: Int
        public var pages: Int
        public var files: Int
        public var bytes: Int
        public var warnings: [Diagnostic]
    }

    public var summary: Summary {
        Summary(
            listings: listings, pages: outputs.count(ofPathsEndingWith: ".html"), files: outputs.count,
            bytes: outputs.values.reduce(0) { $0 + $1.digest.size }, warnings: warnings)
    }

    /// This record's summary from the `last` one, that of `previous`, when only the outputs at `paths` can
    /// differ from its: an edit in place reports without walking every output (776,000 at 10× L).
    public func summary(updating last: Summary, from previous: BuildState, at paths: some Sequence<String>) -> Summary {
        var summary = last
        func count(_ output: Output?, _ path: String, as sign: Int) {
            guard let output else { return }
            summary.files += sign
            summary.bytes += sign * output.digest.size
            if path.hasSuffix(".html") { summary.pages += sign }
        }
        for path in paths {
            count(previous.outputs[path], path, as: -1)
            count(outputs[path], path, as: 1)
        }
        summary.listings = listings
        summary.warnings = warnings
        return summary
    }

    /// Writes the record beside the state file at `path`, part by part as it is made (at 430,000 listings it
    /// is 160 MB), under a temporary name that `WrittenRecord.save` puts in place. Nil when it cannot be
    /// written: a site that cannot be written to, or a path that cannot be a field, simply builds in full next time.
    /// With `keepingLayout`, the written record keeps where its keyed lines lie (`RecordLayout`).
    public func write(besides path: String, keepingLayout: Bool = false) -> WrittenRecord? {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let temporary = path + ".tmp-\(getpid())"
        var complete = false, layout: RecordLayout?
        let keep: ((RecordLayout) -> Void)? = keepingLayout ? { layout = $0 } : nil
        guard (try? StreamedFile.writeParts({ complete = write(into: &$0, layout: keep) }, to: temporary)) != nil, complete else {
            unlink(temporary)
            return nil
        }
        return WrittenRecord(temporary: temporary, path: path, layout: layout)
    }

    /// Writes the record beside the state file at `path` spliced from the `last` one, the record of `state`
    /// laid out as `layout`, when that is still the saved record (`RecordLayout.stamp`); otherwise whole.
    /// Either way it keeps its layout.
    public func write(besides path: String, splicing last: (state: BuildState, layout: RecordLayout)) -> WrittenRecord? {
        guard let stamp = last.layout.stamp, let (bytes, read) = FileStamp.read(path, size: Int(stamp.size)), read == stamp,
            let spliced = spliced(from: (last.state, bytes, last.layout))
        else { return write(besides: path, keepingLayout: true) }
        var written = WrittenRecord.writing(spliced.bytes, besides: path)
        written?.layout = spliced.layout
        return written
    }

    /// Through a temporary file and a rename, so a reader (or a build killed half-way) finds the old bytes or
    /// the new ones; a failure leaves the old file.
    private static func replaceFile(at path: String, with bytes: [UInt8]) {
        WrittenRecord.writing(bytes, besides: path)?.save()
    }
}

/// A build record written under a temporary name beside its state file, until the output it describes is in place.
public struct WrittenRecord: Sendable {
    let temporary: String
    let path: String
    /// Where its keyed lines lie, when it was written keeping that.
    var layout: RecordLayout?

    /// `bytes` written under the temporary name beside `path` (one a killed build left is replaced); nil when
    /// they cannot be.
    static func writing(_ bytes: [UInt8], besides path: String) -> WrittenRecord? {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        do throws(WriteError) { try StagedOutput.writeBytes(bytes, at: temporary) } catch {
            unlink(temporary)
            return nil
        }
        return WrittenRecord(temporary: temporary, path: path)
    }

    /// Puts the record in place with a rename: a reader, or a build killed half-way, finds the old one or
    /// this. Returns its layout, stamped as saved, when it kept one.
    @discardableResult public func save() -> RecordLayout? {
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            return nil
        }
        return layout.map { layout in
            var saved = layout
            saved.stamp = FileStamp(of: path)
            return saved
        }
    }

    /// Removes it: the output it describes was not swapped in.
    public func discard() {
        unlink(temporary)
    }

    /// Removes the records that processes stopped half-way left under a temporary name beside `path`: a
    /// Ctrl-C while `serve` levels its staging folder leaves one as large as the record (195 MB at 430,000
    /// listings), which only a later save by a process with the same id would have replaced. Only with the
    /// output's lock held, which every process writing this record holds.
    public static func removeLeftovers(besides path: String) {
        let folder = StagedOutput.parentFolder(of: path), prefix = StagedOutput.lastComponent(of: path) + ".tmp-"
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [] where name.hasPrefix(prefix) {
            let pid = name.dropFirst(prefix.count)
            if !pid.isEmpty, pid.allSatisfy({ $0.isASCII && $0.isNumber }) { unlink(folder + "/" + name) }
        }
    }
}

extension BuildState.Staged {
    /// The folder's files, recorded against `outputs`: theirs, but those it lacks, and with its own digests
    /// where they differ.
    public func files(over outputs: OutputTable) -> WrittenDigests {
        let missing = missing
        return outputs.digests.excluding { missing.contains($0) }.adding(differing)
    }

    /// A staging folder holding `files`, recorded against `outputs`.
    public init(id: String, holding files: OutputTable, against outputs: OutputTable) {
        var differing: [String: FileDigest] = [:], missing: Set<String> = []
        files.forEachEntry { path, file in
            if outputs[bytes: path]?.digest != file.digest { differing[String(decoding: path, as: UTF8.self)] = file.digest }
        }
        outputs.forEachEntry { path, _ in
            if files[bytes: path] == nil { missing.insert(String(decoding: path, as: UTF8.self)) }
        }
        self.init(id: id, differing: differing, missing: missing)
    }
}
