/// The slowest a download may go, as curl's low-speed limit: one that receives fewer than `bytes` in `within`,
/// counted from its response, is stopped. URLSession stops one that goes silent (`timeoutIntervalForRequest`, 60 s
/// by default), so this is checked as each part of the body comes; the bytes counted are the body as decoded.
public struct DownloadPace: Sendable, Equatable {
    public var bytes: Int
    public var within: Duration

    public init(bytes: Int, within: Duration) {
        self.bytes = bytes
        self.within = within
    }

    /// 4 kB in 30 s: a sync fetches 8 files at once, and on a 2 kB/s link each still gets 7 kB in that time; a
    /// server that drips its answer slower is let go within a minute.
    public static let standard = DownloadPace(bytes: 4096, within: .seconds(30))

    /// One download's current stretch of `within`: when it began, and how much of the body had come by then.
    struct Window {
        private var start = ContinuousClock.now
        private var receivedAtStart = 0

        /// Whether a stretch that is over received fewer bytes than `pace` asks for; a new one begins when not.
        mutating func isBehind(_ pace: DownloadPace, received: Int) -> Bool {
            let now = ContinuousClock.now
            guard now - start >= pace.within else { return false }
            if received - receivedAtStart < pace.bytes { return true }
            (start, receivedAtStart) = (now, received)
            return false
        }
    }
}
