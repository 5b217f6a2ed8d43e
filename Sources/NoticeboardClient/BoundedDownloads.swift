import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads through one URLSession whose delegate this is, each stopped as soon as it passes its limit:
/// `URLSession.data(for:)` holds a body whole however long it runs, so a server that sends without end (or a file
/// far larger than the site says) filled the app's memory, gigabytes in seconds, before any check could run.
/// Each is also stopped when it goes slower than `slowest`: a server that sends a byte now and then, never
/// silent long enough for URLSession's own time-out, held a sync for as long as it went on.
final class BoundedDownloads: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Download {
        var data = Data()
        var response: URLResponse?
        let limit: Int
        let started = ContinuousClock.now
        let continuation: CheckedContinuation<(Data, URLResponse), Error>
    }

    /// A body that passed the most bytes it may have.
    struct TooLarge: Error {
        let limit: Int
    }

    /// A body that came slower than `slowest`.
    struct TooSlow: Error {
        let slowest: DownloadPace
    }

    private let lock = NSLock()
    private var downloads: [Int: Download] = [:]
    private(set) var session: URLSession!
    let slowest: DownloadPace

    init(configuration: URLSessionConfiguration, slowest: DownloadPace) {
        self.slowest = slowest
        super.init()
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
    }

    /// The body and response of `request`, failing with `TooLarge` once the body of a 200 response passes `limit`
    /// bytes (another's is cut there, for its status to be reported). Cancelling the calling task ends the wait at
    /// once, and cancels the download.
    func data(for request: URLRequest, limit: Int) async throws -> (Data, URLResponse) {
        let task = session.dataTask(with: request)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                lock.withLock { downloads[task.taskIdentifier] = Download(limit: limit, continuation: continuation) }
                if Task.isCancelled { stop(task) } else { task.resume() }
            }
        } onCancel: {
            stop(task)
        }
    }

    /// Ends the wait for `task` with `CancellationError`, then cancels it: FoundationNetworking on Linux may never
    /// report a cancelled task complete.
    private func stop(_ task: URLSessionTask) {
        lock.withLock { downloads.removeValue(forKey: task.taskIdentifier) }?.continuation.resume(throwing: CancellationError())
        task.cancel()
    }

    /// Lets the session go, and this delegate with it, once the downloads under way end.
    func finish() {
        session.finishTasksAndInvalidate()
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { downloads[dataTask.taskIdentifier]?.response = response }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let stopped: (Download, tooLarge: Bool)? = lock.withLock {
            // Appended where it is held: a copy taken out and put back would copy the body at every part.
            downloads[dataTask.taskIdentifier]?.data.append(data)
            guard let download = downloads[dataTask.taskIdentifier] else { return nil }
            let tooLarge = download.data.count > download.limit
            guard tooLarge || slowest.isSlower(download.data.count, since: download.started) else { return nil }
            return downloads.removeValue(forKey: dataTask.taskIdentifier).map { ($0, tooLarge) }
        }
        guard let (download, tooLarge) = stopped else { return }
        dataTask.cancel()
        // An error page's status says more than its size or pace.
        if let response = download.response as? HTTPURLResponse, response.statusCode != 200 {
            download.continuation.resume(returning: (download.data, response))
        } else {
            download.continuation.resume(throwing: tooLarge ? TooLarge(limit: download.limit) : TooSlow(slowest: slowest))
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let download = lock.withLock({ downloads.removeValue(forKey: task.taskIdentifier) }) else { return }
        if let error {
            download.continuation.resume(throwing: error)
        } else if let response = download.response ?? task.response {
            download.continuation.resume(returning: (download.data, response))
        } else {
            download.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}

/// The slowest a download may go: once `grace` has passed since it began, one that has averaged fewer than
/// `bytesPerSecond` is stopped. URLSession stops one that goes silent (`timeoutIntervalForRequest`, 60 s by
/// default), so the pace is checked as each part comes.
public struct DownloadPace: Sendable, Equatable {
    public var grace: Duration
    public var bytesPerSecond: Int

    public init(grace: Duration, bytesPerSecond: Int) {
        self.grace = grace
        self.bytesPerSecond = bytesPerSecond
    }

    /// After 30 s, 4 kB a second: a phone on a poor 2G link still syncs a site's head (45 kB at 43,000 listings) well
    /// inside it, and a server dripping bytes is let go within half a minute.
    public static let standard = DownloadPace(grace: .seconds(30), bytesPerSecond: 4096)

    func isSlower(_ bytes: Int, since start: ContinuousClock.Instant) -> Bool {
        let elapsed = ContinuousClock.now - start
        guard elapsed > grace else { return false }
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        return Double(bytes) < Double(bytesPerSecond) * seconds
    }
}
