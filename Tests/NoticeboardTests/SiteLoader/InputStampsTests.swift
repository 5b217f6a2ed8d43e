import Foundation
@testable import SiteLoader
import Support
import Testing

/// The inputs' stamps and digest, which tell a no-change rebuild that nothing changed. The digest is the
/// wrapping sum, over every entry, of the first 128 bits of the SHA-256 of "path<tab>stamp".
@Suite struct InputStampsTests {
    /// Each file's stamp is its type, size, modification time in nanoseconds and permissions, in decimal.
    @Test func aStampIsTypeSizeTimeAndPermissions() throws {
        let site = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(site) }
        let sizes = [0, 7, 1_000, 123_456]
        for (index, size) in sizes.enumerated() {
            TestSupport.write(String(repeating: "x", count: size), to: site + "/content/things/\(index).yaml")
            chmod(site + "/content/things/\(index).yaml", [0o644, 0o600, 0o755, 0o400][index])
        }
        let scanned = InputStamps.scan(SiteFiles(root: site), folders: ["content"])
        #expect(scanned.stamps.count == sizes.count)
        for path in scanned.stamps.keys {
            var info = stat()
            #expect(stat(site + "/" + path, &info) == 0)
            let nanoseconds = info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
            #expect(scanned.stamps[path] == "\(info.st_mode & S_IFMT) \(info.st_size) \(nanoseconds) \(info.st_mode & 0o777)")
        }
    }

    /// A file's or folder's stamp is held as its numbers, no wider than a string, and a stamp read back from
    /// its text (the build record's) is the stamp scanned: the same stamps, digest and changed paths. Any
    /// other text (a link's, an unreadable entry's, numbers not as a scan writes them) is kept as it is.
    @Test func stampsReadBackFromTheirTextAreTheStampsScanned() throws {
        #expect(MemoryLayout<InputStamp>.stride <= 24)
        let site = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(site) }
        TestSupport.write("name: A\n", to: site + "/content/things/a.yaml")
        TestSupport.write("", to: site + "/content/things/empty.yaml")
        chmod(site + "/content/things/empty.yaml", 0o600)
        // Bits the text leaves out (setgid, sticky) are no part of the stamp.
        TestSupport.write("name: S\n", to: site + "/content/things/setgid.yaml")
        chmod(site + "/content/things/setgid.yaml", 0o3755)
        var info = stat()
        #expect(stat(site + "/content/things/setgid.yaml", &info) == 0 && info.st_mode & 0o3000 == 0o3000)
        symlink("a.yaml", site + "/content/things/link.yaml")
        symlink("gone.yaml", site + "/content/things/dangling.yaml")
        let scanned = InputStamps.scan(SiteFiles(root: site), folders: ["content"])
        #expect(scanned.stamps.count == 5)
        let readBack = InputStamps(stamps: scanned.stamps)
        #expect(readBack == scanned && readBack.digest == scanned.digest && readBack.hasLinks)
        #expect(scanned.changedPaths(since: readBack).isEmpty && readBack.changedPaths(since: scanned).isEmpty)
        for text in scanned.stamps.values { #expect(InputStamp(text: text).description == text) }
        #expect(scanned.stamps["content/things/dangling.yaml"] == "link gone.yaml missing")
        for text in ["32768 010 5 420", "32768 10 5 1000", "-1 2 3 4", "32768 10  5 420", "link a b", "unreadable 13", "", "32768 -2 -1000 0"] {
            #expect(InputStamp(text: text).description == text)
        }
        #expect(InputStamp(text: "32768 10 5 420") != InputStamp(text: "32768 10 5 421"))
    }

    /// The digest worked out from `SHA256.hex` of each line, its first 16 bytes read as two little-endian words.
    func expectedDigest(_ stamps: [String: String]) -> String {
        var words: (UInt64, UInt64) = (0, 0)
        for (path, stamp) in stamps {
            let hex = Array(SHA256.hex(path + "\t" + stamp).utf8)
            let bytes = stride(from: 0, to: 32, by: 2).map { UInt8(String(decoding: hex[$0..<$0 + 2], as: UTF8.self), radix: 16)! }
            let word = { (start: Int) in (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[start + $1]) << (8 * $1) } }
            words = (words.0 &+ word(0), words.1 &+ word(8))
        }
        return [words.0, words.1].map { String(repeating: "0", count: 16 - String($0, radix: 16).count) + String($0, radix: 16) }.joined()
    }

    @Test func isTheSumOfEachLinesDigest() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var stamps: [String: String] = [:]
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                let path = "content/" + String((0..<Int.random(in: 0...70, using: &generator)).map { _ in "aé/-x7💡".randomElement()! })
                stamps[path] = "\(Int.random(in: 0...99_999)) \(Int.random(in: 0...Int.max)) 420"
            }
            #expect(InputStamps(stamps: stamps).digest.description == expectedDigest(stamps))
        }
    }

    @Test func doesNotDependOnOrderButOnEveryPathAndStamp() {
        let stamps = ["content/a.yaml": "32768 10 1700000000 420", "content/b.yaml": "32768 11 1700000000 420"]
        let digest = InputStamps(stamps: stamps).digest
        #expect(InputStamps(stamps: Dictionary(uniqueKeysWithValues: stamps.reversed())).digest == digest)
        #expect(InputStamps(stamps: ["content/a.yaml": "32768 10 1700000000 420", "content/b.yaml": "32768 12 1700000000 420"]).digest != digest)
        #expect(InputStamps(stamps: ["content/a.yaml": "32768 10 1700000000 420"]).digest != digest)
    }

    /// The paths changed since a last scan are those with another stamp or none before, whether the two
    /// list their entries in the same order (most entries compared in place) or not (looked up by path).
    @Test func changedPathsAreThoseWithAnotherStampOrNoneBefore() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            var last: [String: String] = [:]
            for index in 0..<Int.random(in: 0...12, using: &generator) { last["content/\(index).yaml"] = "32768 \(index) 1 420" }
            var now = last
            for path in last.keys where Int.random(in: 0..<4, using: &generator) == 0 { now[path] = "32768 9 2 420" }
            for path in last.keys where Int.random(in: 0..<6, using: &generator) == 0 { now[path] = nil }
            for index in 0..<Int.random(in: 0...2, using: &generator) { now["content/new-\(index).yaml"] = "32768 1 3 420" }
            let expected = Set(now.keys.filter { last[$0] != now[$0] })
            #expect(Set(InputStamps(stamps: now).changedPaths(since: InputStamps(stamps: last))) == expected)
        }
        // Two scans of one folder list it in the same order: an edit shows where it is, and a name that
        // comes shifts the rest.
        let site = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(site) }
        for index in 0..<20 { TestSupport.write("\(index)", to: site + "/content/things/\(index).yaml") }
        let first = InputStamps.scan(SiteFiles(root: site), folders: ["content"])
        TestSupport.write("changed", to: site + "/content/things/7.yaml")
        let second = InputStamps.scan(SiteFiles(root: site), folders: ["content"])
        #expect(second.changedPaths(since: first) == ["content/things/7.yaml"])
        TestSupport.write("new", to: site + "/content/things/10a.yaml")
        let third = InputStamps.scan(SiteFiles(root: site), folders: ["content"])
        #expect(third.changedPaths(since: second) == ["content/things/10a.yaml"])
    }

    /// Scanning again only the entries that changed (what serve's watcher does with the entries inotify
    /// names) gives what a whole scan gives, stamps and digest, whether a file was edited, added, removed or
    /// made unreadable, a folder came with files below it or went with its files, or a file became a folder.
    @Test func rescanningTheChangedEntriesGivesAWholeScan() {
        let site = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(site) }
        let content = site + "/content"
        for index in 0..<12 { TestSupport.write("\(index)", to: content + "/things/\(index).yaml") }
        TestSupport.write("a", to: content + "/gone/a.yaml")
        TestSupport.write("b", to: content + "/gone/deep/b.yaml")
        TestSupport.write("c", to: content + "/becomes")
        let files = SiteFiles(root: site)
        let first = InputStamps.scan(files, folders: ["content"])
        TestSupport.write("three, longer", to: content + "/things/3.yaml")
        TestSupport.write("new", to: content + "/things/new.yaml")
        unlink(content + "/things/5.yaml")
        chmod(content + "/things/7.yaml", 0o600)
        TestSupport.write("x", to: content + "/fresh/deep/x.yaml")
        TestSupport.removeTree(content + "/gone")
        unlink(content + "/becomes")
        TestSupport.write("inner", to: content + "/becomes/inner.yaml")
        let named: Set = [
            "content/things/3.yaml", "content/things/new.yaml", "content/things/5.yaml", "content/things/7.yaml", "content/fresh",
            "content/fresh/deep", "content/gone", "content/gone/a.yaml", "content/becomes", "content/things/never-there.yaml",
        ]
        let rescanned = first.rescanning(named, in: files)
        let whole = InputStamps.scan(files, folders: ["content"])
        #expect(rescanned.stamps == whole.stamps)
        #expect(rescanned.digest == whole.digest)
        #expect(rescanned.count == whole.count)
        #expect(Set(rescanned.changedPaths(since: first)) == Set(whole.changedPaths(since: first)))
        // Entries that did not change leave the stamps as they were.
        #expect(whole.rescanning(["content/things/1.yaml", "content/fresh"], in: files) == whole)
    }

    /// A folder of many entries (a kind's 200,000 listings) is looked up on every core, in runs, and so is a
    /// large folder within it, from a run: the scan still lists every entry with its own stamp, adds up to the
    /// digest of all of them, and finds an edit.
    @Test func aLargeFolderScannedInRunsGivesEveryEntryOnce() throws {
        let site = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(site) }
        let (count, innerCount) = (20_000, 9_000)
        for index in 0..<count { TestSupport.write("\(index)", to: site + "/content/things/\(index).yaml") }
        for index in 0..<innerCount { TestSupport.write("\(index)", to: site + "/content/things/folder/\(index).yaml") }
        let first = InputStamps.scan(SiteFiles(root: site), folders: ["content"])
        #expect(first.count == count + innerCount)
        let expectedPaths = (0..<count).map { "content/things/\($0).yaml" } + (0..<innerCount).map { "content/things/folder/\($0).yaml" }
        #expect(Set(first.stamps.keys) == Set(expectedPaths))
        var info = stat()
        #expect(stat(site + "/content/things/12345.yaml", &info) == 0)
        #expect(first.stamps["content/things/12345.yaml"]?.hasPrefix("\(S_IFREG) 5 \(info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec)") == true)
        #expect(first.digest == InputStamps(stamps: first.stamps).digest)
        TestSupport.write("changed", to: site + "/content/things/19999.yaml")
        let second = InputStamps.scan(SiteFiles(root: site), folders: ["content"])
        #expect(second.changedPaths(since: first) == ["content/things/19999.yaml"])
        #expect(second.digest != first.digest)
    }
}
