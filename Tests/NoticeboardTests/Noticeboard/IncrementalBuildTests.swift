import Foundation
import Noticeboard
import SiteModel
import Testing

/// Rebuilds after edits must equal a clean build of the same input, byte for byte, while rewriting
/// only what changed.
@Suite struct IncrementalBuildTests {
    static let now = CalendarDate(year: 2026, month: 11, day: 23)!

    /// Builds into `public/` (or `output`), keeping the record it starts from for `expectSameAsCleanBuild`.
    func build(_ site: String, output: String? = nil) throws -> BuildReport {
        if output == nil { TestSupport.keepRecord(site) }
        return try Noticeboard.build(BuildOptions(root: site, output: output, now: Self.now))
    }

    /// Modification times of every output file, by path.
    func times(_ root: String) -> [String: Date] {
        var times: [String: Date] = [:]
        for path in TestSupport.tree(root).keys {
            times[path] = (try? FileManager.default.attributesOfItem(atPath: root + "/" + path)[.modificationDate]) as? Date
        }
        return times
    }

    @Test func editsAddsDeletesAndTemplateChangesMatchACleanBuild() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let first = try build(site)
        #expect(first.written == first.files)
        #expect(first.stages.stages.map(\.name) == [
            "scan inputs", "read last build's state", "load, parse, validate", "enrich", "index", "encode and date listings", "render",
            "finish writing output",
            "save state",
        ])
        #expect(first.stages.stages.reduce(0) { $0 + $1.seconds } <= first.seconds)
        // Each stage says what the process held as it ended, and the most it had held by then, which never falls
        // by more than Linux's count of resident pages may lag (each thread counts its own in batches).
        let peaks = first.stages.stages.compactMap(\.peakMiB)
        #expect(peaks.count == first.stages.stages.count && zip(peaks, peaks.dropFirst()).allSatisfy { $0 <= $1 + 2 }, "\(peaks)")
        #expect(first.stages.stages.allSatisfy { stage in stage.residentMiB.map { $0 > 0 && $0 <= stage.peakMiB! } ?? false })

        // Nothing changed: nothing is written and no file's time moves; the build stops once it has read its state.
        let before = times(site + "/public")
        Thread.sleep(forTimeInterval: 0.02)
        let again = try build(site)
        #expect(again.written == 0 && again.files == first.files && again.listings == first.listings)
        #expect(again.stages.stages.map(\.name) == ["scan inputs", "read last build's state"])
        #expect(times(site + "/public") == before)

        // Edit one listing: its page and the lists it is on change; an unrelated page keeps its time.
        let joao = site + "/content/cleaners/joao-ferreira.yaml"
        TestSupport.write(TestSupport.read(joao).replacingOccurrences(of: "hourly_rate: 18.00", with: "hourly_rate: 18.75"), to: joao)
        let edited = try build(site)
        // The sync documents count: the API root, the head, the tree and the buckets that changed, a change list.
        #expect(edited.written > 0 && edited.written < 40, "wrote \(edited.written) files")
        let afterEdit = times(site + "/public")
        #expect(afterEdit["rentals/kayak/index.html"] == before["rentals/kayak/index.html"])
        #expect(afterEdit["cleaners/joao-ferreira/index.html"] != before["cleaners/joao-ferreira/index.html"])
        #expect(TestSupport.read(site + "/public/cleaners/joao-ferreira/index.html").contains("€18.75"))
        try TestSupport.expectSameAsCleanBuild(site, "edit")

        // Add a listing, then delete another: pages appear and disappear, and the lists follow.
        TestSupport.write("""
            title: Stand mixer
            photos: [rentals/kayak.jpg]
            category: Party
            price_per_day: 9.00
            condition: Good
            city: Cork
            owner: mary-kelly
            listed: 2026-11-21
            description: Bakes for a crowd.
            """, to: site + "/content/rentals/stand-mixer.yaml")
        _ = try build(site)
        #expect(FileManager.default.fileExists(atPath: site + "/public/rentals/stand-mixer/index.html"))
        #expect(TestSupport.read(site + "/public/rentals/index.html").contains("/catalogue/rentals/stand-mixer/"))
        try TestSupport.expectSameAsCleanBuild(site, "add")

        try FileManager.default.removeItem(atPath: site + "/content/rentals/kayak.yaml")
        _ = try build(site)
        #expect(!FileManager.default.fileExists(atPath: site + "/public/rentals/kayak/index.html"))
        #expect(!FileManager.default.fileExists(atPath: site + "/public/api/rentals/kayak.json"))
        #expect(!TestSupport.read(site + "/public/rentals/index.html").contains("/catalogue/rentals/kayak/"))
        try TestSupport.expectSameAsCleanBuild(site, "delete")

        // A template change re-renders every page that uses it.
        let layout = site + "/templates/layout.mustache"
        TestSupport.write(TestSupport.read(layout).replacingOccurrences(of: "<footer class=\"site-footer\">", with: "<footer class=\"site-footer\" data-edited>"), to: layout)
        let restyled = try build(site)
        #expect(restyled.written >= restyled.pages)
        #expect(TestSupport.read(site + "/public/rentals/stand-mixer/index.html").contains("data-edited"))
        try TestSupport.expectSameAsCleanBuild(site, "template")

        // A configuration change (the base URL) changes every page and document.
        let config = site + "/content/site.yaml"
        TestSupport.write(TestSupport.read(config).replacingOccurrences(of: "https://example.org/catalogue/", with: "https://example.net/"), to: config)
        _ = try build(site)
        #expect(TestSupport.read(site + "/public/api/cleaners.json").contains("https://example.net/cleaners/"))
        try TestSupport.expectSameAsCleanBuild(site, "config")
    }

    /// Images take part in incremental builds: unchanged ones are never decoded again, a changed one gets new
    /// variants and re-renders the pages and documents that show it, and nothing else.
    @Test func imagesAreProcessedOnlyWhenTheyChange() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        try FileManager.default.removeItem(atPath: site + "/.noticeboard-cache")
        let cold = try build(site)
        #expect(cold.imagesProcessed == 31)  // 5 photos and 26 SVGs, each checked

        // A listing edit re-renders pages, and takes every image from the cache.
        let kayak = site + "/content/rentals/kayak.yaml"
        TestSupport.write(TestSupport.read(kayak).replacingOccurrences(of: "price_per_day: 45.00", with: "price_per_day: 40.00"), to: kayak)
        let edited = try build(site)
        #expect(edited.imagesProcessed == 0 && edited.written > 0)
        let before = times(site + "/public")
        let oldVariants = Set(before.keys.filter { $0.hasPrefix("media/rentals/kayak-") && !$0.hasSuffix(".svg") })
        #expect(oldVariants.count == 6)

        // A new photo: one image processed, new variant URLs, the old variants gone; its listing's page and
        // JSON change, a page that does not show it keeps its time.
        Thread.sleep(forTimeInterval: 0.02)
        try FileManager.default.removeItem(atPath: site + "/content/media/rentals/kayak.jpg")
        try FileManager.default.copyItem(atPath: TestSupport.fixtures + "/photos/content/media/things/lamp.jpg", toPath: site + "/content/media/rentals/kayak.jpg")
        let changed = try build(site)
        #expect(changed.imagesProcessed == 1)
        let after = times(site + "/public")
        let newVariants = Set(after.keys.filter { $0.hasPrefix("media/rentals/kayak-") && !$0.hasSuffix(".svg") })
        #expect(newVariants.count == 6 && newVariants.isDisjoint(with: oldVariants))
        #expect(after["rentals/kayak/index.html"] != before["rentals/kayak/index.html"])
        #expect(after["api/rentals/kayak.json"] != before["api/rentals/kayak.json"])
        #expect(after["cleaners/aoife-byrne/index.html"] == before["cleaners/aoife-byrne/index.html"])
        for path in before.keys where path.hasPrefix("media/cleaners/aoife-byrne-") { #expect(after[path] == before[path], "\(path)") }
        try TestSupport.expectSameAsCleanBuild(site, "image")

        // Without the cache, every image is made again, to the same bytes. (The API's documents start again
        // from build 1: the listings' dates and the sync history were in the build record.)
        let published = TestSupport.tree(site + "/public").filter { !$0.key.hasPrefix("api/") }
        try FileManager.default.removeItem(atPath: site + "/.noticeboard-cache")
        let again = try build(site)
        #expect(again.imagesProcessed == 31)
        #expect(TestSupport.tree(site + "/public").filter { !$0.key.hasPrefix("api/") } == published)
    }

    @Test func theCacheKeepsWarningsAndADamagedCacheMeansACleanBuild() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let schema = site + "/content/schemas/rentals.yaml"
        TestSupport.write(TestSupport.read(schema).replacingOccurrences(
            of: "city: {type: string, required: true}", with: "city: {type: string, required: true, default: Cork}"), to: schema)
        let first = try build(site)
        #expect(first.warnings.count == 1)
        let again = try build(site)
        #expect(again.written == 0)
        #expect(again.warnings.map(\.description) == first.warnings.map(\.description))

        let cache = site + "/.noticeboard-cache"
        let stateFile = try #require(FileManager.default.contentsOfDirectory(atPath: cache).first { $0.hasSuffix(".state") })
        let state = TestSupport.read(cache + "/" + stateFile)
        for damaged in [String(state.prefix(state.count / 2)) + "\noutput\tbroken", "nonsense\n", ""] {
            TestSupport.write(damaged, to: cache + "/" + stateFile)
            let rebuilt = try build(site)
            // Not trusted: everything is read and rendered again; every file comes out with the bytes it had, so is kept.
            #expect(rebuilt.stages.stages.contains { $0.name == "render" }, "a damaged cache is not trusted")
            #expect(rebuilt.written == 0 && rebuilt.files == first.files)
            #expect(rebuilt.warnings.map(\.description) == first.warnings.map(\.description))
        }
    }

    /// A record a stopped process left under its temporary name (`<state>.tmp-<pid>`) is removed by the next
    /// build into that output, which holds the output's lock; other files in the cache are left as they are.
    @Test func recordsLeftHalfWrittenAreRemoved() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        let cache = site + "/.noticeboard-cache"
        let stateFile = try #require(FileManager.default.contentsOfDirectory(atPath: cache).first { $0.hasSuffix(".state") })
        let leftOver = [stateFile + ".tmp-4242", stateFile + ".tmp-77"], kept = [stateFile + ".tmp-notes", "other.state.tmp-4242"]
        for name in leftOver + kept { TestSupport.write("half a record", to: cache + "/" + name) }
        #expect(try build(site).written == 0)
        let names = Set(try FileManager.default.contentsOfDirectory(atPath: cache))
        #expect(names.isDisjoint(with: leftOver) && names.isSuperset(of: kept + [stateFile]))
    }

    /// From the third build on, the staging folder (holding the site before last) is brought up to date and
    /// swapped in, instead of a new tree being staged; a marker it lacks (as a write cut short leaves it) means
    /// staging anew.
    @Test func laterBuildsReuseTheStagingFolder() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        func inode(_ path: String) -> ino_t {
            var info = stat()
            return stat(site + "/" + path, &info) == 0 ? info.st_ino : 0
        }
        let joao = site + "/content/cleaners/joao-ferreira.yaml"
        func edit(_ rate: String) {
            TestSupport.write(TestSupport.read(joao).replacing(/hourly_rate: [0-9.]+/, with: "hourly_rate: \(rate)"), to: joao)
        }
        _ = try build(site)
        #expect(!FileManager.default.fileExists(atPath: site + "/.public.staging"), "nothing to keep after a first build")
        edit("18.25")
        _ = try build(site)
        let previousSite = TestSupport.tree(site + "/.public.staging")
        let staging = inode(".public.staging")
        edit("18.50")
        let reused = try build(site)
        #expect(inode("public") == staging, "the staging folder was brought up to date and swapped in")
        #expect(reused.written > 0 && reused.written < 40)
        #expect(TestSupport.read(site + "/public/cleaners/joao-ferreira/index.html").contains("€18.50"))
        #expect(TestSupport.tree(site + "/.public.staging") != previousSite, "it now holds the site before")
        try TestSupport.expectSameAsCleanBuild(site, "reused staging folder")

        // Without the marker the staging folder is not trusted: it is staged anew.
        let marker = try FileManager.default.contentsOfDirectory(atPath: site + "/.noticeboard-cache").first { $0.hasSuffix(".staged") }
        #expect(marker != nil)
        try FileManager.default.removeItem(atPath: site + "/.noticeboard-cache/" + marker!)
        // A page the edit does not touch: trusting the folder would publish this.
        TestSupport.write("stale", to: site + "/.public.staging/rentals/kayak/index.html")
        edit("18.75")
        _ = try build(site)
        try TestSupport.expectSameAsCleanBuild(site, "staged anew")
    }

    /// Another build date renders everything again (the state's settings differ), but pages whose bytes come
    /// out the same keep their files and times: a daily rebuild sends a deploy only what changed.
    @Test func aFullRebuildKeepsFilesWhoseBytesDidNotChange() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let first = try build(site)
        let before = times(site + "/public"), firstDay = TestSupport.tree(site + "/public")
        Thread.sleep(forTimeInterval: 0.02)
        let nextDay = try Noticeboard.build(BuildOptions(root: site, now: CalendarDate(year: 2026, month: 11, day: 24)!))
        #expect(nextDay.written > 0 && nextDay.written < first.files / 2, "wrote \(nextDay.written) of \(nextDay.files)")
        let after = times(site + "/public")
        #expect(after["rentals/kayak/index.html"] == before["rentals/kayak/index.html"])
        #expect(after["index.html"] != before["index.html"], "the home page shows the day's quote")
        // The record still described the output folder, so the replaced site stays for the next build to reuse.
        #expect(TestSupport.tree(site + "/.public.staging") == firstDay)
    }

    @Test func aRemovedOutputFileIsWrittenAgain() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        try FileManager.default.removeItem(atPath: site + "/public/cleaners/aoife-byrne/index.html")
        let report = try build(site)
        #expect(report.written > 0)
        #expect(FileManager.default.fileExists(atPath: site + "/public/cleaners/aoife-byrne/index.html"))
        try TestSupport.expectSameAsCleanBuild(site, "restore")
    }

    @Test func aFailedRebuildKeepsTheLastGoodSiteAndItsState() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        let good = TestSupport.tree(site + "/public")
        TestSupport.write("name: [broken\n", to: site + "/content/cleaners/broken.yaml")
        #expect(throws: BuildFailure.self) { try build(site) }
        #expect(TestSupport.tree(site + "/public") == good)
        try FileManager.default.removeItem(atPath: site + "/content/cleaners/broken.yaml")
        #expect(try build(site).written == 0)
    }

    /// A build killed after it swapped its output in but before it saved its state leaves the last build's
    /// state beside a newer output. The next build must not take that output's files for the ones the state
    /// describes: here an edit and its undoing keep every file's size, so sizes alone cannot tell.
    @Test func aStateLeftBehindByAKilledBuildIsNotTrusted() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let joao = site + "/content/cleaners/joao-ferreira.yaml"
        let original = TestSupport.read(joao)
        _ = try build(site)
        let cache = site + "/.noticeboard-cache/"
        let stateFile = try #require(try FileManager.default.contentsOfDirectory(atPath: cache).first { $0.hasSuffix(".state") })
        let oldState = try Data(contentsOf: URL(fileURLWithPath: cache + stateFile))

        TestSupport.write(original.replacingOccurrences(of: "hourly_rate: 18.00", with: "hourly_rate: 18.50"), to: joao)
        _ = try build(site)
        #expect(TestSupport.read(site + "/public/cleaners/joao-ferreira/index.html").contains("€18.50"))
        try oldState.write(to: URL(fileURLWithPath: cache + stateFile))  // as if that build had been killed before saving it

        TestSupport.write(original, to: joao)
        _ = try build(site)
        #expect(TestSupport.read(site + "/public/cleaners/joao-ferreira/index.html").contains("€18.00"))
        try TestSupport.expectSameAsCleanBuild(site, "after a state left behind")
    }

    /// Named pipes and symbolic links that lead nowhere or outside are refused by a build that reads the site;
    /// added after a good build, they must not pass for "nothing changed".
    @Test func aBadEntryAddedAfterAGoodBuildIsReported() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try build(site)
        let entries: [(String, (String) -> Void)] = [
            ("content/cleaners/pipe.yaml", { _ = mkfifo($0, 0o644) }),
            ("content/cleaners/gone.yaml", { _ = symlink("nowhere.yaml", $0) }),
            ("content/cleaners/up", { _ = symlink("../../..", $0) }),
        ]
        for (entry, make) in entries {
            make(site + "/" + entry)
            let failure = #expect(throws: BuildFailure.self, "\(entry) was not reported") { try build(site) }
            #expect(failure?.diagnostics.map(\.location?.file) == [entry])
            try FileManager.default.removeItem(atPath: site + "/" + entry)
            #expect(try build(site).written == 0, "removing \(entry) leaves the last good site as it was")
        }
    }
}
