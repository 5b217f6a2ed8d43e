import Hummingbird
import NIOCore

/// Refuses, before any file is looked up, what a preview server must not answer: a `Host` other than the
/// address it listens on (a page on another site that rebinds its DNS name to 127.0.0.1 would otherwise
/// read the preview, private fields' errors included), and request paths that hold control bytes (`%00`
/// once cut `…json%00.html` to a JSON file served as HTML), a backslash, `.` or `..` segments, or a broken
/// percent escape. What is left is decoded once, by `ServedSite`.
struct RequestGuard<Context: RequestContext>: RouterMiddleware {
    /// Lowercased `host:port` values a request may name.
    let allowedHosts: Set<String>

    /// The loopback names and the address serve was told to listen on, each with its port (and without it
    /// on port 80, where browsers leave it out).
    init(host: String, port: Int) {
        let named = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let names = ["127.0.0.1", "localhost", "[::1]", named.lowercased()]
        allowedHosts = Set(names.map { "\($0):\(port)" } + (port == 80 ? names : []))
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let authority = request.head.authority, allowedHosts.contains(authority.lowercased()) else {
            return Self.refusal(.forbidden, "This preview answers only requests for its own address.\n")
        }
        guard Self.isServablePath(request.uri.path) else {
            return Self.refusal(.badRequest, "Bad request: the path holds a control character, a backslash, a . or .. segment, or a broken % escape.\n")
        }
        return try await next(request, context)
    }

    /// Whether the raw (still percent-encoded) path is free of control bytes, backslashes, `.` and `..`
    /// segments and broken escapes, both as written and once decoded.
    static func isServablePath(_ raw: String) -> Bool {
        var decoded: [UInt8] = []
        var bytes = Array(raw.utf8)[...]
        while let byte = bytes.popFirst() {
            guard byte == UInt8(ascii: "%") else {
                decoded.append(byte)
                continue
            }
            guard bytes.count >= 2, let high = hexValue(bytes.popFirst()!), let low = hexValue(bytes.popFirst()!) else { return false }
            decoded.append(high << 4 | low)
        }
        if decoded.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) { return false }
        return !decoded.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).contains { segment in
            segment.elementsEqual([UInt8(ascii: ".")]) || segment.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")])
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    private static func refusal(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-cache"], body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}
