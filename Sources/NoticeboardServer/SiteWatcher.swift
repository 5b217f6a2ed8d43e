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

    func run(onRebuild: @Sendable (Result<BuildReport, BuildFailure>) -> Void) async {
        let files = SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes)
        let folders = Noticeboard.inputFolders.map(files.absolute)
        let folderEvents = FolderEvents()
        folderEvents?.watch(below: folders)
        var built = InputStamps.scan(files, folders: Noticeboard.inputFolders)
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
    func rebuild(_ onRebuild: @Sendable (Result<BuildReport, BuildFailure>) -> Void, inputs: InputStamps? = nil) async {
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
