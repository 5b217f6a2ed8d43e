import Foundation
import Noticeboard
import SiteLoader
import SiteModel

/// Polls the site's inputs and rebuilds when they change. Every 250 ms it asks inotify whether anything
/// happened in the site's folders, and only then scans the inputs (a `stat` per file) to see what changed;
/// without inotify, or when an input is a symbolic link (whose target may change anywhere), it scans on
/// every poll. A change is acted on once it has been still for one more poll, so an editor's burst of
/// writes makes one rebuild. The site stays in memory between builds, so an edit to a listing's content
/// is built in place (see `LiveSite`).
struct SiteWatcher: Sendable {
    let options: BuildOptions
    let events: ReloadEvents
    let site: LiveSite
    /// Called when a build has to wait for another one writing into the same place (see `OutputLock`).
    let waiting: @Sendable () -> Void
    let interval: Duration = .milliseconds(250)
    private let folderEvents = FolderEvents()

    private var files: SiteFiles { SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes) }
    private var folders: [String] { Noticeboard.inputFolders.map(files.absolute) }

    /// Watches the site's folders, then builds from a scan taken after that: the inputs `run` compares with.
    /// So an edit made while the first build runs (minutes at 430,000 listings) is seen and built after it,
    /// rather than taken by a later scan for what was built.
    func firstBuild(onRebuild: @Sendable (Result<BuildReport, BuildFailure>) -> Void) async -> InputStamps {
        folderEvents?.watch(below: folders)
        let inputs = InputStamps.scan(files, folders: Noticeboard.inputFolders)
        await rebuild(onRebuild, inputs: inputs)
        return inputs
    }

    /// Rebuilds whenever the inputs differ from those of the last build (`firstBuild`'s to begin with).
    func run(after firstInputs: InputStamps, onRebuild: @Sendable (Result<BuildReport, BuildFailure>) -> Void) async {
        var built = firstInputs
        var pending: InputStamps?
        func hasLinks(_ inputs: InputStamps) -> Bool { inputs.stamps.values.contains { $0.hasPrefix("link ") } }
        var watchesLinks = hasLinks(built)
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            guard folderEvents?.drain() ?? true || pending != nil || watchesLinks else { continue }
            folderEvents?.watch(below: folders)
            let current = InputStamps.scan(files, folders: Noticeboard.inputFolders)
            if current == built {
                pending = nil
            } else if current == pending {
                built = current
                watchesLinks = hasLinks(current)
                pending = nil
                await rebuild(onRebuild, inputs: current)
            } else {
                pending = current
            }
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
