import CatalogueIndex
import Dispatch
import Foundation
import OutputWriter
import Rendering
import SiteLoader
import SiteModel
import SiteValidation
import Support

/// One build into an output folder: its options and lock, the scan of its inputs, the last build's record
/// and, for an in-place edit, its change set. The stages (`Noticeboard.runStages`) note their times here.
struct BuildRun {
    let options: BuildOptions
    /// Held for the whole build (and, in place, until its record is saved).
    let lock: OutputLock
    let files: SiteFiles
    let buildDate: CalendarDate
    let statePath: String
    /// Everything besides the input files that decides the output (`BuildRun.settings(for:buildDate:)`).
    let settings: String
    let inputs: InputStamps
    /// The last build's record, when it describes the output folder. Not read whole when nothing changed
    /// and the site is not kept; its inputs only when the site is kept; without its listings' versions
    /// when a build from scratch goes on to write (`lastVersions` holds them).
    let recorded: BuildState?
    /// The last build's record even when the output folder has changed since: its listings' `updated` dates
    /// and sync history are the site's, whatever became of the folder. Read as `recorded` is.
    let lastRecord: BuildState?
    /// The last build's listings' versions, which `track` dates this build's listings by and then lets go of
    /// (`takeLastVersions`): held apart from the records above, which the output's bookkeeping keeps to the
    /// end, they held about 55 MiB of the peak at 430,000 listings.
    private var lastVersions: VersionTable
    /// What the last build into the same folder reported, when no input changed since and the folder is intact.
    let unchangedSummary: BuildState.Summary?
    /// In place: the edited listings and what the last build left in memory; nil for a build from scratch.
    let changes: ChangeSet?
    /// What the build read and made is kept for an in-place edit after it (`serve`); otherwise each stage lets
    /// go of the listings the one before made once it has made its own.
    let keepsSite: Bool
    var stages = StageTimes()
    /// Set by the last stage.
    var written = 0
    /// In place: saves the build record once the caller is done; the lock must be held until then.
    var saveLater: (@Sendable () -> RecordLayout?)?

    /// The last record, when it was made with the same settings: its render keys; kept, where nothing
    /// changed, the whole record the site starts from.
    var previous: BuildState? { recorded.flatMap { $0.settings == settings ? $0 : nil } }

