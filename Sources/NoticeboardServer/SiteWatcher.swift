import Foundation
import Noticeboard
import SiteLoader
import SiteModel

/// Polls the site's inputs and rebuilds when they change. Ten times a second it asks inotify what happened
/// in the site's folders, and looks again at the entries it names (`InputStamps.rescanning`); without
/// inotify, when events were missed, or when an input is a symbolic link (whose target may change anywhere),
/// it scans every input (a `stat` per file), four times a second. A change is acted on once it has been
/// still for one more poll, so an editor's burst of writes makes one rebuild. The site stays in memory
/// between builds, so an edit to a listing's content is built in place (see `LiveSite`).
struct SiteWatcher: Sendable {
    let options: BuildOptions
    let events: ReloadEvents
    let site: LiveSite
    /// Called when a build has to wait for another one writing into the same place (see `OutputLock`).
    let waiting: @Sendable () -> Void
    /// How long it waits after a look: reading inotify's events costs next to nothing, a scan of every input
    /// a `stat` per file (and one that had to scan, for want of events, may well have to again).
    private func interval(scanning: Bool) -> Duration { scanning ? .milliseconds(250) : .milliseconds(100) }
    private let folderEvents: FolderEvents?

    init(options: BuildOptions, events: ReloadEvents, site: LiveSite, waiting: @escaping @Sendable () -> Void) {
        (self.options, self.events, self.site, self.waiting) = (options, events, site, waiting)
        folderEvents = FolderEvents(root: options.root)
    }

    private var files: SiteFiles { SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes) }

    /// Watches the site's folders, then builds from a scan taken after that: the inputs `run` compares with.
    /// So an edit made while the first build runs (minutes at 430,000 listings) is seen and built after it,
    /// rather than taken by a later scan for what was built.
    func firstBuild(onRebuild: @Sendable (Result<BuildReport, BuildFailure>) -> Void) async -> InputStamps {
        folderEvents?.watch(below: Noticeboard.inputFolders)
        let inputs = InputStamps.scan(files, folders: Noticeboard.inputFolders)
        await rebuild(onRebuild, inputs: inputs)
        return inputs
    }

    /// Rebuilds whenever the inputs differ from those of the last build (`firstBuild`'s to begin with).
    func run(after firstInputs: InputStamps, onRebuild: @Sendable (Result<BuildReport, BuildFailure>) -> Void) async {
        var built = firstInputs
        var pending: InputStamps?
        var watchesLinks = built.hasLinks, scanned = true
        while !Task.isCancelled {
            try? await Task.sleep(for: interval(scanning: scanned))
            // Drained also while links are watched, so that the queue holds only what comes after.
            let changes = folderEvents?.drain() ?? .unknown
            scanned = watchesLinks || changes == .unknown
            let current: InputStamps
            switch scanned ? .unknown : changes {
            case .none:
                guard let still = pending else { continue }
                current = still
            case .entries(let entries):
                pending = (pending ?? built).rescanning(entries, in: files)
                if pending == built { pending = nil }
                continue
            case .unknown:
                folderEvents?.watch(below: Noticeboard.inputFolders)
                let scan = InputStamps.scan(files, folders: Noticeboard.inputFolders)
                if scan == built {
                    pending = nil
                    continue
                }
                guard scan == pending else {
                    pending = scan
                    continue
                }
                current = scan
            }
            built = current
            watchesLinks = current.hasLinks
            pending = nil
            await rebuild(onRebuild, inputs: current)
        }
    }

    /// Builds, then tells the open tabs: reload, or show the errors (the last good build stays served).
    func rebuild(_ onRebuild: @Sendable (Result<BuildReport, BuildFailure>) -> Void, inputs: InputStamps) async {
        do throws(BuildFailure) {
            let report = try site.build(inputs: inputs, waiting: waiting)
            onRebuild(.success(report))
            await events.publish(.reload)
        } catch {
            onRebuild(.failure(error))
            await events.publish(.failure(error.description))
        }
    }
}
