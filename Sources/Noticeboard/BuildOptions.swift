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

    public init(root: String = ".", output: String? = nil, maxFileBytes: Int = 10 * 1024 * 1024, now: CalendarDate? = nil) {
        self.root = root
        self.output = output
        self.maxFileBytes = maxFileBytes
        self.now = now
    }

    public var outputPath: String { output ?? (root == "." ? "public" : root + "/public") }
}

/// What a successful build did.
public struct BuildReport: Sendable {
    public var listings: Int
    public var pages: Int
    public var files: Int
    public var bytes: Int
    public var warnings: [Diagnostic]
    public var seconds: Double
}

import SiteModel
