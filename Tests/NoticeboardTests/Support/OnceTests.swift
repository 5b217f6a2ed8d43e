import Dispatch
import Support
import Synchronization
import Testing

@Suite struct OnceTests {
    /// Readers on every core at once: the first one's `make` makes the value, and every reader gets it.
    @Test func theFirstReaderMakesTheValueForAll() {
        let cell = MadeByFirstReader<[Int]>()
        let makes = Atomic(0)
        let reads = Array(0..<1_000).parallelMap { reader in
            cell.value {
                makes.add(1, ordering: .relaxed)
                return [reader]
            }
        }
        #expect(makes.load(ordering: .relaxed) == 1)
        #expect(Set(reads).count == 1)
        #expect(cell.value { [-1] } == reads[0])
    }
}
