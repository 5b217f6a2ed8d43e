import SiteModel
import Support
import Testing

@Suite struct ParallelMapTests {
    /// Every iteration stores its own result while the others store theirs; none may be lost or garbled.
    @Test func keepsEveryResultInOrder() {
        let input = Array(0..<300_000)
        for _ in 0..<3 {
            #expect(input.parallelMap { "item \($0)" } == input.map { "item \($0)" })
        }
    }
}
