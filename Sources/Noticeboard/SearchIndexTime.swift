import Dispatch
import Rendering
import SiteLoader
import SiteModel
import SiteValidation

extension Noticeboard {
    /// How long the build's search index writer takes on this site, apart from the rest of the build: the
    /// site is read and indexed as a build does, then the index is made in memory (timed) and not written.
    /// For `make bench` (the hidden `noticeboard search-index-time`). Returns seconds, files and bytes.
    public static func searchIndexTime(_ options: BuildOptions) throws(BuildFailure) -> (seconds: Double, files: Int, bytes: Int) {
        let site = try LoadedSite(files: SiteFiles(root: options.root, maxFileBytes: options.maxFileBytes), baseURL: options.baseURL)
        var stages = StageTimes()
        let catalogue = try enrichAndIndex(site, buildDate: options.now ?? CalendarDate.day(in: site.config.timeZone), stages: &stages).catalogue
        let renderer = SiteRenderer(catalogue: catalogue, templates: site.templates, staticFiles: [])
        let start = DispatchTime.now()
        let files = renderer.searchIndex(keepingCorpus: false).files
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let bytes = files.reduce(0) { total, file in
            if case .bytes(let contents) = file.contents { return total + contents.count }
            return total
        }
        return (seconds, files.count, bytes)
    }
}
