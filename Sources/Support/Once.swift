import Synchronization

/// A value made the first time it is read, by whichever thread reads it first; later reads, from any thread,
/// get the same value. For what several pieces of parallel work share but none should make alone.
public final class Once<Value: Sendable>: Sendable {
    private enum State {
        case pending(@Sendable () -> Value)
        case made(Value)
    }

    private let state: Mutex<State>

    public init(_ make: @escaping @Sendable () -> Value) {
        state = Mutex(.pending(make))
    }

    public var value: Value {
        state.withLock { state in
            switch state {
            case .made(let value): return value
            case .pending(let make):
                let value = make()
                state = .made(value)
                return value
            }
        }
    }
}

/// As `Once`, for a value whose making needs what only its readers have at hand: the first read makes it
/// with its own `make`, and every later read, from any thread, gets that value (its own `make` unused).
/// Readers that come while the value is being made wait for it; a `make` must not read the same cell.
public final class MadeByFirstReader<Value: Sendable>: Sendable {
    private let made = Mutex<Value?>(nil)

    public init() {}

    public func value(orMake make: () -> Value) -> Value {
        made.withLock { made in
            if let made { return made }
            let value = make()
            made = value
            return value
        }
    }
}
