import Foundation
import Noticeboard
import OutputWriter
import SiteModel
import Testing

/// Paths and helpers shared by the tests: the repository, fixtures, temporary sites and the CLI.
enum TestSupport {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let fixtures = repository + "/Tests/Fixtures"
    /// The sitemaps.org XSD that developers and CI share beside the checkout, when it is there.
    static let sitemapSchema = repository + "/../shared/schemas/sitemap.xsd"
    /// The date the tests build as of.
    static let now = CalendarDate(year: 2026, month: 11, day: 23)!

    /// Texts that escaping, folding and comparing get wrong most easily.
    static let awkwardTexts = [
        "", "plain words", "Oven & hob <cleaning> \"quoted\" it's", "Siobhán Ó Súilleabháin", "€18.50 an hour",
        "e\u{301}cole and \"\u{301} a quote with a combining accent", "line\r\nbreaks\tand\ttabs", "ΣΟΦΊΑ Ωραία",
        "Łukasz & Zofia 'o' <b>", "emoji 👩‍👩‍👧 family", " leading and trailing ", "a \u{301}b", "İstanbul DŽ ǅ",
        "C++ & C# 1,000.5", "Olena Коваленко: 5/5!",
    ]

    /// Builds the site as of `now` into its public/ and returns every file there, by path.
    static func buildTree(_ site: String, now: CalendarDate = now) throws -> [String: Data] {
        _ = try Noticeboard.build(BuildOptions(root: site, now: now))
        return tree(site + "/public")
    }

