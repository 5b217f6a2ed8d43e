import Foundation
import Testing

/// What `serve` refuses to answer, and what it never shows: real HTTP requests to a running preview.
@Suite(.serialized) struct ServeSafetyTests {
    /// GET with curl exactly as written (no dot-segment squashing), with extra headers: status, type and body.
    static func fetch(_ url: String, headers: [String] = []) throws -> ServeTests.Fetched {
        let arguments = ["-s", "--path-as-is", "-o", "-", "-w", "\n%{http_code} %{content_type}"] + headers.flatMap { ["-H", $0] } + [url]
        let result = try TestSupport.run("curl", arguments)
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = lines.last?.split(separator: " ", maxSplits: 1) ?? []
        return ServeTests.Fetched(
            status: Int(status.first ?? "") ?? 0, contentType: status.count > 1 ? String(status[1]) : "",
            body: lines.dropLast().joined(separator: "\n"))
    }

    @Test func pathsWithControlBytesBackslashesOrDotSegmentsAreBadRequests() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let (base, server, _) = try ServeTests.serve(site)
        defer { server.terminate(); server.waitUntilExit() }
        let json = try Self.fetch("\(base)/catalogue/api/cleaners/aoife-byrne.json")
        #expect(json.status == 200 && json.contentType == "application/json")
        for path in [
            "api/cleaners/aoife-byrne.json%00.html", "api/cleaners/aoife-byrne.json%00", "api/cleaners/aoife-byrne.json%0a.html",
            "api/cleaners/aoife-byrne.json%1F.html", "api/cleaners/aoife-byrne.json%7f.html", "%00", "cleaners%5caoife-byrne/",
            "%2e%2e/content/site.yaml", "..%2Fcontent/site.yaml", "cleaners/../api/cleaners.json", "./index.html", "cleaners/%2E/",
            "api/cleaners/aoife-byrne.json%", "api/cleaners/aoife-byrne.json%zz.html", "api/cleaners/aoife-byrne.json%0.html",
        ] {
            let answer = try Self.fetch("\(base)/catalogue/\(path)")
            #expect(answer.status == 400, "\(path): \(answer.status)")
            #expect(answer.contentType == "text/plain; charset=utf-8", "\(path)")
            #expect(!answer.body.contains("Aoife"), "\(path)")
        }
    }

    /// A page elsewhere that rebinds its DNS name to 127.0.0.1 sends its own name as Host.
    @Test func onlyTheServersOwnHostIsAnswered() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let (base, server, _) = try ServeTests.serve(site)
        defer { server.terminate(); server.waitUntilExit() }
        let port = base.split(separator: ":").last!
        let page = "\(base)/catalogue/cleaners/aoife-byrne/"
        for host in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST:\(port)", "[::1]:\(port)"] {
            #expect(try Self.fetch(page, headers: ["Host: \(host)"]).status == 200, "\(host)")
        }
        for host in ["attacker.example:\(port)", "attacker.example", "127.0.0.1", "127.0.0.1:1", "localhost.attacker.example:\(port)", ""] {
            let answer = try Self.fetch(page, headers: ["Host: \(host)"])
            #expect(answer.status == 403, "\(host): \(answer.status)")
            #expect(!answer.body.contains("Aoife"))
        }
        let events = try TestSupport.run("curl", ["-s", "-m", "3", "-H", "Host: attacker.example:\(port)", "-w", "\n%{http_code}", "\(base)/__noticeboard/events"])
        #expect(events.stdout.hasSuffix("\n403"), "\(events.stdout)")
    }

    /// A failed rebuild's errors go to the page's overlay over server-sent events: a private field's value
    /// must not be among them, nor in the terminal.
    @Test func aPrivateValueIsNeverInTheEventStreamOrTheLog() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let (base, server, log) = try ServeTests.serve(site)
        defer { server.terminate(); server.waitUntilExit() }
        let (events, eventsLog) = try ServeTests.listenForEvents(base, in: site)
        defer { events.terminate() }
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        let text = TestSupport.read(aoife)
        let phone = text.split(separator: "\n").first { $0.hasPrefix("phone:") }!
        TestSupport.write(text.replacingOccurrences(of: String(phone), with: "phone: ring SECRET-NUMBER after six"), to: aoife)
        #expect(try ServeTests.eventually(20) { TestSupport.read(eventsLog).contains("event: failure") }, "\(TestSupport.read(log))")
        #expect(TestSupport.read(eventsLog).contains("'phone' must be a phone number"))
        #expect(!TestSupport.read(eventsLog).contains("SECRET"))
        #expect(!TestSupport.read(log).contains("SECRET"))
    }
}
