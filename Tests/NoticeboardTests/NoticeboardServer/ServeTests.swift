import Foundation
import SyntheticSite
import Testing

/// Starts `noticeboard serve` on a free loopback port and talks to it over HTTP, as a browser would.
@Suite(.serialized) struct ServeTests {
    /// A loopback socket bound to a port the kernel chose: its descriptor (the caller closes it) and port.
    static func boundSocket() -> (descriptor: Int32, port: Int) {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// A port nobody listens on now.
    static func freePort() -> Int {
        let (descriptor, port) = boundSocket()
        close(descriptor)
        return port
    }

    /// Starts `noticeboard serve` with the arguments in the site folder; what it prints goes to the returned log file.
    static func startServe(_ arguments: [String], in site: String) throws -> (server: Process, log: String) {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: TestSupport.executable)
        server.arguments = ["serve"] + arguments
        server.currentDirectoryURL = URL(fileURLWithPath: site)
        let log = site + "/serve.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        server.standardOutput = FileHandle(forWritingAtPath: log)
        server.standardError = FileHandle(forWritingAtPath: log)
        try server.run()
        return (server, log)
    }

    /// `noticeboard serve` of the site as of 2026-11-23 on a free port, once it says it is serving.
    static func serve(_ site: String) throws -> (base: String, server: Process, log: String) {
        let port = freePort()
        let (server, log) = try startServe(["--port", String(port), "--now", "2026-11-23"], in: site)
        let base = "http://127.0.0.1:\(port)"
        #expect(try eventually(60) { TestSupport.read(log).contains("Serving \(base)/catalogue/") }, "\(TestSupport.read(log))")
        return (base, server, log)
    }

    /// Listens to serve's server-sent events with curl, into the returned log file, once connected.
    static func listenForEvents(_ base: String, in site: String) throws -> (listener: Process, log: String) {
        let log = site + "/events.log"
        FileManager.default.createFile(atPath: log, contents: nil)
        let listener = Process()
        listener.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        listener.arguments = ["curl", "-sN", "\(base)/__noticeboard/events"]
        listener.standardOutput = FileHandle(forWritingAtPath: log)
        try listener.run()
        #expect(try eventually(10) { TestSupport.read(log).contains(": connected") })
        return (listener, log)
    }

    struct Fetched {
        let status: Int
        let contentType: String
        let body: String
    }

    /// GET with curl, which the test set-up installs: status, content type and body.
    static func fetch(_ url: String) throws -> Fetched {
        let result = try TestSupport.run("curl", ["-s", "-o", "-", "-w", "\n%{http_code} %{content_type}", url])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = lines.last?.split(separator: " ", maxSplits: 1) ?? []
        return Fetched(
            status: Int(status.first ?? "") ?? 0, contentType: status.count > 1 ? String(status[1]) : "",
            body: lines.dropLast().joined(separator: "\n"))
    }

    /// Waits up to `seconds` for `condition`, checking every 100 ms.
    static func eventually(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return try condition()
    }

    @Test func servesPagesRebuildsOnChangeAndSendsReload() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("Contact: mailto:security@example.org\n", to: site + "/static/.well-known/security.txt")
        let (base, server, log) = try Self.serve(site)
        defer { server.terminate(); server.waitUntilExit() }

