import Foundation
import Hummingbird
import Noticeboard
import NIOCore
import SiteModel
import Support
import Synchronization

/// `noticeboard serve`: builds the site into the git-ignored cache, serves it on loopback under the
/// base URL's sub-path with pretty URLs and the site's 404 page, rebuilds on change, and reloads open tabs.
public struct PreviewServer: Sendable {
    public let root: String
    public let host: String
    public let port: Int
    public let now: CalendarDate?
    public let maxFileBytes: Int
    /// Log each build's stages after its summary.
    public let timings: Bool

    public init(root: String, host: String, port: Int, now: CalendarDate?, maxFileBytes: Int, timings: Bool = false) {
        self.root = root
        self.host = host
        self.port = port
        self.now = now
        self.maxFileBytes = maxFileBytes
        self.timings = timings
    }

    public enum Failure: Error, CustomStringConvertible {
        case portInUse(host: String, port: Int)
        case noSite(BuildFailure)

        public var description: String {
            switch self {
            case .portInUse(let host, let port): return "error: port \(port) on \(host) is already in use; choose another with --port"
            case .noSite(let failure): return failure.description
            }
        }
    }

    /// Ctrl-C and SIGTERM end the process once the record of the last build is saved: an edit's record is
    /// saved after its output is in place, and without it the next start finds the output changed behind
    /// its record and renders the whole site again, then builds its first edit from scratch (at 400,000
    /// listings, 4.6 minutes and 2 minutes instead of 37 s and 19 s in place). A build still running is
    /// left: it writes into a staging folder, which the next build begins anew.
    private static func stopOnSignals(site: LiveSite, log: @escaping @Sendable (String) -> Void) {
        for signalNumber in [SIGINT, SIGTERM] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                site.waitUntilSaved()
                log("Stopped.")
                exit(0)
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Kept alive for the life of the process.
    private nonisolated(unsafe) static var signalSources: [any DispatchSourceSignal] = []

    /// Tries the address before the first build, so a taken port is reported at once; the server's own
    /// bind error is still caught in case another program takes the port in between.
    static func canListen(host: String, port: Int) -> Bool {
        var hints = addrinfo(ai_flags: AI_PASSIVE, ai_family: AF_UNSPEC, ai_socktype: Int32(SOCK_STREAM.rawValue), ai_protocol: 0, ai_addrlen: 0, ai_addr: nil, ai_canonname: nil, ai_next: nil)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let address = result else { return true }
        defer { freeaddrinfo(result) }
        let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
        guard descriptor >= 0 else { return true }
        defer { close(descriptor) }
        var reuse: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        return bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0
    }

    /// Where serve builds to: never `public/`, which stays as `build` left it.
    var outputPath: String { SitePaths.cache("serve", in: root) }

    /// The address pages are served under, which replaces `base_url` so every link stays on the preview.
    func baseURL(basePath: String) -> String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)\(basePath)" }

    /// `base_url`'s path is read when serve starts, and the site stays served there: after a build whose
    /// `base_url` names another path, says so, once each time it changes.
    private func basePathChanges(from served: String, log: @escaping @Sendable (String) -> Void) -> @Sendable () -> Void {
        let options = BuildOptions(root: root, maxFileBytes: maxFileBytes)
        let lastRead = Mutex(served)
        return {
            guard let path = try? Noticeboard.basePath(options) else { return }
            let changed = lastRead.withLock { last in
                defer { last = path }
                return last != path
            }
            if changed && path != served {
                log("base_url's path is now \(path), but this preview serves the site at \(served) until serve is started again.")
            }
        }
    }

    /// Tells what each build did, or why it failed; `afterSuccess` runs after a build's report.
    private static func reportBuilds(
        log: @escaping @Sendable (String) -> Void, timings: Bool, site: ServedSite, afterSuccess: @escaping @Sendable () -> Void
    ) -> @Sendable (Result<BuildReport, BuildFailure>) -> Void {
        { result in
            switch result {
            case .success(let report):
                let time = report.seconds < 1 ? String(format: "%.0f ms", report.seconds * 1000) : String(format: "%.2f s", report.seconds)
                log("Built \(report.pages) pages (\(report.written) file\(report.written == 1 ? "" : "s") written) in \(time)")
                if timings {
                    for stage in report.stages.stages { log(stage.line) }
                }
                afterSuccess()
            case .failure(let failure):
                log(failure.description + "\n" + (site.hasBuild
                    ? "The last good build is still being served."
                    : "No build has succeeded yet: open pages show these errors, and reload once a build succeeds."))
            }
        }
    }

    public func run(log: @escaping @Sendable (String) -> Void) async throws {
        // The sub-path comes from the site's own configuration; read it once with a check.
        let basePath: String
        do throws(BuildFailure) {
            basePath = try Noticeboard.basePath(BuildOptions(root: root, maxFileBytes: maxFileBytes))
        } catch {
            throw Failure.noSite(error)
        }
        guard Self.canListen(host: host, port: port) else { throw Failure.portInUse(host: host, port: port) }
        let options = BuildOptions(root: root, output: outputPath, maxFileBytes: maxFileBytes, now: now, baseURL: baseURL(basePath: basePath))
        let events = ReloadEvents()
        let output = outputPath
        let live = LiveSite(options: options, log: log)
        let watcher = SiteWatcher(options: options, events: events, site: live) {
            log("Another build is writing \(output)/; waiting for it to finish.")
        }
        let site = ServedSite(outputPath: outputPath, basePath: basePath)
        let report = Self.reportBuilds(log: log, timings: timings, site: site, afterSuccess: basePathChanges(from: basePath, log: log))
        Self.stopOnSignals(site: live, log: log)
        let firstInputs = await watcher.firstBuild(onRebuild: report)

        // A HEAD is answered as its GET is, without the body, as hosts answer it (link checkers, `curl -I`).
        let router = Router(options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestGuard(host: host, port: port))
        router.get(RouterPath(LiveReload.eventsPath)) { _, _ -> Response in
            let stream = await events.subscribe()
            let body = ResponseBody { writer in
                try await writer.write(ByteBuffer(string: ": connected\n\n"))
                for await event in stream { try await writer.write(ByteBuffer(string: event.wireFormat)) }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"], body: body)
        }
        for path: RouterPath in ["/", "**"] {
            router.get(path) { request, _ -> Response in site.response(for: request.uri.path, query: request.uri.query ?? "") }
        }
        let app = Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: "noticeboard"),
            onServerRunning: { _ in log("Serving \(baseURL(basePath: basePath)) (Ctrl-C to stop)") })
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await watcher.run(after: firstInputs, onRebuild: report) }
            group.addTask { await events.beat() }
            group.addTask {
                do {
                    // No graceful shutdown: open event streams never end by themselves, so it would wait
                    // forever. Ctrl-C stops at once (below); a rebuild cut short leaves the last good build.
                    try await app.runService(gracefulShutdownSignals: [])
                } catch let error as IOError where error.errnoCode == EADDRINUSE {
                    throw Failure.portInUse(host: host, port: port)
                }
            }
            // When the server stops (Ctrl-C, or it could not start), stop watching too.
            try await group.next()
            group.cancelAll()
        }
    }
}
