import Dispatch

/// A value computed on another thread while the caller goes on; `value` waits for it.
public final class InBackground<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchGroup()
    // Written once on the background thread before `done` is left, read only after waiting on it.
    private var result: Value?

    public init(_ compute: @escaping @Sendable () -> Value) {
        done.enter()
        DispatchQueue.global().async {
            self.result = compute()
            self.done.leave()
        }
    }

    public var value: Value {
        done.wait()
        return result!
    }
}
