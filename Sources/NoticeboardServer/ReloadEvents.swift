/// Tells every open preview tab what the latest rebuild did, over server-sent events.
actor ReloadEvents {
    enum Event: Sendable {
        /// A rebuild succeeded: reload the page.
        case reload
        /// A rebuild failed: show its diagnostics over the page until the next good build.
        case failure(String)

        /// The event as the `text/event-stream` format writes it.
        var wireFormat: String {
            switch self {
            case .reload:
                return "event: reload\ndata: {}\n\n"
            case .failure(let text):
                // One `data:` line per line of text; the browser joins them with newlines.
                return "event: failure\n" + text.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined() + "\n"
            }
        }
    }

    private var subscribers: [Int: AsyncStream<Event>.Continuation] = [:]
    private var nextID = 0
    /// The diagnostics of the last build if it failed, sent to tabs as soon as they connect.
    private var currentFailure: String?

    func subscribe() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = nextID
        nextID += 1
        subscribers[id] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(id) } }
        if let currentFailure { continuation.yield(.failure(currentFailure)) }
        return stream
    }

    func publish(_ event: Event) {
        if case .failure(let text) = event { currentFailure = text } else { currentFailure = nil }
        for continuation in subscribers.values { continuation.yield(event) }
    }

    var subscriberCount: Int { subscribers.count }

    private func unsubscribe(_ id: Int) {
        subscribers[id] = nil
    }
}
