import Dispatch

extension Array where Element: Sendable {
    /// Maps across all cores, keeping the order of the input. The work items must be independent.
    public func parallelMap<Result: Sendable>(_ transform: @Sendable (Element) -> Result) -> [Result] {
        if count < 2 { return map(transform) }
        let results = ResultSlots<Result>(count: count)
        let input = self
        DispatchQueue.concurrentPerform(iterations: count) { index in
            results.store(transform(input[index]), at: index)
        }
        return results.values()
    }
}

extension Array where Element: Sendable {
    /// Changes each element in place across all cores and returns what each change reports, in order. An
    /// element this array alone holds is changed without being copied. The changes must be independent.
    public mutating func parallelUpdate<Result: Sendable>(_ update: @Sendable (inout Element) -> Result) -> [Result] {
        let results = ResultSlots<Result>(count: count)
        withUnsafeMutableBufferPointer { buffer in
            let elements = DisjointSlots(buffer: buffer)
            DispatchQueue.concurrentPerform(iterations: buffer.count) { index in
                results.store(update(&elements.buffer[index]), at: index)
            }
        }
        return results.values()
    }
}

/// An array's storage, shared by concurrent iterations that each touch only their own index.
private struct DisjointSlots<Element>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<Element>
}

/// Storage each concurrent iteration writes only its own index of, so no lock is needed. It is allocated
/// once: an Array's `withUnsafeMutableBufferPointer` may move the array's storage while it runs, so
/// concurrent calls on one array would race.
private final class ResultSlots<Result>: @unchecked Sendable {
    private let slots: UnsafeMutablePointer<Result?>
    private let count: Int

    init(count: Int) {
        self.count = count
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    func store(_ result: Result, at index: Int) {
        slots[index] = result
    }

    func values() -> [Result] {
        (0..<count).map { slots[$0]! }
    }
}

extension Array where Element: Sendable {
    /// What `transform` makes of each run of `runLength` elements, made on every core and joined in order;
    /// one run, on this thread, when there are no more elements than that.
    public func parallelRuns<Result: Sendable>(of runLength: Int, _ transform: @Sendable (ArraySlice<Element>) -> [Result]) -> [Result] {
        guard count > runLength else { return transform(self[...]) }
        let input = self
        return Array<Result>(indices.runs(of: runLength).parallelMap { transform(input[$0]) }.joined())
    }

    /// `flatMap(transform)` over runs of `runLength` elements on every core, in order: for what hundreds of
    /// thousands of listings each give a few of (their references' problems, the images they name).
    public func parallelFlatMap<Result: Sendable>(runLength: Int = 16_384, _ transform: @Sendable (Element) -> [Result]) -> [Result] {
        parallelRuns(of: runLength) { $0.flatMap(transform) }
    }
}

extension Range where Bound == Int {
    /// The range cut into consecutive runs of `length` (the last may be shorter): work shared among cores, or
    /// made and released a group at a time.
    public func runs(of length: Int) -> [Range<Int>] {
        stride(from: lowerBound, to: upperBound, by: length).map { $0..<Swift.min($0 + length, upperBound) }
    }
}
