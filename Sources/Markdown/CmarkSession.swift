import CCmarkGFM
import Foundation
import Synchronization

/// One cmark-gfm parse at a time, with GitHub's extensions attached and every byte cmark allocates counted.
///
/// cmark-gfm keeps the characters that start an extension's inlines (':' and 'w' for autolinks, '~' for
/// strikethrough) in one global table, adds them while a parser runs and removes them when it is done, so
/// two documents parsed at once can lose each other's autolinks. The lock also guards the allocation count.
enum CmarkSession {
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

    private static let lock = Mutex(())

    /// Bytes cmark holds now, as it asked for them, and the most it has held in this parse; read and written
    /// only under `lock`. cmark frees much of what its inlines take before it returns (a run of 300,000 '"'
    /// peaks at 55 MB and ends with a few), so limits are on the peak.
    fileprivate(set) nonisolated(unsafe) static var allocated = 0
    fileprivate(set) nonisolated(unsafe) static var peak = 0

    private nonisolated(unsafe) static let countingAllocator: UnsafeMutablePointer<cmark_mem> = {
        let allocator = UnsafeMutablePointer<cmark_mem>.allocate(capacity: 1)
        allocator.initialize(to: cmark_mem(calloc: countingCalloc, realloc: countingRealloc, free: countingFree))
        return allocator
    }()

    /// The parsed document and the parser (whose extensions rendering needs), while the lock is held.
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

    /// Parses `markdown` and hands the document to `use`, under the lock. With a budget, the text is fed a
    /// line at a time and the parse given up once cmark holds more than the limit, or once its inlines would
    /// take it past the limit (cmark parses them all at once, in `cmark_parser_finish`, with no way to stop).
    static func withDocument<Result>(
        _ markdown: String, options: Int32, budget: MemoryBudget? = nil, _ use: (Parsed) -> Result
    ) throws(OverMemory) -> Result {
        try lock.withLock { _ throws(OverMemory) -> Result in
            allocated = 0
            peak = 0
            guard let parser = cmark_parser_new_with_mem(options, countingAllocator) else {
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

// Each block carries the size cmark asked for in a header before it, so that the count is the same on every run
// (malloc's usable sizes vary with what is free around a block). 16 bytes keep the block aligned as malloc's are.
private let headerBytes = 16

private func countingCalloc(_ count: Int, _ size: Int) -> UnsafeMutableRawPointer? {
    let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
    guard !overflow, let block = calloc(1, bytes + headerBytes) else { return nil }
    block.storeBytes(of: bytes, as: Int.self)
    CmarkSession.allocated += bytes
    CmarkSession.peak = max(CmarkSession.peak, CmarkSession.allocated)
    return block + headerBytes
}

private func countingRealloc(_ pointer: UnsafeMutableRawPointer?, _ size: Int) -> UnsafeMutableRawPointer? {
    guard let pointer else { return countingCalloc(1, size) }
    let block = pointer - headerBytes
    let before = block.load(as: Int.self)
    guard let moved = realloc(block, size + headerBytes) else { return nil }
    moved.storeBytes(of: size, as: Int.self)
    CmarkSession.allocated += size - before
    CmarkSession.peak = max(CmarkSession.peak, CmarkSession.allocated)
    return moved + headerBytes
}

/// Frees what cmark allocated, the rendered HTML included.
func countingFree(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    let block = pointer - headerBytes
    CmarkSession.allocated -= block.load(as: Int.self)
    free(block)
}
