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
        /// Counted from the response, so that connecting is not counted as slowness.
        var pace: DownloadPace.Window?
        let continuation: CheckedContinuation<(Data, URLResponse), Error>
    }

    /// A body that passed the most bytes it may have.
    struct TooLarge: Error {
        let limit: Int
    }

    /// A body that came slower than `slowest`.
    struct TooSlow: Error {}

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
    /// bytes, or with `TooSlow` once it goes slower than `slowest` (another's body is cut there, for its status to
    /// be reported). Cancelling the calling task ends the wait at once, and cancels the download.
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
        lock.withLock {
            downloads[dataTask.taskIdentifier]?.response = response
            downloads[dataTask.taskIdentifier]?.pace = DownloadPace.Window()
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let stopped: (Download, tooLarge: Bool)? = lock.withLock {
            // Appended where it is held: a copy taken out and put back would copy the body at every part.
            downloads[dataTask.taskIdentifier]?.data.append(data)
            guard let received = downloads[dataTask.taskIdentifier]?.data.count else { return nil }
            let tooLarge = received > downloads[dataTask.taskIdentifier]!.limit
            let tooSlow = downloads[dataTask.taskIdentifier]!.pace?.isBehind(slowest, received: received) ?? false
            guard tooLarge || tooSlow else { return nil }
            return downloads.removeValue(forKey: dataTask.taskIdentifier).map { ($0, tooLarge) }
        }
        guard let (download, tooLarge) = stopped else { return }
        dataTask.cancel()
        // An error page's status says more than its size or pace.
        if let response = download.response as? HTTPURLResponse, response.statusCode != 200 {
            download.continuation.resume(returning: (download.data, response))
        } else {
            download.continuation.resume(throwing: tooLarge ? TooLarge(limit: download.limit) : TooSlow())
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