    static func json(_ files: [String: Data], _ path: String) throws -> [String: Any] {
        let data = try #require(files[path], "\(path) missing")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Builds the same input from scratch into a fresh folder and checks that the site's public/, which
    /// an incremental or in-place build wrote, equals it byte for byte.
    static func expectSameAsCleanBuild(_ site: String, _ step: String, now: CalendarDate = now) throws {
        let clean = site + "/clean-" + UUID().uuidString
        defer { removeTree(clean) }
        let report = try cleanBuild(site, into: clean, now: now)
        #expect(report.written == report.files, "a clean build writes everything")
        let built = tree(site + "/public"), fresh = tree(clean)
        #expect(Set(built.keys) == Set(fresh.keys), "\(step): different files \(Set(built.keys).symmetricDifference(fresh.keys).sorted().prefix(5))")
        let differing = fresh.keys.filter { built[$0] != fresh[$0] }.sorted()
        #expect(differing.isEmpty, "\(step): different bytes in \(differing.prefix(5))")
    }

    /// A fresh temporary folder, removed by the caller with `removeTree`.
    static func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "noticeboard-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func removeTree(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// A site in a temporary folder: the example site's templates (and `static/`, without a fixture), and `content/` from the named fixture
    /// (or from the repository's example site when `fixture` is nil, with its photos' variants already in the
    /// image cache, as a second build finds them: the image tests start from fixtures, cold).
    static func makeSite(fixture: String? = nil) -> String {
        let site = temporaryFolder()
        let content = fixture.map { fixtures + "/" + $0 + "/content" } ?? repository + "/content"
        try! FileManager.default.copyItem(atPath: content, toPath: site + "/content")
        if fixture == nil {
            try! FileManager.default.createDirectory(atPath: site + "/.noticeboard-cache", withIntermediateDirectories: true)
            try! FileManager.default.copyItem(atPath: exampleImageCache, toPath: site + "/.noticeboard-cache/images")
        }
        let fixtureTemplates = fixture.map { fixtures + "/" + $0 + "/templates" }
        if let templates = fixtureTemplates, FileManager.default.fileExists(atPath: templates) {
            try! FileManager.default.copyItem(atPath: templates, toPath: site + "/templates")
        } else if fixture != nil {
            try! copyThemeTemplates(to: site + "/templates")
        } else {
            try! FileManager.default.copyItem(atPath: repository + "/templates", toPath: site + "/templates")
            try! FileManager.default.copyItem(atPath: repository + "/static", toPath: site + "/static")
        }
        return site
    }

    /// The example site's templates without those it made for its own kinds (`templates/cleaners/`…), for a
    /// fixture's content: those name the example's fields, which a fixture's kind of the same name need not
    /// have, and the build refuses a template that names what its pages' context cannot hold.
    static func copyThemeTemplates(to folder: String) throws {
        let files = FileManager.default
        try files.copyItem(atPath: repository + "/templates", toPath: folder)
        for entry in try files.contentsOfDirectory(atPath: folder) where !["partials", "assets"].contains(entry) {
            var isFolder: ObjCBool = false
            if files.fileExists(atPath: folder + "/" + entry, isDirectory: &isFolder), isFolder.boolValue {
                try files.removeItem(atPath: folder + "/" + entry)
            }
        }
    }

    /// The example site's image cache, made once per test run by checking a copy of the site.
    private static let exampleImageCache: String = {
        let site = temporaryFolder()
        try! FileManager.default.copyItem(atPath: repository + "/content", toPath: site + "/content")
        try! FileManager.default.copyItem(atPath: repository + "/templates", toPath: site + "/templates")
        _ = try! Noticeboard.check(BuildOptions(root: site))
        return site + "/.noticeboard-cache/images"
    }()

    /// Keeps aside the record that the next build into the site's `public/` starts from, for `cleanBuild`.
    static func keepRecord(_ site: String) {
        let record = FileManager.default.contents(atPath: BuildState.file(root: site, outputPath: site + "/public"))
        FileManager.default.createFile(atPath: site + "/record-before-last-build", contents: record)
    }

    /// A build from scratch into `output` given the record kept by `keepRecord` (its listings' `updated`
    /// dates and sync history): what the last build into `public/` must equal.
    static func cleanBuild(_ site: String, into output: String, now: CalendarDate) throws -> BuildReport {
        let record = FileManager.default.contents(atPath: site + "/record-before-last-build")
        FileManager.default.createFile(atPath: BuildState.file(root: site, outputPath: output), contents: record)
        return try Noticeboard.build(BuildOptions(root: site, output: output, now: now))
    }

    static func write(_ text: String, to path: String) {
        try! FileManager.default.createDirectory(
            atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try! Data(text.utf8).write(to: URL(fileURLWithPath: path))
    }

    static func read(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }

    /// Every file below a folder with its bytes, keyed by relative path.
    /// The inode of the file at `path` (0 when there is none): two paths with one inode are links to one file.
    static func inode(_ path: String) -> ino_t {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_ino : 0
    }

    static func tree(_ root: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for name in FileManager.default.subpaths(atPath: root) ?? [] {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory), !isDirectory.boolValue { files[name] = FileManager.default.contents(atPath: root + "/" + name) }
        }
        return files
    }

    /// A valid 50,000 × 50,000 one-bit grey PNG: 2.5 gigapixels in about 300 kB, made once.
    static func pngBomb() throws -> [UInt8] { try madePNGBomb.get() }

    private static let madePNGBomb = Result { () throws -> [UInt8] in try blackPNG(width: 50_000, height: 50_000) }

    /// A valid one-bit grey PNG of this size, all black, made with Python's zlib.
    static func blackPNG(width: Int, height: Int) throws -> [UInt8] {
        let folder = temporaryFolder()
        defer { removeTree(folder) }
        let path = folder + "/black.png"
        let script = #"""
            import struct, sys, zlib
            def chunk(kind, data):
                return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
            width, height = int(sys.argv[2]), int(sys.argv[3])
            row, packer = bytes(1 + (width + 7) // 8), zlib.compressobj(9)
            pixels = b"".join(packer.compress(row) for _ in range(height)) + packer.flush()
            header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
            with open(sys.argv[1], "wb") as out:
                out.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b""))
            """#
        let result = try run("python3", ["-c", script, path, String(width), String(height)])
        guard result.status == 0, let data = FileManager.default.contents(atPath: path) else { throw CocoaError(.fileWriteUnknown) }
        return [UInt8](data)
    }

    /// A `launcher` for `runCLI` under which the CLI's first open of the folder `name` as the writer opens a folder it
    /// holds fails with "Too many open files", and every other open goes through (Tests/Tools/fail_first_open.c,
    /// preloaded): the open that checks that folder fails as when the build has run out of file descriptors.
    static func failingFirstOpen(of name: String) throws -> [String] {
        ["/usr/bin/env", "LD_PRELOAD=" + (try builtOpenFailer.get()), "NOTICEBOARD_FAIL_OPEN=" + name]
    }

    /// `failingFirstOpen`, but the first `count` such opens of the folder `name` fail: with 2, it can be opened neither
    /// to be checked nor to be listed, and then is.
    static func failingFirstOpens(_ count: Int, of name: String) throws -> [String] {
        try failingFirstOpen(of: name) + ["NOTICEBOARD_FAIL_OPENS=\(count)"]
    }

    /// `failingFirstOpens`, but of the file `name` (any open of it that does not ask for a folder): a marker or a manifest
    /// the writer reads. The first `skipping` of them go through.
    static func failingOpen(ofFile name: String, skipping: Int = 0) throws -> [String] {
        try failingFirstOpen(of: name) + ["NOTICEBOARD_FAIL_OPEN_FILE=1", "NOTICEBOARD_FAIL_OPEN_SKIP=\(skipping)"]
    }

    /// `failingFirstOpen`, but every such open of the folder `name` fails, not only the first: the folder can be opened
    /// neither to be checked nor to be listed, nor made anew and opened.
    static func failingEveryOpen(of name: String) throws -> [String] {
        try failingFirstOpen(of: name) + ["NOTICEBOARD_FAIL_OPENS=all"]
    }

    /// A `launcher` for `runCLI` under which the CLI's `nth` open of the folder `name` that follows a link (one not the
    /// writer's own, such as the one that reads the folders changed since the last build) fails with "Too many open
    /// files", and every other open goes through (Tests/Tools/fail_first_open.c, NOTICEBOARD_FAIL_FOLLOWING_OPEN).
    static func failingFollowingOpen(_ nth: Int, of name: String) throws -> [String] {
        ["/usr/bin/env", "LD_PRELOAD=" + (try builtOpenFailer.get()), "NOTICEBOARD_FAIL_FOLLOWING_OPEN=" + name, "NOTICEBOARD_FAIL_FOLLOWING_OPEN_NTH=\(nth)"]
    }

    /// A `launcher` for `runCLI` under which every listing of the folder `name` with `opendir` (Foundation's
    /// `contentsOfDirectory`, a link to a folder followed) fails with "Too many open files" (NOTICEBOARD_FAIL_OPENDIR).
    static func failingEveryListing(of name: String) throws -> [String] {
        ["/usr/bin/env", "LD_PRELOAD=" + (try builtOpenFailer.get()), "NOTICEBOARD_FAIL_OPENDIR=" + name]
    }

    /// A `launcher` for `runCLI` under which `readdir` fails with "Input/output error" wherever it would return an
    /// entry named `name`, as a failing disk stops a listing part-way (NOTICEBOARD_FAIL_READDIR).
    static func failingReaddir(at name: String) throws -> [String] {
        ["/usr/bin/env", "LD_PRELOAD=" + (try builtOpenFailer.get()), "NOTICEBOARD_FAIL_READDIR=" + name]
    }

    /// Tests/Tools/fail_first_open.c built once per test run, with the clang that comes with Swift.
    private static let builtOpenFailer = Result { () throws -> String in
        let library = temporaryFolder() + "/fail_first_open.so"
        let result = try run("clang", ["-shared", "-fPIC", "-O2", "-o", library, repository + "/Tests/Tools/fail_first_open.c", "-ldl"])
        guard result.status == 0 else { throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: result.stderr]) }
        return library
    }

    /// The `noticeboard` executable that `make test` built before running the tests.
    static var executable: String {
        ProcessInfo.processInfo.environment["NOTICEBOARD_BIN"] ?? repository + "/.build/debug/noticeboard"
    }

    struct RunResult {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Starts the CLI without waiting for it; its standard error goes to the file `stderr`.
    static func startCLI(_ arguments: [String], in directory: String, stderr: String) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        _ = FileManager.default.createFile(atPath: stderr, contents: nil)
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: stderr))
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Waits up to `seconds` for `condition`, checking every 10 ms.
    static func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// Runs the CLI to its end. `launcher` is a command line to run it through, such as `setpriv …`.
    static func runCLI(_ arguments: [String], in directory: String, launcher: [String] = []) throws -> RunResult {
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            Issue.record("no noticeboard executable at \(executable); run the tests through `make test`")
            return RunResult(status: -1, stdout: "", stderr: "")
        }
        guard let program = launcher.first else { return try run(executable, arguments, in: directory) }
        return try run(program, Array(launcher.dropFirst()) + [executable] + arguments, in: directory)
    }

    /// Runs a program (a path, or a name looked up on PATH) and collects its output.
    static func run(_ program: String, _ arguments: [String], in directory: String = repository) throws -> RunResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.contains("/") ? program : "/usr/bin/env")
        if !program.contains("/") { process.arguments = [program] + arguments } else { process.arguments = arguments }
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return RunResult(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }
}
