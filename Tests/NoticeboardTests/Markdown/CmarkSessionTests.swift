import CCmarkGFM
@testable import Markdown
import Support
import Testing

/// cmark-gfm's process-wide state, made safe for parses on every core (`CCmarkThreads`).
struct CmarkSessionTests {
    /// Debian's library calls the function that changes its table of special characters through its PLT, so
    /// the program's own definition takes its place; were it to stop, parses would go back to one at a time.
    @Test func parsesRunAtOnceWithDebiansLibrary() {
        #expect(CmarkSession.parsesRunAtOnce)
    }

    /// Each parse counts the memory cmark holds for it alone, whatever else parses at the same time: the
    /// count is what the memory limit is checked against.
    @Test func eachParseCountsItsOwnMemory() {
        let large = String(repeating: "www.a.co https://b.co a@b.co ~~x~~ ", count: 2000)
        let small = "Oven cleaning, see https://example.org"
        let peak: @Sendable (String) -> Int = { markdown in
            try! CmarkSession.withDocument(markdown, options: CMARK_OPT_DEFAULT) { _ in CmarkSession.peak }
        }
        let alone = [large, small].map(peak)
        let together = Array(repeating: [large, small], count: 500).flatMap { $0 }.parallelMap(peak)
        #expect(together.enumerated().allSatisfy { $1 == alone[$0 % 2] })
    }
}
