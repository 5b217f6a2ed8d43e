import Crypto
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Fetches a site's files over HTTP(S) with URLSession, and counts what it fetched.
public final class Fetcher: @unchecked Sendable {
    /// The site's base URL, ending in `/` (`https://example.org/catalogue/`).
    public let baseURL: URL
    private let downloads: BoundedDownloads
    /// The bytes a response took on the wire (see `contentLength`).
    let wireSize: @Sendable (Data, HTTPURLResponse) -> Int
    private let lock = NSLock()
    private var counted = Totals()
    /// The base URL the site was built for, as its documents name it, once the head has told it.
    private var siteBase: String?
    /// What each request says fetched it (`User-Agent`), so a site's logs can tell its apps' syncs apart.
    let userAgent: String

    /// Files fetched, their bytes, and the bytes that crossed the wire (gzip, when the server compressed them).
    public struct Totals: Sendable, Equatable {
        public var files = 0
        public var bytes = 0
        public var wireBytes = 0
    }

    public enum Failure: Error, CustomStringConvertible {
        case status(URL, Int)
        case digest(URL, expected: String, got: String)
        case size(URL, expected: Int, got: Int)
        /// Not the JSON document expected there: `reason` says where it differs.
        case unreadable(URL, reason: String)
        /// More bytes came than the site says the file has, or than any of its documents may have.
        case tooLarge(URL, limit: Int)
        /// The body came slower than the fetcher's slowest pace.
        case tooSlow(URL, slowest: DownloadPace)

        public var description: String {
            switch self {
            case .status(let url, let status): "\(url): HTTP status \(status)"
            case .digest(let url, let expected, let got): "\(url): SHA-256 is \(got), the site says \(expected)"
            case .size(let url, let expected, let got): "\(url): \(got) bytes, the site says \(expected)"
            case .unreadable(let url, let reason): "\(url): not the document this client reads there (\(reason))"
            case .tooLarge(let url, let limit): "\(url): larger than \(limit) bytes (the size the site gives it, or the most a document may have); stopped"
            case .tooSlow(let url, let slowest):
                "\(url): fewer than \(slowest.bytes) bytes came in \(String(format: "%g", slowest.within / .seconds(1))) s; stopped"
            }
        }
    }

    /// The most bytes a document whose size no other document gives may have (the head, the tree, a change
    /// list), far more than a build writes: at 43,000 listings the largest of them is 45 KB.
    public static let mostUnlistedBytes = 64 << 20

    /// `wireSize` tells what a response took on the wire, given its decoded body: by default its
    /// Content-Length (see `contentLength`). `userAgent` names the app (`MyApp/2.1`); without it, URLSession on
    /// Linux says `<program> (unknown version)`. `configuration` is URLSession's (by default, ephemeral with no
    /// cache: see `configuration`). A download slower than `slowest` is stopped.
    public init(
        baseURL: URL, configuration: URLSessionConfiguration? = nil, userAgent: String = "NoticeboardClient",
        slowest: DownloadPace = .standard, wireSize: (@Sendable (Data, HTTPURLResponse) -> Int)? = nil
    ) {
        self.baseURL = baseURL.absoluteString.hasSuffix("/") ? baseURL : baseURL.appendingPathComponent("")
        downloads = BoundedDownloads(configuration: configuration ?? Self.configuration, slowest: slowest)
        self.userAgent = userAgent
        self.wireSize = wireSize ?? Self.contentLength
    }

    /// The session holds its delegate until it is let go.
    deinit {
        downloads.finish()
    }

