import Foundation
@testable import Noticeboard
import OutputWriter
import SiteModel
import Testing

/// `serve`'s builds: an edit to the content of listing files is built in place from what the last build
/// left in memory, and every build, in place or not, must equal a clean build of the same input.
@Suite struct LiveSiteTests {
    static let now = CalendarDate(year: 2026, month: 11, day: 23)!
    static let inPlaceStages = [
        "read and enrich the edited listings", "index them in place", "encode and date listings", "render what shows them", "write output",
    ]

    /// A build, keeping the record it starts from for `expectSameAsCleanBuild`; its report's totals are checked
    /// against the output.
    func build(_ live: LiveSite, _ site: String) throws -> BuildReport {
        live.waitUntilIdle()
        TestSupport.keepRecord(site)
        let report = try live.build()
        // Its totals, which an edit in place updates from the last build's, are the output's.
        let output = TestSupport.tree(site + "/public")
        let pages = output.keys.count { $0.hasSuffix(".html") }, bytes = output.values.reduce(0) { $0 + $1.count }
        #expect(report.files == output.count && report.pages == pages && report.bytes == bytes, "\(report.files) \(report.pages) \(report.bytes)")
        return report
    }

    /// A live site started on an output a build left: it finds it up to date and writes nothing.
    func liveSiteOnItsOutput(_ site: String) throws -> LiveSite {
        let live = LiveSite(options: BuildOptions(root: site, now: Self.now))
        #expect(try build(live, site).written == 0)
        return live
    }

