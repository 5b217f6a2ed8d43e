/// Tells every open preview tab what the latest rebuild did, over server-sent events.
actor ReloadEvents {
    enum Event: Sendable {
        /// A rebuild succeeded: reload the page.
        case reload
        /// A rebuild failed: show its diagnostics over the page until the next good build.
        case failure(String)
        /// Nothing happened; a comment the browser ignores. Writing it finds the tabs that went away: a stream
        /// waits for its next event, so without it the connection of a tab closed stayed open until a rebuild.
        case heartbeat

        /// The event as the `text/event-stream` format writes it.
        var wireFormat: String {
            switch self {
            case .reload:
                return "event: reload\ndata: {}\n\n"
            case .failure(let text):
                // One `data:` line per line of text; the browser joins them with newlines.
                return "event: failure\n" + text.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)\n" }.joined() + "\n"
            case .heartbeat:
                return ": still here\n\n"
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
        switch event {
        case .failure(let text): currentFailure = text
        case .reload: currentFailure = nil
        case .heartbeat: break
        }
        for continuation in subscribers.values { continuation.yield(event) }
    }

    /// How often `beat` publishes a heartbeat: a write to a connection the browser closed fails by the second,
    /// so one is let go within about twice this.
    static let heartbeatInterval: Duration = .milliseconds(500)

    /// Publishes a heartbeat every `heartbeatInterval` until the task is cancelled.
    func beat() async {
        while !Task.isCancelled {
            try? await Task.sleep(for: Self.heartbeatInterval)
            publish(.heartbeat)
        }
    }

    var subscriberCount: Int { subscribers.count }

    private func unsubscribe(_ id: Int) {
        subscribers[id] = nil
    }
}