    /// No cache of its own: the mirror is the cache, and every file is checked against its digest.
    private static var configuration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 8
        return configuration
    }

    public var totals: Totals { lock.withLock { counted } }

    /// The URL of a path below the site's root, or of an absolute URL a document names: one below the base URL
    /// the site was built for (`siteBuiltFor`) is fetched at the same place below `baseURL`, so a copy of a site
    /// built for `https://example.org/catalogue/` syncs from wherever it is served; any other, at its path on
    /// this client's host.
    public func url(_ pathOrURL: String) -> URL {
        guard let absolute = URL(string: pathOrURL), absolute.scheme != nil else {
            return URL(string: pathOrURL, relativeTo: baseURL)!.absoluteURL
        }
        // Appended to `baseURL` as text, not resolved against it: what follows the site's base stays below
        // this one (`//other.host/x` would name another host).
        if let siteBase = lock.withLock({ siteBase }), pathOrURL.hasPrefix(siteBase),
            let below = URL(string: baseURL.absoluteString + pathOrURL.dropFirst(siteBase.count)) {
            return below
        }
        var parts = URLComponents(url: baseURL, resolvingAgainstBaseURL: false)!
        parts.path = absolute.path
        return parts.url!
    }

    /// Learns the base URL the site was built for from the absolute URL of a document at `path` below it (the
    /// head names its tree's), so that `url(_:)` finds the site's other documents below `baseURL`; false when
    /// the URL does not end in `path`.
    func siteBuiltFor(_ documentURL: String, isAt path: String) -> Bool {
        guard documentURL.hasSuffix(path) else { return false }
        lock.withLock { siteBase = String(documentURL.dropLast(path.count)) }
        return true
    }

    /// The bytes at `pathOrURL`; with `expected`, checked against its size and SHA-256. A body is stopped as soon as
    /// it passes that size, or `mostUnlistedBytes` without one, or goes slower than `slowest`.
    public func fetch(_ pathOrURL: String, expected: (size: Int, sha256: String)? = nil) async throws -> Data {
        let url = url(pathOrURL)
        var request = URLRequest(url: url)
        request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        let (data, response): (Data, URLResponse)
        do {
            (data, response) = try await downloads.data(for: request, limit: expected?.size ?? Self.mostUnlistedBytes)
        } catch let tooLarge as BoundedDownloads.TooLarge {
            throw Failure.tooLarge(url, limit: tooLarge.limit)
        } catch is BoundedDownloads.TooSlow {
            throw Failure.tooSlow(url, slowest: downloads.slowest)
        }
        guard let http = response as? HTTPURLResponse, http.statusCode == 200 else {
            throw Failure.status(url, (response as? HTTPURLResponse)?.statusCode ?? 0)
        }
        let wire = wireSize(data, http)
        lock.withLock {
            counted.files += 1
            counted.bytes += data.count
            counted.wireBytes += wire
        }
        if let expected {
            guard data.count == expected.size else { throw Failure.size(url, expected: expected.size, got: data.count) }
            let digest = Self.sha256(data)
            guard digest == expected.sha256 else { throw Failure.digest(url, expected: expected.sha256, got: digest) }
        }
        return data
    }

    /// The decoded document at `pathOrURL`; with `expected`, its bytes checked first (see `fetch`).
    public func document<Document: Decodable>(
        _ type: Document.Type, at pathOrURL: String, expected: (size: Int, sha256: String)? = nil
    ) async throws -> Document {
        let data = try await fetch(pathOrURL, expected: expected)
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw Failure.unreadable(url(pathOrURL), reason: Self.reason(error))
        }
    }

    /// Where a document differs from what was expected, in words: Foundation's description names its own types.
    static func reason(_ error: DecodingError) -> String {
        func place(_ path: [CodingKey]) -> String {
            path.isEmpty ? "" : " at " + path.map { $0.intValue.map { "[\($0)]" } ?? "'\($0.stringValue)'" }.joined(separator: " ")
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty: return "not valid JSON"
        case .dataCorrupted(let context): return "a value that cannot be read\(place(context.codingPath))"
        case .keyNotFound(let key, let context): return "no '\(key.stringValue)'\(place(context.codingPath))"
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context): return "not a \(type)\(place(context.codingPath))"
        @unknown default: return "\(error)"
        }
    }

    static func sha256(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    /// What the response took on the wire: its Content-Length as sent (the compressed size when the server
    /// compressed it: URLSession hands over the body decoded), or the body's size when there is none. A server
    /// that compresses on the fly sends none; URLSession on Linux does not report the bytes it received.
    @Sendable public static func contentLength(_ body: Data, _ response: HTTPURLResponse) -> Int {
        response.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init) ?? body.count
    }
}
