/// What a build or check reads and where it writes.
public struct BuildOptions: Sendable {
    /// The site root: the folder holding `content/` and `templates/`.
    public var root: String
    /// The output folder; `<root>/public` when nil.
    public var output: String?
    /// Input files larger than this are refused unread.
    public var maxFileBytes: Int
    /// The day the build counts from: daily picks start on it. Today (UTC) when nil.
    public var now: CalendarDate?
    /// Replaces the configuration's `base_url` (the preview server's own address).
    public var baseURL: String?
    /// Told what the build is doing as each stage starts ("Rendering 23,525 pages"), for a progress line.
    public var progress: (@Sendable (String) -> Void)?
    /// The process ends right after the build (the command line): what it read and made is left allocated
    /// rather than freed object by object (see `LeftForExit`).
    public var processEndsAfter = false

    public init(root: String = ".", output: String? = nil, maxFileBytes: Int = 10 * 1024 * 1024, now: CalendarDate? = nil, baseURL: String? = nil) {
        self.root = root
        self.output = output
        self.maxFileBytes = maxFileBytes
        self.now = now
        self.baseURL = baseURL
        self.progress = nil
    }

    public var outputPath: String { output ?? SitePaths.path("public", in: root) }
}

/// What a successful build did.
public struct BuildReport: Sendable {
    public var listings: Int
    public var pages: Int
    public var files: Int
    /// Files written anew; the others were kept as the last build left them.
    public var written: Int
    public var bytes: Int
    /// Images decoded and encoded; the others' variants came from the image cache.
    public var imagesProcessed: Int
    public var warnings: [Diagnostic]
    public var seconds: Double
    /// Where those seconds went.
    public var stages: StageTimes
}

import SiteModel
import Support
