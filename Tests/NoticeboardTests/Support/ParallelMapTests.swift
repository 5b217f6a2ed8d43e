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

    /// Each element changed where it is, with what each change reports kept in order; an element the array
    /// alone holds is not copied (its storage stays where it was).
    @Test func updatesEachElementInPlace() {
        var rows: [[Int]] = (0..<50_000).map { index in
            var row = [index]
            row.reserveCapacity(2)
            return row
        }
        let storage = rows.map { row in row.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } }
        let reports = rows.parallelUpdate { row -> Int in
            row.append(row[0] * 2)
            return row[0]
        }
        #expect(reports == Array(0..<50_000))
        #expect(rows.enumerated().allSatisfy { index, row in row == [index, index * 2] })
        #expect(rows.map { row in row.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } } == storage)
    }

    /// What `flatMap` gives, in order, for arrays of many runs and of two (each with a short last run):
    /// most elements give nothing, some one result, some several.
    @Test(arguments: [100_001, 4_097])
    func flatMapsEveryRunInOrder(count: Int) {
        let input = Array(0..<count)
        let transform: @Sendable (Int) -> [String] = { number in (0..<(number % 7 == 0 ? number % 3 : 0)).map { "\(number).\($0)" } }
        #expect(input.parallelFlatMap(runLength: 4_096, transform) == input.flatMap(transform))
    }
}