    /// A build from scratch, which keeps what it read and made when `keepingSite`, from `scanned` inputs
    /// (scanned now when nil). Builds into the same place run one at a time: `waiting` is called when this
    /// one has to wait.
    init(_ options: BuildOptions, keepingSite: Bool, scanned: InputStamps? = nil, waiting: () -> Void) throws(BuildFailure) {
        try OwnedFolders.checkPlace(output: options.outputPath, root: options.root, inputFolders: Noticeboard.inputFolders)
        self.options = options
        // Taken before the last build's record is read, so a build that waited sees what the other one wrote.
        lock = try OutputLock(outputPath: options.outputPath, waiting: waiting)
        try OwnedFolders.checkReplaceable(output: options.outputPath)
        files = SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes)
        buildDate = options.now ?? CalendarDate.day(in: Self.timeZone(of: files))
        let statePath = BuildState.file(root: options.root, outputPath: options.outputPath)
        self.statePath = statePath
        WrittenRecord.removeLeftovers(besides: statePath)
        settings = Self.settings(for: options, buildDate: buildDate)
        keepsSite = keepingSite
        // The last build's record describes the output folder (and the staging folder) while the folder is
        // intact. That is checked while the inputs are scanned.
        let outputPath = options.outputPath
        let reading = InBackground { SavedBuildState(path: statePath).map { saved in (saved, saved.outputsAreIntact(in: outputPath)) } }
        inputs = scanned ?? InputStamps.scan(files, folders: Noticeboard.inputFolders)
        stages.finish("scan inputs")
        let (saved, intact) = (reading.value?.0, reading.value?.1 ?? false)
        let unchanged = intact && saved?.settings == settings && saved?.wasMade(from: inputs) == true
        // A build that writes needs the whole record but its inputs; one that keeps the site needs them too.
        var last = unchanged && !keepingSite ? nil : saved?.state(withInputs: keepingSite)
        if unchanged {
            // The run stops here: a kept site starts from the whole record, versions and all.
            lastVersions = VersionTable()
        } else {
            lastVersions = last?.versions ?? VersionTable()
            last?.versions = VersionTable()
        }
        lastRecord = last
        recorded = intact ? lastRecord : nil
        if !unchanged, let saved, let outputs = recorded?.outputs, let recordTime = FileStamp(of: statePath)?.changeTime {
            try OwnedFolders.checkNothingAdded(output: outputPath, outputs: outputs, saved: saved, since: recordTime)
        }
        if !unchanged, let saved, let recorded {
            try OwnedFolders.checkNothingAdded(toStagingOf: outputPath, saved: saved, recorded: recorded, statePath: statePath)
        }
        // Kept, the site starts from the whole record: one damaged past its head is not taken as unchanged.
        unchangedSummary = unchanged && (!keepingSite || recorded != nil) ? saved?.summary : nil
        stages.finish("read last build's state")
        changes = nil
    }

    /// An in-place edit after `last`, when the only change is to the content of existing listing files;
    /// nil when the change needs a whole build, or another build wrote the output since `last` (whose
    /// manifest was `manifestStamp`). `written` and `spares` are `last`'s `writtenFiles` and `spareFiles`, taken
    /// out of it: the documents of kinds the edit leaves alone are let go before it renders (all of them, made
    /// ready for a first edit, were 1.5 GB at 10× L).
    init?(
        _ options: BuildOptions, after last: Noticeboard.BuiltSite, written: consuming [String: [UInt8]] = [:],
        spares: consuming [String: [UInt8]] = [:], inputs: InputStamps, manifestStamp: FileStamp?, waiting: () -> Void
    ) throws(BuildFailure) {
        // With as many inputs as before, a file added in place of another shows as changed, and is not a listing file of the site.
        let changed = inputs.changedPaths(since: last.state.inputs)
        let buildDate = options.now ?? CalendarDate.day(in: last.site.config.timeZone)
        guard buildDate == last.catalogue.buildDate, inputs.count == last.state.inputs.count else { return nil }
        let listings = changed.sorted().compactMap { last.site.listing(inFile: $0) }
        guard listings.count == changed.count else { return nil }
        lock = try OutputLock(outputPath: options.outputPath, waiting: waiting)
        guard FileStamp(ofManifestIn: options.outputPath) == manifestStamp else { return nil }
        if listings.isEmpty {
            changes = nil
        } else {
            let kinds = Set(listings.map(\.kind))
            let spliced = (consume written).filter { path, _ in last.kept?.mayBeSpliced(path, byAnEditOf: kinds) ?? true }
            guard let book = OutputBook.inPlace(
                outputPath: options.outputPath, statePath: last.statePath, last: last.state, lastWritten: spliced, spares: consume spares,
                recordLayout: last.record)
            else { return nil }
            changes = ChangeSet(last: last, listings: listings, book: book)
        }
        self.options = options
        // Anew for each build: a `SiteFiles` holds its top folders as it first found them.
        files = SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes)
        self.buildDate = buildDate
        statePath = last.statePath
        settings = last.state.settings
        self.inputs = inputs
        recorded = last.state
        lastRecord = last.state
        lastVersions = last.state.versions
        unchangedSummary = last.state.inputs == inputs ? last.summary : nil
        keepsSite = true
    }

    /// The last build's listings' versions, which this run holds no more.
    mutating func takeLastVersions() -> VersionTable {
        exchange(&lastVersions, with: VersionTable())
    }

    /// The report of this build, from the summary of the record it left.
    func report(_ summary: BuildState.Summary, imagesProcessed: Int) -> BuildReport {
        BuildReport(
            listings: summary.listings, pages: summary.pages, files: summary.files, written: written, bytes: summary.bytes,
            imagesProcessed: imagesProcessed, warnings: summary.warnings,
            seconds: stages.secondsSinceStart, stages: stages)
    }

    /// Where the site is, read before the site is: the build date decides whether anything changed. UTC when
    /// the configuration cannot be read, which loading it then reports.
    private static func timeZone(of files: SiteFiles) -> TimeZone {
        (try? LoadedSite.config(files))?.timeZone ?? .gmt
    }

    /// The build's version, the running executable's own stamp, and the options that shape output.
    static func settings(for options: BuildOptions, buildDate: CalendarDate) -> String {
        var info = stat()
        let executable = stat("/proc/self/exe", &info) == 0 ? "\(info.st_size) \(info.st_mtim.tv_sec)" : "unknown"
        return "version=\(Noticeboard.version) executable=\(executable) now=\(buildDate) max-file-bytes=\(options.maxFileBytes) base-url=\(options.baseURL ?? "")"
    }
}

/// What an in-place edit changes: the edited listing files, as the last build read them, and what that
/// build left in memory to start from.
struct ChangeSet {
    let last: Noticeboard.BuiltSite
    let listings: [Listing]
    /// The write over the last build's output.
    let book: OutputBook
}
