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

/// Storage each concurrent iteration writes only its own index of, so no lock is needed.
private final class ResultSlots<Result>: @unchecked Sendable {
    private var slots: [Result?]

    init(count: Int) {
        slots = Array(repeating: nil, count: count)
    }

    func store(_ result: Result, at index: Int) {
        slots.withUnsafeMutableBufferPointer { $0[index] = result }
    }

    func values() -> [Result] {
        slots.map { $0! }
    }
}
