import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads through one URLSession whose delegate this is, each stopped as soon as it passes its limit:
/// `URLSession.data(for:)` holds a body whole however long it runs, so a server that sends without end (or a file
/// far larger than the site says) filled the app's memory, gigabytes in seconds, before any check could run.
final class BoundedDownloads: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Download {
        var data = Data()
        var response: URLResponse?
        let limit: Int
        let continuation: CheckedContinuation<(Data, URLResponse), Error>
    }

    /// A body that passed the most bytes it may have.
    struct TooLarge: Error {
        let limit: Int
    }

    private let lock = NSLock()
    private var downloads: [Int: Download] = [:]
    private(set) var session: URLSession!

    init(configuration: URLSessionConfiguration) {
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
        let passed: Download? = lock.withLock {
            // Appended where it is held: a copy taken out and put back would copy the body at every part.
            downloads[dataTask.taskIdentifier]?.data.append(data)
            guard let download = downloads[dataTask.taskIdentifier], download.data.count > download.limit else { return nil }
            return downloads.removeValue(forKey: dataTask.taskIdentifier)
        }
        guard let passed else { return }
        dataTask.cancel()
        // An error page's status says more than its size.
        if let response = passed.response as? HTTPURLResponse, response.statusCode != 200 {
            passed.continuation.resume(returning: (passed.data, response))
        } else {
            passed.continuation.resume(throwing: TooLarge(limit: passed.limit))
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