        // Pretty URLs under the base URL's sub-path, with content types and the live-reload script.
        let page = try Self.fetch("\(base)/catalogue/cleaners/aoife-byrne/")
        #expect(page.status == 200 && page.contentType == "text/html; charset=utf-8")
        #expect(page.body.contains("<h1>Aoife Byrne</h1>") && page.body.contains("/__noticeboard/events"))
        #expect(page.body.contains("<link rel=\"canonical\" href=\"\(base)/catalogue/cleaners/aoife-byrne/\">"))
        #expect(try Self.fetch("\(base)/catalogue/api/cleaners.json").contentType == "application/json")
        #expect(try Self.fetch("\(base)/catalogue/assets/style.css").contentType == "text/css; charset=utf-8")
        #expect(try Self.fetch("\(base)/catalogue/cleaners").status == 301)
        // A redirect that adds the slash keeps the query, and a HEAD answers as the GET would, without the body.
        let redirect = try TestSupport.run("curl", ["-s", "-o", "/dev/null", "-w", "%{redirect_url}", "\(base)/catalogue/search?q=oven&kind=cleaners"])
        #expect(redirect.stdout == "\(base)/catalogue/search/?q=oven&kind=cleaners")
        let head = try TestSupport.run("curl", ["-sI", "\(base)/catalogue/cleaners/aoife-byrne/"]).stdout.lowercased()
        #expect(head.hasPrefix("http/1.1 200") && head.contains("content-length: \(page.body.utf8.count)\r\n"), "\(head)")
        #expect(try TestSupport.run("curl", ["-sI", "\(base)/catalogue/no-such-page/"]).stdout.hasPrefix("HTTP/1.1 404"))
        let missing = try Self.fetch("\(base)/catalogue/no-such-page/")
        #expect(missing.status == 404 && missing.body.contains("<h1>Page not found</h1>"))
        #expect(try Self.fetch("\(base)/catalogue/../content/site.yaml").status == 404)
        // static/'s hidden files are served, as a host serves them.
        #expect(try Self.fetch("\(base)/catalogue/.well-known/security.txt").body == "Contact: mailto:security@example.org\n")

        // Listen for events, edit a listing, and see the reload event and the new page.
        let (events, eventsLog) = try Self.listenForEvents(base, in: site)
        defer { events.terminate() }
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        TestSupport.write(TestSupport.read(aoife).replacingOccurrences(of: "name: Aoife Byrne", with: "name: Aoife Byrne-Nolan"), to: aoife)
        #expect(try Self.eventually(20) { TestSupport.read(eventsLog).contains("event: reload") }, "\(TestSupport.read(log))")
        #expect(try Self.fetch("\(base)/catalogue/cleaners/aoife-byrne/").body.contains("<h1>Aoife Byrne-Nolan</h1>"))

        // A broken edit keeps the last good build served and sends the located error to the page.
        TestSupport.write("name: [unclosed\n", to: site + "/content/cleaners/broken.yaml")
        #expect(try Self.eventually(20) { TestSupport.read(eventsLog).contains("event: failure\ndata: content/cleaners/broken.yaml:2:1: error:") })
        #expect(try Self.fetch("\(base)/catalogue/cleaners/aoife-byrne/").body.contains("<h1>Aoife Byrne-Nolan</h1>"))

