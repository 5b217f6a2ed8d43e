import Foundation
import Testing

/// A folder or file the build cannot read is an error at its path, never a smaller site. Root reads
/// anything whatever its mode, so as root the CLI runs as `nobody` (on a site everyone may write).
@Suite struct UnreadableInputTests {
    private static let launcher = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"] : []

    /// The example site, with every file and folder open to anyone, so only what a test closes is closed.
    private static func makeSite() -> String {
        let site = TestSupport.makeSite()
        chmod((site as NSString).deletingLastPathComponent, 0o755)
        for path in [site] + (FileManager.default.subpaths(atPath: site) ?? []).map({ site + "/" + $0 }) {
            var info = stat()
            guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFLNK else { continue }
            chmod(path, (info.st_mode & S_IFMT) == S_IFDIR ? 0o777 : 0o666)
        }
        return site
    }

    private static func build(_ site: String) throws -> TestSupport.RunResult {
        try TestSupport.runCLI(["build", "--quiet", "--now", "2026-11-23"], in: site, launcher: launcher)
    }

    /// Mode 000 can be neither listed nor entered; 0644 on a folder can be listed but not entered.
    @Test(arguments: [
        ("content/reviews", 0o000), ("content/reviews", 0o644), ("content/pages", 0o000), ("content/pages", 0o644),
        ("content/media", 0o000), ("content/media/rentals", 0o644), ("content/schemas", 0o000), ("content/schemas", 0o644),
        ("templates/assets", 0o000), ("templates/assets", 0o644), ("templates/partials", 0o000), ("templates/partials", 0o644),
        ("templates", 0o644), ("content", 0o000),
    ] as [(String, mode_t)])
    func anUnreadableFolderIsAnErrorAtItsPath(folder: String, mode: mode_t) throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        chmod(site + "/" + folder, mode)
        defer { chmod(site + "/" + folder, 0o777) }
        let result = try Self.build(site)
        #expect(result.status == 1)
        #expect(result.stderr == """
            \(folder):1:1: error: this folder cannot be read (Permission denied); the site would be built without it, so let the build read it or remove it
            1 error; nothing was written.

            """)
        #expect(!FileManager.default.fileExists(atPath: site + "/public"))
    }

    @Test(arguments: [
        "content/reviews/andreea-popescu-1.yaml", "content/pages/about.md", "content/schemas/reviews.yaml", "content/site.yaml",
        "content/media/rentals/kayak.jpg", "templates/assets/style.css", "templates/layout.mustache",
    ])
    func anUnreadableFileIsAnErrorAtItsPath(file: String) throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        #expect(FileManager.default.fileExists(atPath: site + "/" + file))
        chmod(site + "/" + file, 0o000)
        let result = try Self.build(site)
        #expect(result.status == 1)
        #expect(result.stderr == """
            \(file):1:1: error: this file cannot be read (Permission denied); the site would be built without it, so let the build read it or remove it
            1 error; nothing was written.

            """)
    }

    /// A folder whose listing fails part way (a disk's EIO) is an error at its path: `readdir`'s NULL was taken for
    /// the folder's end, and the build went on without the listings after it, exit 0.
    @Test func aFolderWhoseListingFailsPartWayIsAnErrorAtItsPath() throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        let result = try TestSupport.runCLI(
            ["build", "--quiet", "--now", "2026-11-23"], in: site, launcher: TestSupport.failingReaddir(at: "andreea-popescu-1.yaml"))
        #expect(result.status == 1)
        #expect(result.stderr == """
            content/reviews:1:1: error: this folder cannot be read (Input/output error); the site would be built without it, so let the build read it or remove it
            1 error; nothing was written.

            """)
        #expect(!FileManager.default.fileExists(atPath: site + "/public"))
    }

    /// A listing that fails part way is a change to the scan that tells whether anything changed: taken for the
    /// entries before the failure, the same as the last build's, it made the build find nothing changed and skip, a
    /// file added since (static/extra/CNAME) unpublished with exit 0.
    @Test func aListingThatFailsPartWayAfterABuildMakesTheNextOneFail() throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        try FileManager.default.createDirectory(atPath: site + "/static/extra", withIntermediateDirectories: true)
        let arguments = ["build", "--quiet", "--now", "2026-11-23"]
        #expect(try TestSupport.runCLI(arguments, in: site).status == 0)
        TestSupport.write("listings.example.org\n", to: site + "/static/extra/CNAME")
        let result = try TestSupport.runCLI(arguments, in: site, launcher: TestSupport.failingReaddir(at: "CNAME"))
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("static/extra:1:1: error: this folder cannot be read (Input/output error)"), "\(result.stderr)")
    }

    /// After a good build, closing a folder or a file is a change (as `serve`'s scan sees it too): the next
    /// build reads again and fails, rather than finding nothing changed; opening it again builds the same site.
    @Test func closingAnInputAfterABuildMakesTheNextOneFail() throws {
        let site = Self.makeSite()
        defer { TestSupport.removeTree(site) }
        #expect(try Self.build(site).status == 0)
        let first = TestSupport.tree(site + "/public")
        for (path, mode) in [("content/reviews/andreea-popescu-1.yaml", 0o000), ("content/reviews", 0o644), ("templates/assets", 0o000)] as [(String, mode_t)] {
            var info = stat()
            stat(site + "/" + path, &info)
            chmod(site + "/" + path, mode)
            let closed = try Self.build(site)
            #expect(closed.status == 1, "\(path)")
            #expect(closed.stderr.hasPrefix("\(path):1:1: error: this "), "\(closed.stderr)")
            chmod(site + "/" + path, info.st_mode & 0o7777)
            #expect(try Self.build(site).status == 0)
            #expect(TestSupport.tree(site + "/public") == first)
        }
    }
}
