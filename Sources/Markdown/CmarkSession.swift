import CCmarkGFM
import CCmarkThreads
import Foundation

/// cmark-gfm parses with GitHub's extensions attached and every byte cmark allocates counted, on every core.
///
/// Two pieces of cmark-gfm's state are shared by the whole process, and `CCmarkThreads` makes each safe: the
/// table of characters that start an extension's inlines (which a parse that ends would take from another
/// still running) only ever gains characters, and the allocation count is kept per thread. The first takes the
/// place of a library function, which works only while the library calls it through its PLT, as Debian's
/// build does; the first parse checks that it does, and otherwise parses run one at a time, as they must.
/// A parse may not start another from within `use`: the two would share one count.
enum CmarkSession {
    /// Every parse attaches all of these: the shared table holds their characters for every parse after the first.
    static let extensionNames = ["table", "strikethrough", "autolink", "tagfilter", "tasklist"]

    /// The registered extensions, looked up once: registration is not thread-safe, lookups after it are.
    private nonisolated(unsafe) static let extensions: [OpaquePointer] = {
        cmark_gfm_core_extensions_ensure_registered()
        return extensionNames.map { name in
            guard let found = cmark_find_syntax_extension(name) else {
                fatalError("cmark-gfm extension '\(name)' is not registered; is libcmark-gfm-extensions installed?")
            }
            return found
        }
    }()

    /// Whether parses may run at once: true when both of cmark-gfm's changes to its table in a parse, the
    /// adding and the removing, reach `CCmarkThreads`, which one parse, made before any other, shows.
    static let parsesRunAtOnce: Bool = {
        let before = nb_cmark_table_calls()
        try! parse("https://example.org", options: CMARK_OPT_DEFAULT, budget: nil) { _ in }
        return nb_cmark_table_calls() - before == 2
    }()

    /// Holds parses to one at a time when they may not run at once.
    private static let oneAtATime = NSLock()

    /// The parsed document and the parser (whose extensions rendering needs), while the parse lasts.
    struct Parsed {
        let document: OpaquePointer
        let parser: OpaquePointer
    }

    /// Why a parse was given up before it finished: the memory it held, or would need for its inlines.
    struct OverMemory: Error {
        let bytes: Int
    }

    /// A limit on the bytes cmark may hold, and what its inlines will take (`MarkdownScan.inlineBytes`).
    struct MemoryBudget {
        let limit: Int
        let inlineBytes: Int
    }

    /// The most bytes cmark has held in this thread's parse. cmark frees much of what its inlines take before
    /// it returns (a run of 300,000 '"' peaks at 55 MB and ends with a few), so limits are on the peak.
    static var peak: Int { Int(nb_cmark_count_peak()) }

    /// Parses `markdown` and hands the document to `use`. With a budget, the text is fed a line at a time and
    /// the parse given up once cmark holds more than the limit, or once its inlines would take it past the
    /// limit (cmark parses them all at once, in `cmark_parser_finish`, with no way to stop).
    static func withDocument<Result>(
        _ markdown: String, options: Int32, budget: MemoryBudget? = nil, _ use: (Parsed) -> Result
    ) throws(OverMemory) -> Result {
        if parsesRunAtOnce { return try parse(markdown, options: options, budget: budget, use) }
        oneAtATime.lock()
        defer { oneAtATime.unlock() }
        return try parse(markdown, options: options, budget: budget, use)
    }

    private static func parse<Result>(
        _ markdown: String, options: Int32, budget: MemoryBudget?, _ use: (Parsed) -> Result
    ) throws(OverMemory) -> Result {
        nb_cmark_count_restart()
        guard let parser = cmark_parser_new_with_mem(options, nb_cmark_counting_allocator()) else {
            fatalError("cmark-gfm could not allocate a parser")
        }
        defer { cmark_parser_free(parser) }
        for syntax in extensions { cmark_parser_attach_syntax_extension(parser, syntax) }
        var markdown = markdown
        let fed = markdown.withUTF8 { bytes in feed(bytes, to: parser, budget: budget) }
        if let fed { throw fed }
        guard let document = cmark_parser_finish(parser) else { fatalError("cmark-gfm could not finish parsing") }
        defer { cmark_node_free(document) }
        if let budget, peak > budget.limit { throw OverMemory(bytes: peak) }
        return use(Parsed(document: document, parser: parser))
    }

    private static func feed(_ bytes: UnsafeBufferPointer<UInt8>, to parser: OpaquePointer, budget: MemoryBudget?) -> OverMemory? {
        guard let budget else {
            bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
            return nil
        }
        // cmark parses the blocks of a line when it has the whole line, so the check comes before each line too.
        var start = 0
        while start < bytes.count {
            let end = lineEnd(in: bytes, from: start)
            let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
            let needed = peak + MarkdownScan.blockBytes(ofLine: line)
            if needed > budget.limit { return OverMemory(bytes: needed) }
            line.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
            if peak > budget.limit { return OverMemory(bytes: peak) }
            start = end
        }
        let needed = peak + budget.inlineBytes
        return needed > budget.limit ? OverMemory(bytes: needed) : nil
    }

    /// Where the line that starts at `start` ends, after its "\n", "\r" or "\r\n": cmark takes all three.
    private static func lineEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let end = bytes[start...].firstIndex(where: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) else { return bytes.count }
        return bytes[end] == UInt8(ascii: "\r") && end + 1 < bytes.count && bytes[end + 1] == UInt8(ascii: "\n") ? end + 2 : end + 1
    }
}
