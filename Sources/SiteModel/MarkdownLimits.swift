/// What one Markdown field (or page) may render to: the `markdown:` mapping of `content/site.yaml`. cmark-gfm pads
/// every table row to its header's width and keeps a node of a few hundred bytes per piece of markup, so a small
/// field could otherwise take gigabytes of memory and HTML.
public struct MarkdownLimits: Sendable, Hashable {
    /// Block quotes, lists, emphasis, strikethrough, links and images nested in one another.
    public var maxNesting: Int
    /// Cells of a field's tables, counting the empty ones that pad short rows to the header's width.
    public var maxTableCells: Int
    /// The HTML of a field may be at most this many times its Markdown, plus `htmlAllowance`.
    public var maxHTMLGrowth: Int
    /// The memory cmark-gfm takes to parse a field may be at most this many times its Markdown, plus
    /// `memoryAllowance`. Formatted prose takes about 30 times its size, and the bound that the check
    /// computes before cmark parses its inlines up to 150 times for short formatted paragraphs (which take
    /// about 95 times their size).
    public var maxMemoryGrowth: Int

    public static let standard = MarkdownLimits(maxNesting: 32, maxTableCells: 10_000, maxHTMLGrowth: 20, maxMemoryGrowth: 160)
    /// So that short fields (a one-line list renders to several times its size, and cmark's parser takes some
    /// kilobytes to start) are never refused. Small, because a file may hold thousands of short fields: fuzzing
    /// found that with 16 MiB, 3 KB of Markdown could make cmark pad tables for 16 MiB, a second under ASan.
    public static let htmlAllowance = 16 * 1024
    public static let memoryAllowance = 256 * 1024

    public init(maxNesting: Int, maxTableCells: Int, maxHTMLGrowth: Int, maxMemoryGrowth: Int) {
        self.maxNesting = maxNesting
        self.maxTableCells = maxTableCells
        self.maxHTMLGrowth = maxHTMLGrowth
        self.maxMemoryGrowth = maxMemoryGrowth
    }

    public func maxHTMLBytes(forSource bytes: Int) -> Int { Self.htmlAllowance + maxHTMLGrowth * bytes }
    public func maxMemoryBytes(forSource bytes: Int) -> Int { Self.memoryAllowance + maxMemoryGrowth * bytes }
}