    /// Replaces `old` with `new` in the listing file at `file`, builds, and expects what a clean build writes;
    /// with `inPlace`, expects the build to have been an edit in place.
    func expectEditMatchesACleanBuild(
        _ live: LiveSite, _ site: String, _ file: String, _ old: String, _ new: String, inPlace: Bool = false, _ label: String,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) throws {
        edit(file, old, new)
        let report = try build(live, site)
        if inPlace { #expect(report.stages.stages.map(\.name) == Self.inPlaceStages, "\(label)", sourceLocation: sourceLocation) }
        try TestSupport.expectSameAsCleanBuild(site, label)
    }

    func modified(_ path: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date
    }

    func edit(_ file: String, _ old: String, _ new: String) {
        let text = TestSupport.read(file)
        precondition(text.contains(old), "\(file) has no '\(old)'")
        TestSupport.write(text.replacingOccurrences(of: old, with: new), to: file)
    }

    @Test func editsBuiltInPlaceMatchACleanBuild() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let aoife = site + "/content/cleaners/aoife-byrne.yaml", kayak = site + "/public/rentals/kayak/index.html"
        do {
            let live = LiveSite(options: BuildOptions(root: site, now: Self.now))
            let first = try build(live, site)
            #expect(first.written == first.files)

            // The first build had no site to keep, so no staging folder: one is made after it in the background,
            // with a link to each output file, and the first edit is built in place too, writing what it changes.
            edit(aoife, "over eight years", "over nine years")
            let firstEdit = try build(live, site)
            #expect(firstEdit.stages.stages.map(\.name) == Self.inPlaceStages)
            #expect(firstEdit.written > 2 && firstEdit.written < 15, "wrote \(firstEdit.written) files")
            try TestSupport.expectSameAsCleanBuild(site, "first edit")

            // From then on a bio edit is built in place: its page, its JSON, the lists that show it, the feeds,
            // the search index and the manifest; nothing else is written.
            let kayakTime = modified(kayak)
            edit(aoife, "over nine years", "over ten years")
            let inPlace = try build(live, site)
            #expect(inPlace.stages.stages.map(\.name) == Self.inPlaceStages)
            #expect(inPlace.written > 2 && inPlace.written < 15, "wrote \(inPlace.written) files")
            // Two builds since the first, each with its change list for apps that sync.
            #expect(inPlace.files == first.files + 2 && inPlace.listings == first.listings)
            #expect(TestSupport.read(site + "/public/cleaners/aoife-byrne/index.html").contains("over ten years"))
            #expect(modified(kayak) == kayakTime)
            try TestSupport.expectSameAsCleanBuild(site, "bio edit in place")

            // Two listings at once; then a private field, which changes no file at all.
            edit(aoife, "Oven cleaning", "Oven and hob cleaning")
            try expectEditMatchesACleanBuild(live, site, site + "/content/cleaners/declan-murphy.yaml", "bio: |\n", "bio: |\n  Hello.\n\n", inPlace: true, "two listings in place")
            edit(aoife, "+353 87 555 0101", "+353 87 555 0102")
            let unseen = try build(live, site)
            #expect(unseen.written == 0 && unseen.stages.stages.map(\.name) == Array(Self.inPlaceStages.prefix(5)))

            // Bad input fails as any build does, naming the line, and leaves the last good site.
            edit(aoife, "hourly_rate: 19.50", "hourly_rate: lots")
            let before = TestSupport.tree(site + "/public")
            #expect {
                try build(live, site)
            } throws: { error in
                "\(error)".contains("content/cleaners/aoife-byrne.yaml:3:")
            }
            #expect(TestSupport.tree(site + "/public") == before)
            edit(aoife, "hourly_rate: lots", "hourly_rate: 19.75")
            #expect(try build(live, site).stages.stages.map(\.name) == Self.inPlaceStages)
            #expect(TestSupport.read(site + "/public/cleaners/aoife-byrne/index.html").contains("€19.75"))
            try TestSupport.expectSameAsCleanBuild(site, "fixed after an error")

            // What moves a listing or changes other pages is an ordinary build: a facet value, a title, a review
            // (which a cleaner's rating reads), a new file.
            for (file, old, new) in [
                (aoife, "county: Cork", "county: Kerry"),
                (aoife, "name: Aoife Byrne", "name: Aoife Byrne-Walsh"),
                (site + "/content/reviews/aoife-1.yaml", "stars: 5", "stars: 3"),
            ] where FileManager.default.fileExists(atPath: file) {
                edit(file, old, new)
                let report = try build(live, site)
                #expect(!report.stages.stages.map(\.name).contains(Self.inPlaceStages[0]), "\(old) → \(new)")
                try TestSupport.expectSameAsCleanBuild(site, "\(old) → \(new)")
            }
            edit(aoife, "over ten years", "over eleven years")
            let again = try build(live, site)
            #expect(again.stages.stages.map(\.name) == Self.inPlaceStages, "in place again after ordinary builds")
            #expect(again.bytes == TestSupport.tree(site + "/public").values.reduce(0) { $0 + $1.count })
            try TestSupport.expectSameAsCleanBuild(site, "in place after ordinary builds")

            // A listing file that becomes a link out of content/ is refused, as by any build (reading it refuses it).
            let outside = site + "/outside.yaml"
            TestSupport.write(TestSupport.read(aoife), to: outside)
            try FileManager.default.removeItem(atPath: aoife)
            try FileManager.default.createSymbolicLink(atPath: aoife, withDestinationPath: outside)
            #expect(throws: BuildFailure.self) { try build(live, site) }
            try FileManager.default.removeItem(atPath: aoife)
            TestSupport.write(TestSupport.read(outside), to: aoife)
            _ = try build(live, site)
            try TestSupport.expectSameAsCleanBuild(site, "after a link was refused")
        }
        // The state the in-place builds saved describes the output: a command-line build finds nothing to do.
        let after = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
        #expect(after.written == 0 && after.stages.stages.map(\.name) == ["scan inputs", "read last build's state"])
    }

    /// After a build that was not in place, the staging folder is levelled with the output in the background:
    /// it holds the output's own files (hard links), so the next edit writes only what it changes; and its record
    /// is saved, so a server started again over the site finds it unchanged and builds its first edit in place.
    @Test func theStagingFolderIsLevelledAfterABuildThatWasNotInPlace() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
        edit(site + "/templates/layout.mustache", "</body>", "<!-- changed -->\n</body>")
        do {
            let live = LiveSite(options: BuildOptions(root: site, now: Self.now))
            let everyPage = try build(live, site)
            #expect(everyPage.written > 40 && !everyPage.stages.stages.map(\.name).contains(Self.inPlaceStages[0]))
            live.waitUntilIdle()
            let output = TestSupport.tree(site + "/public").keys, staging = site + "/.public.staging"
            #expect(Set(TestSupport.tree(staging).keys) == Set(output))
            let unlinked = output.filter { TestSupport.inode(site + "/public/" + $0) != TestSupport.inode(staging + "/" + $0) }
            #expect(unlinked.isEmpty, "not links to the output's files: \(unlinked.sorted().prefix(5))")
        }
        let restarted = try liveSiteOnItsOutput(site)
        // The site is read again in the background: an edit saved before that is done is an ordinary build.
        restarted.waitUntilIdle()
        try expectEditMatchesACleanBuild(restarted, site, site + "/content/cleaners/aoife-byrne.yaml", "over eight years", "over nine years", inPlace: true, "first edit after a restart")
    }

    /// A start that finds the output up to date reads nothing: the site is read in the background, and what the
    /// first edit in place starts from (the search corpus, where the documents' items lie, the sync tree, the
    /// manifest's layout) is made from the catalogue and the record. That edit equals a clean build.
    @Test func aStartThatFindsTheOutputUpToDatePreparesTheFirstEditInTheBackground() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
        let live = LiveSite(options: BuildOptions(root: site, now: Self.now))
        let start = try build(live, site)
        #expect(start.written == 0 && start.stages.stages.map(\.name) == ["scan inputs", "read last build's state"])
        live.waitUntilIdle()
        #expect(live.keepsARender)
        #expect(live.filesInMemory.isSuperset(of: ["api/cleaners.json", "api/cleaners.csv"]))
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        for (old, new) in [("over eight years", "over nine years"), ("over nine years", "over ten years")] {
            edit(aoife, old, new)
            let report = try build(live, site)
            #expect(report.stages.stages.map(\.name) == Self.inPlaceStages)
            #expect(report.written > 2 && report.written < 15, "wrote \(report.written) files")
            try TestSupport.expectSameAsCleanBuild(site, "\(old) → \(new) after a start that rendered nothing")
        }
    }

    /// After a whole build, what its first edit in place splices is made ready in the background: the
    /// documents with an item per listing, read back from the output, and the manifest, made to know where
    /// its entries lie. The first edit (of two kinds) splices from those buffers, which then become its spares;
    /// an edit lets go of the other kinds' documents, and a later edit of such a kind reads them back. Each
    /// equals a clean build.
    @Test func aWholeBuildPreparesTheFirstEditInTheBackground() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let live = LiveSite(options: BuildOptions(root: site, now: Self.now))
        #expect(try build(live, site).stages.stages.map(\.name).contains("render"))
        live.waitUntilIdle()
        let cleaners = ["api/cleaners.json", "api/cleaners.csv"], owners = ["api/owners.json", "api/owners.csv"]
        #expect(live.filesInMemory.isSuperset(of: cleaners + owners + ["api/rentals.json", "api/manifest.json"]))
        let prepared = live.addressesInMemory.written
        let aoife = site + "/content/cleaners/aoife-byrne.yaml", aisling = site + "/content/owners/aisling-ryan.yaml"
        edit(aoife, "over eight years", "over nine years")
        try expectEditMatchesACleanBuild(live, site, aisling, "Keen hillwalker", "Keen hill walker", inPlace: true, "first edit after a whole build, of a cleaner and an owner")
        live.waitUntilIdle()
        for path in cleaners + owners { #expect(live.addressesInMemory.spare[path] == prepared[path], "\(path): not the buffer read back") }
        try expectEditMatchesACleanBuild(live, site, aoife, "over nine years", "over ten years", inPlace: true, "a cleaner alone")
        #expect(!live.filesInMemory.contains("api/owners.json"))
        try expectEditMatchesACleanBuild(live, site, aisling, "Keen hill walker", "Keen walker", inPlace: true, "an owner, whose documents were let go")
    }

    /// An edit that fails (bad input) leaves the last good build, and the bytes it was given for the next edit
    /// to splice from, rather than to be read back again.
    @Test func aFailedEditKeepsTheBytesTheNextEditSplices() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let live = LiveSite(options: BuildOptions(root: site, now: Self.now))
        _ = try build(live, site)
        live.waitUntilIdle()
        let aoife = site + "/content/cleaners/aoife-byrne.yaml", documents: Set = ["api/cleaners.json", "api/cleaners.csv", "api/manifest.json"]
        let prepared = live.addressesInMemory.written
        edit(aoife, "hourly_rate: 19.50", "hourly_rate: lots")
        #expect(throws: BuildFailure.self) { try build(live, site) }
        #expect(documents.allSatisfy { live.addressesInMemory.written[$0] == prepared[$0] })
        try expectEditMatchesACleanBuild(live, site, aoife, "hourly_rate: lots", "hourly_rate: 20.50", inPlace: true, "an edit after one that failed")
    }

    /// The documents a whole build's first edit splices are read back only while they are those its record
    /// holds: one changed since, even to bytes of the same length, leaves nothing prepared.
    @Test func aFirstEditIsNotPreparedFromADocumentChangedSinceTheBuild() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        guard case .built(let built)? = try Noticeboard.build(BuildOptions(root: site, now: Self.now), waiting: {}, keeping: true).kept else {
            Issue.record("the build kept no site")
            return
        }
        let output = site + "/public", document = output + "/api/cleaners.json", manifest = output + "/api/manifest.json"
        let primed = try #require(Noticeboard.primedFirstEdit(for: built, outputPath: output))
        #expect(primed.documents["api/cleaners.json"] == Array(TestSupport.read(document).utf8))
        #expect(primed.documents["api/manifest.json"] == Array(TestSupport.read(manifest).utf8))
        #expect(TestSupport.read(document).contains("Declan Murphy"))
        TestSupport.write(TestSupport.read(document).replacingOccurrences(of: "Declan Murphy", with: "Declan Murphi"), to: document)
        #expect(Noticeboard.primedFirstEdit(for: built, outputPath: output) == nil)
    }

    /// Through `serve`: a document changed after a whole build, before the background reads it back, leaves
    /// nothing prepared. The first edit would replace it in the staging folder, which shares it with the output:
    /// it refuses to, naming it, and keeps that folder aside with the changed bytes rather than remove them, and
    /// the edit after makes the output a clean build's.
    @Test func anEditKeepsADocumentChangedInTheOutputAside() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let live = LiveSite(options: BuildOptions(root: site, now: Self.now))
        let document = site + "/public/api/cleaners.json"
        live.beforePreparing = {
            TestSupport.write(TestSupport.read(document).replacingOccurrences(of: "Declan Murphy", with: "Declan Murphi"), to: document)
        }
        #expect(try build(live, site).stages.stages.map(\.name).contains("render"))
        live.waitUntilIdle()
        #expect(TestSupport.read(document).contains("Declan Murphi"))
        #expect(live.keepsARender && !live.filesInMemory.contains("api/cleaners.json"))
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        edit(aoife, "over eight years", "over nine years")
        live.waitUntilIdle()
        do {
            _ = try live.build()
            Issue.record("the edit replaced a changed document")
        } catch {
            #expect("\(error)".contains("/.public.staging/api/cleaners.json was changed since a build wrote it"), "\(error)")
        }
        let kept = try FileManager.default.contentsOfDirectory(atPath: site).filter { $0.hasPrefix(".public.kept-") }
        #expect(kept.count == 1 && kept.allSatisfy { TestSupport.read(site + "/" + $0 + "/api/cleaners.json").contains("Declan Murphi") })
        // The write forgot its record, so the next build is a whole one, after which nothing changes the output.
        live.beforePreparing = {}
        try expectEditMatchesACleanBuild(live, site, aoife, "over nine years", "over ten years", "the edit after")
    }

    /// Nothing is prepared after another build wrote the output, which the manifest's stamp tells before
    /// anything is read or made: the next build is a whole one. Here that build wrote the same bytes, which
    /// the record's digests would have taken for the ones it holds. So for a whole build, whose documents
    /// would be read back, as for a start on an up-to-date output, whose render would be made.
    @Test func nothingIsPreparedAfterAnotherBuildWroteTheOutput() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let options = BuildOptions(root: site, now: Self.now)
        _ = try Noticeboard.build(options)
        // Not up to date: a whole build, which leaves the first output in the staging folder.
        edit(site + "/templates/layout.mustache", "site-footer", "site-fouter")
        guard case .built(let whole)? = try Noticeboard.build(options, waiting: {}, keeping: true).kept,
            case .upToDate(let upToDate)? = try Noticeboard.build(options, waiting: {}, keeping: true).kept
        else {
            Issue.record("the builds kept no site, or did not find the output up to date")
            return
        }
        let started = try #require(try upToDate.read())
        let output = site + "/public", manifest = output + "/api/manifest.json"
        let stamp = FileStamp(of: manifest)
        // Bools, made before the expectations: one on the value would print the whole site it made.
        func primed() -> (whole: Bool, started: Bool) {
            (Noticeboard.primed(for: whole, outputPath: output, manifestStamp: stamp) != nil,
             Noticeboard.primed(for: started, outputPath: output, manifestStamp: stamp) != nil)
        }
        let before = primed()
        #expect(before.whole && before.started)
        // A build swaps in a new folder, so its manifest is a new file.
        TestSupport.write(TestSupport.read(manifest), to: manifest + ".new")
        #expect(rename(manifest + ".new", manifest) == 0)
        let after = primed()
        #expect(!after.whole, "a whole build's documents read back")
        #expect(!after.started, "a start's render made")
    }

    /// A site found up to date is read later, while its output is served. A listing changed before that read
    /// is read with its change, and the next build, comparing it with what was read, would not see it move
    /// in its kind's order: such a read keeps nothing, and the next build is a whole one. One changed after
    /// it was read is kept: the next build compares the change with what the output shows.
    @Test func aSiteReadWithAChangeIsNotKept() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let options = BuildOptions(root: site, now: Self.now)
        _ = try Noticeboard.build(options)
        guard case .upToDate(let upToDate)? = try Noticeboard.build(options, waiting: {}, keeping: true).kept else {
            Issue.record("the second build did not find the output up to date")
            return
        }
        let readBefore = try #require(try upToDate.read())
        edit(site + "/content/cleaners/aoife-byrne.yaml", "hourly_rate: 19.50", "hourly_rate: 99.50")
        let readBeforeShowsTheOutput = upToDate.showsTheOutput(readBefore)
        #expect(readBeforeShowsTheOutput)
        #expect(try upToDate.read() == nil)
    }

    /// An edit saved as soon as a start that found the output up to date returns lands while the site is read
    /// in the background; moving the listing to another county's pages, it must leave no stale page behind,
    /// whether the read saw it or not.
    @Test func anEditSavedWhileTheSiteIsReadAgainMatchesACleanBuild() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
        let live = try liveSiteOnItsOutput(site)
        try expectEditMatchesACleanBuild(live, site, site + "/content/cleaners/aoife-byrne.yaml", "county: Cork", "county: Kerry", "a county changed while the site was read again")
    }

    /// What a start prepares is kept only when it makes each file as the record holds it. A record whose
    /// digest of a document differs still finds the output intact (that check compares sizes, and the
    /// manifest's digest); nothing prepared is kept, and the first edit makes the documents anew, as a clean
    /// build would.
    @Test func aPreparedRenderThatDiffersFromTheRecordIsNotKept() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        _ = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
        let cache = site + "/.noticeboard-cache"
        let state = try #require(try FileManager.default.contentsOfDirectory(atPath: cache).first { $0.hasSuffix(".state") })
        var lines = TestSupport.read(cache + "/" + state).components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.hasPrefix("output\t") && $0.hasSuffix("\tapi/cleaners.json") })
        var fields = lines[line].components(separatedBy: "\t")
        fields[2] = String(repeating: "0", count: fields[2].count)
        lines[line] = fields.joined(separator: "\t")
        TestSupport.write(lines.joined(separator: "\n"), to: cache + "/" + state)

        let live = try liveSiteOnItsOutput(site)
        live.waitUntilIdle()
        #expect(!live.keepsARender)
        try expectEditMatchesACleanBuild(live, site, site + "/content/cleaners/aoife-byrne.yaml", "over eight years", "over nine years", "first edit after a start whose record differs")
    }

    /// With two listings to a page, the edited cleaners sit on later pages of their lists (the kind's, their
    /// county's, their languages'), whose cards show the rate: in place, the pages that show them are found
    /// from where they stand, and the output equals a clean build's.
    @Test func editsOnLaterPagesBuiltInPlaceMatchACleanBuild() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        edit(site + "/content/site.yaml", "page_size: 24", "page_size: 2")
        let zofia = site + "/content/cleaners/zofia-wroblewska.yaml", andreea = site + "/content/cleaners/andreea-popescu.yaml"
        let live = LiveSite(options: BuildOptions(root: site, now: Self.now))
        _ = try build(live, site)
        for (file, old, new) in [(zofia, "17.00", "17.50"), (zofia, "17.50", "18.00"), (andreea, "20.00", "21.00"), (zofia, "18.00", "18.50")] {
            edit(file, "hourly_rate: " + old, "hourly_rate: " + new)
            let report = try build(live, site)
            #expect(report.stages.stages.map(\.name) == Self.inPlaceStages)
            #expect(report.written > 4, "wrote \(report.written) files")
            try TestSupport.expectSameAsCleanBuild(site, "\(old) → \(new) in place")
        }
    }

    /// An edit in place writes the documents it splices (a kind's JSON and CSV, the manifest) over spare buffers
    /// kept for them, rather than into buffers made anew: those that held the documents the edit before last
    /// wrote, or new ones made ready in the background after the last edit. The first edit after a whole build
    /// has none. The output still equals a clean build's.
    @Test func anEditSplicesItsDocumentsIntoTheSpareBuffersKeptForThem() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let live = LiveSite(options: BuildOptions(root: site, now: Self.now))
        _ = try build(live, site)
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        let documents: Set = ["api/cleaners.json", "api/cleaners.csv", "api/manifest.json"]
        let edits = [("eight years", "nine years"), ("nine years", "ten"), ("over ten", "over eleven years"), ("eleven", "twelve")]
        var spare: [String: UInt] = [:]
        for (number, (old, new)) in zip(1..., edits) {
            try expectEditMatchesACleanBuild(live, site, aoife, old, new, inPlace: true, "\(old) → \(new)")
            live.waitUntilIdle()
            let addresses = live.addressesInMemory
            #expect(documents.isSubset(of: addresses.written.keys))
            if number > 1 {
                for path in documents { #expect(addresses.written[path] == spare[path], "\(path) not written over the buffer kept for it") }
            }
            spare = addresses.spare
            #expect(documents.isSubset(of: spare.keys) && documents.allSatisfy { spare[$0] != addresses.written[$0] })
            // Only the documents of the kind edited, which the next edit likely splices again, have spares.
            #expect(!spare.keys.contains("api/rentals.json"))
        }
    }

    /// An edit in place splices the kind's documents from the bytes the last edit wrote, kept in memory, not
    /// from the output folder: one changed there since, even to bytes of the same length, is replaced by what
    /// a clean build writes.
    @Test func aDocumentChangedSinceTheLastEditIsWrittenAsACleanBuildWould() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let aoife = site + "/content/cleaners/aoife-byrne.yaml", document = site + "/public/api/cleaners.json"
        let live = LiveSite(options: BuildOptions(root: site, now: Self.now))
        _ = try build(live, site)
        for (old, new) in [("over eight years", "over nine years"), ("over nine years", "over ten years")] {
            edit(aoife, old, new)
            _ = try build(live, site)
        }
        let text = TestSupport.read(document)
        // Another cleaner's item, which the next edit does not make again.
        #expect(text.contains("Declan Murphy"))
        TestSupport.write(text.replacingOccurrences(of: "Declan Murphy", with: "Declan Murphi"), to: document)
        try expectEditMatchesACleanBuild(live, site, aoife, "Oven cleaning", "Oven and hob cleaning", inPlace: true, "after the document changed")
    }

    @Test func anotherBuildIntoTheSameFolderIsNoticed() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        let aoife = site + "/content/cleaners/aoife-byrne.yaml"
        let live = LiveSite(options: BuildOptions(root: site, now: Self.now))
        _ = try build(live, site)
        edit(aoife, "over eight years", "over nine years")
        _ = try build(live, site)
        // A command-line build writes the same folder behind the live site's back.
        edit(aoife, "over nine years", "over ten years")
        _ = try Noticeboard.build(BuildOptions(root: site, now: Self.now))
        edit(aoife, "over ten years", "over eleven years")
        #expect(!(try build(live, site).stages.stages.map(\.name).contains(Self.inPlaceStages[0])))
        try TestSupport.expectSameAsCleanBuild(site, "after another build")
    }
}

