import Foundation
import Hummingbird
import NIOCore
import Rendering

/// Answers requests from the built folder: pretty URLs, the site's `404.html`, the base URL's sub-path,
/// content types by extension, and the live-reload script added to HTML.
struct ServedSite: Sendable {
    let outputPath: String
    /// `/catalogue/`, or `/`.
    let basePath: String

    /// Whether a build has succeeded into the folder (in this run of `serve` or an earlier one): it holds the
    /// manifest a build writes, not only files someone put there.
    var hasBuild: Bool { FileManager.default.fileExists(atPath: outputPath + "/" + Manifest.path) }

    /// The answer to a GET of `path`; `query` (without its `?`) is kept by the redirects that add a slash,
    /// as static hosts keep it: `/search?q=drill` → `/search/?q=drill`.
    func response(for path: String, query: String = "") -> Response {
        guard hasBuild else { return noBuildYet() }
        let redirect = { (location: String) in Self.redirect(to: query.isEmpty ? location : location + "?" + query) }
        if path == "/" && basePath != "/" { return redirect(basePath) }
        guard path.hasPrefix(basePath) || path + "/" == basePath else { return notFound() }
        if path + "/" == basePath { return redirect(basePath) }
        let relative = String(path.dropFirst(basePath.count)).removingPercentEncoding ?? ""
        let segments = relative.split(separator: "/", omittingEmptySubsequences: true)
        // Hidden names are served (static/'s `.well-known/`), but for the build's own markers.
        if segments.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".noticeboard") }) { return notFound() }
        var file = outputPath + "/" + segments.joined(separator: "/")
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else { return notFound() }
        if isDirectory.boolValue {
            // `/cleaners/ana` → `/cleaners/ana/`, as static hosts do, so relative links resolve.
            guard path.hasSuffix("/") else { return redirect(path + "/") }
            file += "/index.html"
        }
        guard let data = FileManager.default.contents(atPath: file) else { return notFound() }
        return serve([UInt8](data), path: file, status: .ok)
    }

    /// Every address's answer until a build succeeds: a page that shows the build's errors over itself (the
    /// live-reload script gets them as it connects) and reloads once one does.
    private func noBuildYet() -> Response {
        let page = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>No build yet</title></head>
            <body data-no-build><p>No build of this site has succeeded yet. This page reloads once one does.</p></body></html>

            """
        return serve(Array(page.utf8), path: "no-build-yet.html", status: .serviceUnavailable)
    }

    private func notFound() -> Response {
        guard let data = FileManager.default.contents(atPath: outputPath + "/404.html") else {
            return Response(status: .notFound, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: "Not found\n")))
        }
        return serve([UInt8](data), path: "404.html", status: .notFound)
    }

    private static func redirect(to location: String) -> Response {
        Response(status: .movedPermanently, headers: [.location: location])
    }

    private func serve(_ bytes: [UInt8], path: String, status: HTTPResponse.Status) -> Response {
        let fileExtension = path.split(separator: ".").last.map(String.init) ?? ""
        let isHTML = fileExtension == "html"
        let body = isHTML ? LiveReload.inject(into: bytes) : bytes
        var headers: HTTPFields = [.contentType: Self.contentType(fileExtension), .cacheControl: "no-cache"]
        headers[.contentLength] = String(body.count)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Hummingbird's table, plus the types this site writes that it does not know.
    static func contentType(_ fileExtension: String) -> String {
        switch fileExtension {
        case "html": return "text/html; charset=utf-8"
        case "json": return "application/json"
        case "geojson": return "application/geo+json"
        case "atom": return "application/atom+xml"
        case "xml": return "application/xml"
        case "txt": return "text/plain; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        default: return MediaType.getMediaType(forExtension: fileExtension)?.description ?? "application/octet-stream"
        }
    }
}
