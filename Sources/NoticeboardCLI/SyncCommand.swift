import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Noticeboard
import NoticeboardClient

/// `noticeboard sync BASE_URL DIR`: mirrors a site's API into a folder with the client library.
struct SyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Mirror a site's API (its default set) into a folder, fetching only what changed.",
        discussion: "DIR/current holds the files below the site's api/; a sync that is cut short leaves the last complete mirror there.")

    @Argument(help: "The site's base URL, e.g. https://example.org/catalogue/.")
    var baseURL: String

    @Argument(help: "The mirror's folder.")
    var folder: String

    func run() async throws {
        guard let url = URL(string: baseURL), url.scheme == "http" || url.scheme == "https" else {
            throw ValidationError("'\(baseURL)' is not an http or https URL")
        }
        // What a body compressed on the fly cost: the server sends no Content-Length, and URLSession on Linux
        // hands over the body decoded without counting what it received.
        let fetcher = Fetcher(baseURL: url, userAgent: "noticeboard/\(Noticeboard.version)") { body, response in
            let compressed = response.value(forHTTPHeaderField: "Content-Encoding") == "gzip"
            let length = response.value(forHTTPHeaderField: "Content-Length").flatMap(Int.init)
            return length ?? (compressed ? gzipSize(body) : body.count)
        }
        var sync = Sync(fetcher: fetcher, mirror: MirrorFolder(folder: URL(fileURLWithPath: folder)))
        sync.waiting = { [folder] in FileHandle.standardError.write(Data("Another sync is writing \(folder); waiting for it to finish.\n".utf8)) }
        do {
            let report = try await sync.run()
            let fetched = report.fetched
            print("fetched \(fetched.files) files, \(fetched.bytes) bytes (\(fetched.wireBytes) gzip)")
            for kept in report.kept { FileHandle.standardError.write(Data("note: \(kept.note)\n".utf8)) }
        } catch {
            FileHandle.standardError.write(Data("error: \(Self.describe(error))\n".utf8))
            throw ExitCode(1)
        }
    }

    /// An error as a sentence: Foundation's own descriptions on Linux are their domain and code only.
    static func describe(_ error: Error) -> String {
        if let error = error as? URLError {
            let url = error.failingURL?.absoluteString ?? "the site"
            return "cannot fetch \(url): \(reason(error.code)) (URL error \(error.code.rawValue))"
        }
        if let error = error as? CocoaError {
            let path = error.filePath ?? error.url?.path ?? "the mirror's folder"
            return "cannot write \(path): \(reason(error.code)) (file error \(error.code.rawValue))"
        }
        return "\(error)"
    }

    private static func reason(_ code: CocoaError.Code) -> String {
        switch code {
        case .fileWriteFileExists: "a file is in the way where a folder should be"
        case .fileWriteNoPermission, .fileReadNoPermission: "permission denied"
        case .fileWriteOutOfSpace: "the disk is full"
        case .fileNoSuchFile, .fileReadNoSuchFile: "a folder on the way does not exist"
        case .fileWriteVolumeReadOnly: "the disk is read-only"
        default: "the file system refused"
        }
    }

    private static func reason(_ code: URLError.Code) -> String {
        switch code {
        case .cannotConnectToHost: "the server refused the connection (is it running, at that port?)"
        case .cannotFindHost, .dnsLookupFailed: "no such host"
        case .timedOut: "the server did not answer in time"
        case .notConnectedToInternet, .networkConnectionLost: "the network connection failed"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate, .serverCertificateNotYetValid:
            "the secure connection failed"
        case .badServerResponse: "the server's answer could not be read"
        default: "the request failed"
        }
    }
}
