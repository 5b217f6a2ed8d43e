import Foundation
import Noticeboard
import SiteLoader
import SiteModel

/// Polls the site's inputs and rebuilds when they change. Polling (every 250 ms) needs no platform
/// file-event API and costs a `stat` per input file; a change is acted on once it has been still for
/// one more poll, so an editor's burst of writes makes one rebuild. The site stays in memory between
/// builds, so an edit to a listing's content is built in place (see `LiveSite`).
struct SiteWatcher: Sendable {
    let options: BuildOptions
    let events: ReloadEvents
    let site: LiveSite
    /// Called when a build has to wait for another one writing into the same place (see `OutputLock`).
    let waiting: @Sendable () -> Void
    let interval: Duration = .milliseconds(250)

    func run(onRebuild: @Sendable (Result<BuildReport, BuildFailure>) -> Void) async {
        let files = SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes)
        var built = InputStamps.scan(files, folders: Noticeboard.inputFolders)
        var pending: InputStamps?
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            let current = InputStamps.scan(files, folders: Noticeboard.inputFolders)
            if current == built {
                pending = nil
            } else if current == pending {
                built = current
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