        // `build` never writes the script, and serve never touched public/.
        #expect(!FileManager.default.fileExists(atPath: site + "/public"))
        try FileManager.default.removeItem(atPath: site + "/content/cleaners/broken.yaml")
        #expect(try TestSupport.runCLI(["build", "--now", "2026-11-23"], in: site).status == 0)
        #expect(!TestSupport.tree(site + "/public").values.contains { $0.range(of: Data("__noticeboard".utf8)) != nil })
    }

    /// A number past the limit, in a listing or in a sum the chore boards derive from it, fails that build
    /// with a located error; serve keeps running and serving the last good build, and builds the next good edit.
    @Test func serveSurvivesNumbersPastTheLimit() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let (base, server, log) = try Self.serve(site)
        defer { server.terminate(); server.waitUntilExit() }
        let house = "\(base)/catalogue/api/houses/maple-terrace.json"
        let good = try Self.fetch(house).body
        #expect(good.contains("\"scores\""))

        let task = site + "/content/tasks/maple-clear-gutters.yaml"
        let original = TestSupport.read(task)
        for (points, error) in [
            ("9223372036854775807", "content/tasks/maple-clear-gutters.yaml:4:9: error: 'points' is 9223372036854775807, past the largest"),
            ("9007199254740991", "error: 'points' here takes the sum for derived field 'scores' of content/houses/maple-terrace.yaml past"),
        ] {
            TestSupport.write(original.replacingOccurrences(of: "points: 6", with: "points: \(points)"), to: task)
            #expect(try Self.eventually(20) { TestSupport.read(log).contains(error) }, "\(TestSupport.read(log))")
            #expect(server.isRunning)
            #expect(try Self.fetch(house).body == good)
        }
        TestSupport.write(original.replacingOccurrences(of: "points: 6", with: "points: 7"), to: task)
        #expect(try Self.eventually(20) { try Self.fetch(house).body != good }, "\(TestSupport.read(log))")
        #expect(server.isRunning && !TestSupport.read(log).contains("Fatal error"))
    }

    /// Serve builds into `.noticeboard-cache/serve` under the same lock as `build`: while the test holds it,
    /// serve says it waits and builds nothing; once it is released, serve builds and serves.
    @Test func serveWaitsForAnotherBuildIntoTheSameFolder() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        try FileManager.default.createDirectory(atPath: site + "/.noticeboard-cache", withIntermediateDirectories: true)
        let held = open(site + "/.noticeboard-cache", O_RDONLY | O_DIRECTORY)
        #expect(held >= 0 && flock(held, LOCK_EX) == 0)
        var released = false
        defer { if !released { close(held) } }
        let port = Self.freePort()
        let (server, log) = try Self.startServe(["--port", String(port)], in: site)
        defer { server.terminate(); server.waitUntilExit() }

        #expect(try Self.eventually(30) { TestSupport.read(log).contains("Another build is writing .noticeboard-cache/serve/; waiting for it to finish.") }, "\(TestSupport.read(log))")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(!FileManager.default.fileExists(atPath: site + "/.noticeboard-cache/serve"))
        #expect(!TestSupport.read(log).contains("Serving"))
        close(held)
        released = true
        #expect(try Self.eventually(60) { TestSupport.read(log).contains("Serving http://127.0.0.1:\(port)/catalogue/") }, "\(TestSupport.read(log))")
        #expect(try Self.fetch("http://127.0.0.1:\(port)/catalogue/cleaners/aoife-byrne/").status == 200)
    }

    /// Ctrl-C right after an edit is built in place waits for that build's record, which is saved after its
    /// output is in place: the next start finds the output as recorded and serves it without rendering it
    /// again, then reads the site in the background. The catalogue is large enough that saving its record takes longer than the test takes to react.
    @Test func stoppingRightAfterAnEditKeepsItsRecord() throws {
        let site = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(site) }
        try SiteWriter.write(SyntheticCatalogue(size: .init(cleaners: 600, rentals: 600, quotes: 1200), seed: 1), to: site, example: TestSupport.repository)
        let arguments = ["--port", String(Self.freePort()), "--now", "2026-11-23", "--timings"]
        let builtLines = { (log: String) in TestSupport.read(log).split(separator: "\n").filter { $0.hasPrefix("Built ") }.count }
        let (server, log) = try Self.startServe(arguments, in: site)
        #expect(try Self.eventually(120) { TestSupport.read(log).contains("Serving") }, "\(TestSupport.read(log))")
        // Two edits, each built in place.
        let cleaners = site + "/content/cleaners"
        let edited = try cleaners + "/" + FileManager.default.contentsOfDirectory(atPath: cleaners).sorted()[0]
        for run in 1...2 {
            let built = builtLines(log), deadline = Date().addingTimeInterval(120)
            TestSupport.write(TestSupport.read(edited).replacingOccurrences(of: "\nbio: |\n  ", with: "\nbio: |\n  Edited in run \(run). "), to: edited)
            while builtLines(log) == built && Date() < deadline { Thread.sleep(forTimeInterval: 0.002) }
        }
        #expect(TestSupport.read(log).contains("render what shows them"), "\(TestSupport.read(log))")
        kill(server.processIdentifier, SIGINT)
        server.waitUntilExit()
        #expect(TestSupport.read(log).hasSuffix("Stopped.\n"))

        let (restarted, restartLog) = try Self.startServe(arguments, in: site)
        defer { restarted.terminate(); restarted.waitUntilExit() }
        #expect(try Self.eventually(120) { TestSupport.read(restartLog).contains("Serving") }, "\(TestSupport.read(restartLog))")
        let stages = TestSupport.read(restartLog).split(separator: "\n").filter { $0.hasPrefix(" ") }
        #expect(!stages.isEmpty && !stages.contains { $0.hasSuffix("  render") }, "\(TestSupport.read(restartLog))")
        #expect(try Self.eventually(120) { TestSupport.read(restartLog).contains(": edits are built in place.") }, "\(TestSupport.read(restartLog))")
    }

    /// Before any build has succeeded every address answers with a page that shows the errors and reloads
    /// once a build does, and the log says nothing is served yet, rather than "the last good build": whether the
    /// first build fails on a listing or on a file of someone's in serve's folder (which was served as the site).
    @Test(arguments: [false, true])
    func aSiteWhoseFirstBuildFailsShowsItsErrorsUntilOneSucceeds(byAFileInServesFolder: Bool) throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let aoife = site + "/content/cleaners/aoife-byrne.yaml", theirs = site + "/.noticeboard-cache/serve/index.html"
        let good = TestSupport.read(aoife)
        if byAFileInServesFolder {
            TestSupport.write("<p>mine</p>", to: theirs)
        } else {
            TestSupport.write(good.replacingOccurrences(of: "hourly_rate: 19.50", with: "hourly_rate: lots"), to: aoife)
        }
        let port = Self.freePort()
        let (server, log) = try Self.startServe(["--port", String(port), "--now", "2026-11-23"], in: site)
        defer { server.terminate(); server.waitUntilExit() }
        let base = "http://127.0.0.1:\(port)"
        #expect(try Self.eventually(60) { TestSupport.read(log).contains("Serving \(base)/catalogue/") }, "\(TestSupport.read(log))")
        #expect(TestSupport.read(log).contains("No build has succeeded yet: open pages show these errors, and reload once a build succeeds."))
        #expect(!TestSupport.read(log).contains("last good build"))
        for path in ["/", "/catalogue/", "/catalogue/cleaners/aoife-byrne/"] {
            let page = try Self.fetch(base + path)
            #expect(page.status == 503 && page.body.contains("No build of this site has succeeded yet") && page.body.contains("/__noticeboard/events"))
        }
        let (events, eventsLog) = try Self.listenForEvents(base, in: site)
        defer { events.terminate() }
        let failure = byAFileInServesFolder ? "event: failure\ndata: error: refusing to write the site to " : "event: failure\ndata: content/cleaners/aoife-byrne.yaml:"
        #expect(try Self.eventually(10) { TestSupport.read(eventsLog).contains(failure) }, "\(TestSupport.read(eventsLog))")
        if byAFileInServesFolder { TestSupport.removeTree(theirs) }
        TestSupport.write(good + "\n", to: aoife)
        #expect(try Self.eventually(60) { TestSupport.read(eventsLog).contains("event: reload") }, "\(TestSupport.read(log))")
        #expect(try Self.fetch("\(base)/catalogue/cleaners/aoife-byrne/").body.contains("<h1>Aoife Byrne</h1>"))
    }

    /// A site started without `static/` gets one while served (as `noticeboard new` makes them): it is seen,
    /// built and served without a restart.
    @Test func aStaticFolderMadeWhileServingIsBuilt() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        try FileManager.default.removeItem(atPath: site + "/static")
        let (base, server, log) = try Self.serve(site)
        defer { server.terminate(); server.waitUntilExit() }
        #expect(try Self.fetch("\(base)/catalogue/CNAME").status == 404)
        TestSupport.write("catalogue.example.org\n", to: site + "/static/CNAME")
        #expect(try Self.eventually(20) { try Self.fetch("\(base)/catalogue/CNAME").body == "catalogue.example.org\n" }, "\(TestSupport.read(log))")
        // And a file added inside it afterwards.
        TestSupport.write("Contact: mailto:security@example.org\n", to: site + "/static/.well-known/security.txt")
        #expect(try Self.eventually(20) { try Self.fetch("\(base)/catalogue/.well-known/security.txt").status == 200 }, "\(TestSupport.read(log))")
    }

    /// The sub-path is read when serve starts: a `base_url` with another path is built but served where it was,
    /// and the log says so, once, until it changes again.
    @Test func aNewBaseURLPathIsToldToNeedARestart() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let (base, server, log) = try Self.serve(site)
        defer { server.terminate(); server.waitUntilExit() }
        let config = site + "/content/site.yaml"
        let told = "base_url's path is now /other/, but this preview serves the site at /catalogue/ until serve is started again."
        TestSupport.write(TestSupport.read(config).replacingOccurrences(of: "https://example.org/catalogue/", with: "https://example.org/other/"), to: config)
        #expect(try Self.eventually(60) { TestSupport.read(log).contains(told) }, "\(TestSupport.read(log))")
        #expect(try Self.fetch("\(base)/catalogue/").status == 200)
        // Other builds with the same path say nothing more: two, so that the first's report is done.
        func builds() -> Int { TestSupport.read(log).components(separatedBy: "Built ").count }
        for edit in 1...2 {
            let before = builds()
            TestSupport.write(TestSupport.read(config) + "\n# edit \(edit)\n", to: config)
            #expect(try Self.eventually(60) { builds() > before }, "\(TestSupport.read(log))")
        }
        #expect(TestSupport.read(log).components(separatedBy: told).count == 2)
    }

    /// Each page a browser shows opens an event stream, which it closes as it leaves the page. The server lets
    /// go of each within a second or so: a stream waited for its next event, so every page left kept a socket
    /// (CLOSE-WAIT) until a rebuild, and Chromium's seventh page load then waited a minute (a tester's report).
    @Test func eventStreamsOfPagesLeftAreClosed() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let (base, server, log) = try Self.serve(site)
        defer { server.terminate() }
        for _ in 0..<8 { _ = try TestSupport.run("curl", ["-sN", "--max-time", "0.3", "\(base)/__noticeboard/events"]) }
        // The server's sockets in CLOSE-WAIT (state 08 in the kernel's table), by their local port in hexadecimal.
        let port = String(Int(base.split(separator: ":").last ?? "") ?? 0, radix: 16, uppercase: true)
        func waiting() -> [String] {
            TestSupport.read("/proc/net/tcp").split(separator: "\n").map(String.init).filter { line in
                let fields = line.split(separator: " ")
                return fields.count > 3 && fields[1].hasSuffix(":" + String(repeating: "0", count: 4 - port.count) + port) && fields[3] == "08"
            }
        }
        #expect(Self.eventually(5) { waiting().isEmpty }, "\(waiting())\n\(TestSupport.read(log))")
    }

    @Test func aTakenPortIsAClearError() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let (descriptor, port) = Self.boundSocket()
        defer { close(descriptor) }
        listen(descriptor, 1)
        let result = try TestSupport.runCLI(["serve", "--port", String(port)], in: site)
        #expect(result.status == 1)
        #expect(result.stderr.contains("error: port \(port) on 127.0.0.1 is already in use; choose another with --port"))
    }

    /// A port the socket cannot take is refused before anything is built or served.
    @Test(arguments: ["0", "65536", "99999"]) func aPortOutOfRangeIsRefused(port: String) throws {
        let site = TestSupport.makeSite(fixture: "corpus-base")
        defer { TestSupport.removeTree(site) }
        let result = try TestSupport.runCLI(["serve", "--port", port], in: site)
        #expect(result.status != 0 && result.stderr.contains("--port must be from 1 to 65535, not \(port)"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: site + "/public"))
    }
}