extension LiveSiteTests {
    /// Listings are dated by the last record's versions through a kept site: its first build (which holds
    /// them apart from the record until it has dated its listings), an edit in place, and the build after.
    @Test func aKeptSiteDatesListingsByTheLastRecordAcrossDays() throws {
        let site = TestSupport.makeSite()
        defer { TestSupport.removeTree(site) }
        func day(_ day: Int) -> CalendarDate { CalendarDate(year: 2026, month: 11, day: day)! }
        /// The listing's own `updated`, which follows its fields (and those of the listings it embeds).
        func updated(_ document: String) -> String? {
            let text = TestSupport.read(site + "/public/api/" + document)
            return text.matches(of: /"updated":"([0-9-]+)"/).last.map { String($0.1) }
        }
        _ = try Noticeboard.build(BuildOptions(root: site, now: day(23)))
        do {
            let live = LiveSite(options: BuildOptions(root: site, now: day(24)))
            #expect(try live.build().written > 0)
            #expect(updated("rentals/kayak.json") == "2026-11-23" && updated("cleaners/aoife-byrne.json") == "2026-11-23")
            edit(site + "/content/cleaners/aoife-byrne.yaml", "over eight years", "over nine years")
            live.waitUntilIdle()
            #expect(try live.build().stages.stages.map(\.name) == Self.inPlaceStages)
            live.waitUntilSaved()
            #expect(updated("rentals/kayak.json") == "2026-11-23" && updated("cleaners/aoife-byrne.json") == "2026-11-24")
        }
        _ = try Noticeboard.build(BuildOptions(root: site, now: day(25)))
        #expect(updated("rentals/kayak.json") == "2026-11-23" && updated("cleaners/aoife-byrne.json") == "2026-11-24")
    }
}
