import CatalogueIndex
import Foundation
@testable import Noticeboard
@testable import Rendering
import SiteLoader
import SiteModel
import SiteValidation
import Support
import SyntheticSite
import Testing

/// The split search index (SearchIndex.swift): folding, terms, and the search page's engine over a built
/// index finding exactly what a plain scan of the listings finds.
@Suite struct SearchIndexTests {
    static let now = CalendarDate(year: 2026, month: 11, day: 23)!

    @Test func foldingReadsLettersWithoutDecompositionAsTheirBaseLetters() {
        #expect(SearchWords.words("Łukasz Groß, Ærø; Đorđe Œuvre Þór ſtraße") == ["lukasz", "gross", "aero", "dorde", "oeuvre", "thor", "strasse"])
        #expect(SearchWords.words("Siobhán Ó Súilleabháin") == ["siobhan", "o", "suilleabhain"])
        #expect(SearchWords.words("ﬁre ＡＢＣ ΟΔΟΣ οδος") == ["fire", "abc", "οδοσ", "οδοσ"])
        #expect(SearchWords.words("O'Brien's 18.50€") == ["o", "brien", "s", "18", "50"])
    }

    @Test func cjkRunsAreWordsOfTheirOwn() {
        #expect(SearchWords.words("東京tower 서울에서 カタカナ!") == ["東京", "tower", "서울에서", "カタカナ"])
        let document = Self.document(kind: "k", cluster: -1, title: "東京タワー", text: "の 京都")
        var words: [String] = []
        let bigrams = SearchTerms.terms(of: document, number: 0) { word, _ in words.append(word) }
        #expect(bigrams["東京"]?.positions == [0] && bigrams["東京"]?.inTitle == true)
        #expect(bigrams["タワ"]?.positions == [2] && bigrams["ワー"]?.positions == [3])
        // "の" stands alone (a word), then 京都 after it: no pair crosses from one run to the next.
        #expect(words == ["の"] && bigrams["の"] == nil)
        #expect(bigrams["京都"]?.positions == [6] && bigrams["ー京"] == nil)
        #expect(bigrams["京都"]?.inTitle == false)
    }

    @Test func theFastASCIIPathFoldsAsTheUnicodePathDoes() {
        var generator = SplitMix64(seed: 3)
        let pieces = ["Cork", "OVEN", "don't", "18.50", "a-b", "café", "Łódź", "東京", " ", "\n", "--", "ß", "İstanbul", "x\u{301}", "Ω"]
        for _ in 0..<500 {
            let text = (0..<8).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            #expect(SearchWords.words(text) == SearchWords.unicodeWords(text), "\(text)")
        }
        for text in TestSupport.awkwardTexts {
            #expect(SearchWords.words(text) == SearchWords.unicodeWords(text), "\(text)")
        }
    }

    static func document(kind: String, cluster: Int, title: String = "", text: String = "") -> SearchDocument {
        SearchDocument(
            kind: kind, title: title, text: text, range: .null,
            card: .init(path: "", thumbnail: nil, figures: [], facetLine: "", summary: ""), cluster: cluster)
    }

    /// A cluster that does not fit in what is left of a card file starts a file of its own; one that fits is
    /// packed with the one before; a new kind is a new cluster.
    @Test func clustersStartCardFilesWhenTheyDoNotFit() {
        let sizes = [("a", 0, 100), ("a", 1, 200), ("a", 2, 10), ("a", 3, 600), ("b", -1, 5)]
        let groups = sizes.flatMap { kind, cluster, count in (0..<count).map { _ in CardGroup(kind: kind, cluster: cluster) } }
        #expect(SiteRenderer.cardsPerFile == 256)
        #expect(SiteRenderer.cardFileStarts(groups) == [0, 100, 310, 566, 822])
    }

    /// A collection's card takes the room of a document for itself and one for each of its entries: a file holds
    /// fewer of them, and one heavier than a file has a file of its own.
    @Test func collectionsCardsFillCardFilesByTheirEntries() {
        let collections = (0..<30).map { _ in CardGroup(kind: "quotes", cluster: -1) }
        #expect(SiteRenderer.cardFileStarts(collections) { _ in 1 + 20 } == [0, 12, 24])
        let weights = [300, 1, 1, 200, 100]
        #expect(SiteRenderer.cardFileStarts(Array(collections.prefix(5))) { weights[$0] } == [0, 1, 4])
        // A cluster that does not fit in what is left starts a file of its own, counted by weight.
        let twoClusters = [CardGroup(kind: "quotes", cluster: 0), CardGroup(kind: "quotes", cluster: 1), CardGroup(kind: "quotes", cluster: 1)]
        #expect(SiteRenderer.cardFileStarts(twoClusters) { [100, 100, 100][$0] } == [0, 1])
    }

    /// An in-place edit's terms, one document's replaced at a time, are those made anew from the edited
    /// documents: words gained and lost, a word moving into or out of a title, CJK pairs and their places.
    @Test func termsReplacedInPlaceEqualTermsMadeAnew() {
        var generator = SplitMix64(seed: 11)
        let pieces = ["Cork", "oven", "the", "drill", "18.50", "café", "Łódź", "東京都", "京都", "中", "日本語です", "Ω", "x\u{301}", " ", "\n"]
        func text(_ words: Int) -> String {
            (0..<words).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined(separator: " ")
        }
        var documents = (0..<40).map { _ in Self.document(kind: "a", cluster: 0, title: text(2), text: text(6)) }
        var terms = SearchTerms(documents)
        for _ in 0..<300 {
            let number = Int(generator.next() % UInt64(documents.count))
            let old = documents[number]
            documents[number] = Self.document(kind: "a", cluster: 0, title: text(Int(generator.next() % 3)), text: text(Int(generator.next() % 9)))
            terms = terms.replacing(Int32(number), old, with: documents[number])
            let anew = SearchTerms(documents)
            #expect(terms.sorted.map(\.term) == anew.sorted.map(\.term))
            #expect(terms.sorted.map(\.postings) == anew.sorted.map(\.postings))
        }
        #expect(SearchTerms.wordEntries(SearchTerms.encode([0 << 1 | 1, 3 << 1, 1_000 << 1 | 1])) == [0 << 1 | 1, 3 << 1, 1_000 << 1 | 1])
    }

    @Test func postingsAreDeltasInBase64() {
        #expect(SearchPostings.encode(increasing: [0, 1, 3, 35, 35 + 1024]) == "012w1ww1")
    }

    /// Every term is in the file that the meta document's separators name for it, and the example site's
    /// index holds every listing with a page but the alert sets (`browse: false`).
    @Test func theExampleSiteIndexFindsEveryTermInItsFile() throws {
        let root = TestSupport.makeSite()
        defer { TestSupport.removeTree(root) }
        _ = try Noticeboard.build(BuildOptions(root: root, now: Self.now))
        let folder = root + "/public/api/search/"
        let meta = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "meta.json"))) as! [String: Any]
        #expect(meta["documents"] as? Int == 14 + 14 + 5 + 3 + 2)
        let separators = meta["terms"] as! [String]
        for (number, _) in separators.enumerated() {
            let file = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: folder + "terms/\(number).json"))) as! [String: Any]
            for term in (file["terms"] as! [String: String]).keys {
                let named = separators.lastIndex { !term.utf16.lexicographicallyPrecedes($0.utf16) }
                #expect(named == number, "\(term)")
            }
        }
    }

    /// One query through the search page's engine (node) over a built index (Tests/Tools/search_query.js):
    /// `results`, its results' cards, `suggestions` when it finds nothing, and the index files each `loads`.
    static func search(_ index: String, _ query: [String: Any]) throws -> [String: Any] {
        let asked = String(decoding: try JSONSerialization.data(withJSONObject: query), as: UTF8.self)
        let result = try TestSupport.run("node", ["Tests/Tools/search_query.js", index, asked])
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] ?? [:]
    }

    /// The results' cards of one query (`search`).
    static func results(_ index: String, _ query: [String: Any]) throws -> [[String: Any]] {
        try search(index, query)["results"] as? [[String: Any]] ?? []
    }

    /// A bool field that is true is found by its label's words, as a visitor types what a listing offers
    /// ("eco-friendly"); one that is false is not found by them.
    @Test func aTrueBoolFieldIsFoundByItsLabel() throws {
        let root = TestSupport.makeSite()
        defer { TestSupport.removeTree(root) }
        _ = try Noticeboard.build(BuildOptions(root: root, now: Self.now))
        let cleaners = try #require(try TestSupport.json(TestSupport.tree(root + "/public"), "api/cleaners.json")["items"] as? [[String: Any]])
        // A word of the label, "Eco-friendly products", that no other cleaner's own text has.
        let others = cleaners.filter { $0["eco_products"] as? Bool == false }
        #expect(others.count >= 2 && !others.contains { cleaner in cleaner.values.contains { ($0 as? String)?.lowercased().contains("products") ?? false } })
        let eco = Set(cleaners.filter { $0["eco_products"] as? Bool == true }.compactMap { $0["path"] as? String })
        #expect(eco.count >= 2 && eco.count < cleaners.count)
        let found = try Self.results(root + "/public/api/search/", ["words": "products", "kind": "cleaners"])
        #expect(Set(found.compactMap { $0["path"] as? String }.map { "/catalogue/" + $0 }) == eco)
        // Beside the words of other fields, as any other text.
        let inKerry = try Self.results(root + "/public/api/search/", ["words": "eco friendly kerry"])
        let kerry = Set(cleaners.filter { $0["county"] as? String == "Kerry" }.compactMap { $0["path"] as? String })
        #expect(Set(inKerry.compactMap { $0["path"] as? String }.map { "/catalogue/" + $0 }) == eco.intersection(kerry))
    }

    /// A result that is a collection leads to the entry the query found, whose anchor its page has: the first
    /// with the most of the query's words among those with the values chosen for facets over entries. Other
    /// results, and a collection none of whose entries the query names, lead to their pages.
    @Test func aCollectionsResultLeadsToTheEntryFound() throws {
        let root = TestSupport.makeSite()
        defer { TestSupport.removeTree(root) }
        _ = try Noticeboard.build(BuildOptions(root: root, now: Self.now))
        let index = root + "/public/api/search/"
        func entries(_ path: Any?) throws -> [[String: Any]] {
            let slug = try #require((path as? String)?.split(separator: "/").last)
            let document = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: root + "/public/api/quotes/\(slug).json")))
            return try #require((document as? [String: Any])?["quotes"] as? [[String: Any]])
        }
        func expectLeads(_ query: [String: Any], _ chosen: ([String: Any]) -> Bool) throws {
            let found = try Self.results(index, query).filter { $0["kind"] as? String == "quotes" }
            #expect(!found.isEmpty, "\(query)")
            for result in found {
                let all = try entries(result["path"]), entry = result["entry"] as? Int ?? -2
                let first = all.firstIndex(where: chosen) ?? -1
                #expect(entry == first, "\(query): \(result)")
                guard entry >= 0 else { continue }
                let page = TestSupport.read(root + "/public/" + (result["path"] as? String ?? "") + "index.html")
                #expect(page.contains("id=\"entry-\(entry)\""), "\(result)")
            }
        }
        func says(_ word: String) -> ([String: Any]) -> Bool {
            { entry in entry.values.contains { ($0 as? String)?.lowercased().contains(word) ?? false } }
        }
        try expectLeads(["words": "twain"], says("twain"))
        try expectLeads(["kind": "quotes", "facets": ["category": "Kindness"]]) { $0["category"] as? String == "Kindness" }
        try expectLeads(["words": "proverb", "kind": "quotes", "facets": ["category": "Time"]]) { $0["category"] as? String == "Time" && says("proverb")($0) }
        // Words only in a collection's own text lead to its page.
        try expectLeads(["words": "fridge door"]) { _ in false }
        let rentals = try Self.results(index, ["words": "kayak"])
        #expect(!rentals.isEmpty && rentals.allSatisfy { $0["entry"] as? Int == -1 })
    }

    /// A collection's result found by another field of its entry than the text it shows (a quote by its author) shows
    /// that field beside the text, not "(matched in other fields)"; one whose other fields lack the words shows none.
    @Test func aCollectionsResultShowsTheFieldItWasFoundBy() throws {
        let root = TestSupport.makeSite()
        defer { TestSupport.removeTree(root) }
        _ = try Noticeboard.build(BuildOptions(root: root, now: Self.now))
        func found(_ words: String) throws -> [(elsewhere: String, entry: [String: Any])] {
            try Self.results(root + "/public/api/search/", ["words": words, "kind": "quotes"]).map { result in
                let slug = try #require((result["path"] as? String)?.split(separator: "/").last)
                let document = try TestSupport.json(TestSupport.tree(root + "/public"), "api/quotes/\(slug).json")
                let entries = try #require(document["quotes"] as? [[String: Any]])
                return (result["elsewhere"] as? String ?? "?", entries[try #require(result["entry"] as? Int)])
            }
        }
        let byFranklin = try found("franklin")
        #expect(byFranklin.count >= 2)
        for (elsewhere, entry) in byFranklin {
            #expect((entry["text"] as? String)?.lowercased().contains("franklin") == false)
            #expect(elsewhere == entry["source"] as? String && elsewhere.hasPrefix("Benjamin Franklin, "), "\(elsewhere)")
        }
        let byText = try found("hands")
        #expect(!byText.isEmpty && byText.allSatisfy { $0.elsewhere.isEmpty && ($0.entry["text"] as? String)?.contains("hands") == true })
    }

    /// A query that finds nothing is given what to try instead, from the index files its run loaded: its words
    /// with a slip corrected to the nearest term, and the query without each filter whose leaving out finds
    /// something; each with what it finds, and none when nothing near finds anything.
    @Test func aQueryThatFindsNothingIsGivenWhatToTryInstead() throws {
        let root = TestSupport.makeSite()
        defer { TestSupport.removeTree(root) }
        _ = try Noticeboard.build(BuildOptions(root: root, now: Self.now))
        let index = root + "/public/api/search/"
        func suggestions(_ query: [String: Any]) throws -> [[String: Any]] {
            let answer = try Self.search(index, query)
            #expect((answer["results"] as? [Any])?.isEmpty == true, "\(query) finds something")
            // The suggestions read no file the query's run did not (in this index, a corrected word's terms are in
            // the file the slip's lookup read).
            #expect((answer["loads"] as? [String: Int])?["suggestions"] == 0, "\(query)")
            return answer["suggestions"] as? [[String: Any]] ?? []
        }
        func count(_ query: [String: Any]) throws -> Int { try Self.results(index, query).count }
        func leaves(_ found: [[String: Any]]) -> [String] { found.compactMap { $0["leaves"] as? String } }

        for (slip, word) in [("kayek", "kayak"), ("ovn", "oven"), ("galwy", "galway"), ("drlil cork", "drill cork")] {
            let found = try suggestions(["words": slip])
            #expect(found.map { $0["words"] as? String } == [word], "\(slip)")
            let corrected = try count(["words": word])
            #expect(corrected > 0 && found.first?["count"] as? Int == corrected, "\(slip)")
        }
        #expect(try suggestions(["words": "xyzzy"]).isEmpty)
        #expect(try suggestions(["words": "xyzzy", "kind": "cleaners", "facets": ["county": "Cork"]]).isEmpty)

        // Each filter is left out in turn; those whose leaving out finds something are suggested.
        let filtered: [String: Any] = ["words": "oven", "kind": "cleaners", "facets": ["county": "Cork", "languages": "Polish"]]
        var expected: [String] = []
        for facet in ["county", "languages"] {
            var without = filtered
            without["facets"] = (filtered["facets"] as! [String: String]).filter { $0.key != facet }
            if try count(without) > 0 { expected.append(facet) }
        }
        #expect(!expected.isEmpty && expected.count < 2)
        #expect(leaves(try suggestions(filtered)) == expected)
        let priced = try suggestions(["kind": "rentals", "min": 100000]), rentals = try count(["kind": "rentals"])
        #expect(leaves(priced) == ["range"] && priced.first?["count"] as? Int == rentals)
    }

    /// By facet, the texts of the values a listing has, read from its fields: a collection kind's facet over
    /// its entries from every entry's.
    static func facetTexts(_ listing: Listing, _ schema: KindSchema) -> [String: [String]] {
        let entries = schema.entriesField.flatMap { listing.fields[$0]?.listValue } ?? []
        return Dictionary(uniqueKeysWithValues: schema.facets.map { name in
            (name, schema.facetIsOverEntries(name) ? entries.flatMap { CatalogueIndex.facetTexts($0[name]) } : CatalogueIndex.facetTexts(listing.fields[name]))
        })
    }

    /// A range value as JSONSerialization writes a number; NSNull for none.
    static func number(_ range: Value) -> Any {
        switch range {
        case .int(let number): return number
        case .decimal(let number): return number.doubleValue
        default: return NSNull()
        }
    }

    /// A few hundred generated queries through the search page's script (node) over the index of a generated
    /// catalogue with CJK listings added, against a scan of the listings (Tests/Tools/search_equality.js).
    @Test func theIndexFindsWhatAScanOfTheListingsFinds() throws {
        let root = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(root) }
        try SiteWriter.write(SyntheticCatalogue(size: .init(cleaners: 400, rentals: 400, quotes: 600), seed: 5), to: root, example: TestSupport.repository)
        for (index, (name, bio)) in Self.cjkCleaners.enumerated() {
            TestSupport.write(Self.cleaner(name: name, bio: bio, county: ["Cork", "Kerry"][index % 2]), to: root + "/content/cleaners/cjk-\(index).yaml")
        }
        _ = try Noticeboard.build(BuildOptions(root: root, now: Self.now))
        let site = try LoadedSite(files: SiteFiles(root: root))
        var stages = StageTimes()
        let catalogue = try Noticeboard.enrichAndIndex(site, buildDate: Self.now, stages: &stages).catalogue
        let documents = SiteRenderer(catalogue: catalogue, templates: site.templates, staticFiles: []).searchIndex(keepingCorpus: true).corpus!.documents
        let listings: [[String: Any]] = documents.map { document in
            let collection = catalogue.collection(document.kind)!
            let place = collection.listings.firstIndex { $0.outputPath == document.card.path }!
            let listing = collection.listings[place]
            return [
                "kind": document.kind, "title": document.title, "text": document.text, "facets": Self.facetTexts(listing, collection.schema),
                "range": Self.number(document.range), "place": place,
            ]
        }
        try JSONSerialization.data(withJSONObject: ["documents": listings]).write(to: URL(fileURLWithPath: root + "/listings.json"))
        let result = try TestSupport.run(
            "node", ["Tests/Tools/search_equality.js", root + "/public/api/search/", root + "/listings.json", "400", "11"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(", 0 differences"), "\(result.stdout)")
        // The queries find things, CJK ones too, many have a kind's facet counts and some no words (in the list's
        // order), so that equality means something.
        let counts = result.stdout.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        #expect(counts.count == 7 && counts[1] > 200 && counts[2] > 20 && counts[3] > 10 && counts[4] > 150 && counts[5] > 30, "\(result.stdout)")
        print(result.stdout)
    }

    static let cjkCleaners: [(String, String)] = [
        ("山田太郎", "東京都の清掃サービスです。京都にも行きます。"),
        ("김민준", "서울에서 청소를 합니다. 부산도 가능합니다."),
        ("王小明", "北京和上海的清洁服务。东京也可以。"),
        ("Jürgen Groß", "Ich putze gründlich, auch in Køge und Łódź. 東京タワーの近く。"),
        ("Ægir Þórsson", "Hreingerning í Reykjavík; Đorđe and Œuvre too. 京都の清掃。"),
    ]

    static func cleaner(name: String, bio: String, county: String) -> String {
        """
        name: \(name)
        hourly_rate: 21.00
        county: \(county)
        languages: [English]
        joined: 2025-01-02
        bio: |
          \(bio)
        phone: "+353 87 555 0100"
        email: someone@example.net

        """
    }
}

/// Documents are made a run at a time: their terms taken and their card files made as they come, and
/// without a keeper the documents go. The index's files are the same whatever the runs and whether the
/// corpus is kept, and terms taken in runs are those taken at once.
@Suite struct SearchTermRunsTests {
    @Test func theIndexIsTheSameWhateverTheRunsAndWhenTheDocumentsAreLetGo() throws {
        let folder = TestSupport.temporaryFolder()
        defer { TestSupport.removeTree(folder) }
        let renderer = try RenderShareTests.renderer(in: folder, size: .init(cleaners: 500, rentals: 200, quotes: 40))
        let kept = renderer.searchIndex(keepingCorpus: true)
        #expect(kept.corpus?.documents.contains { !$0.text.isEmpty } == true)
        #expect(kept.files.contains { $0.path.hasSuffix("cards/3.json") }, "several card files")
        for perRun in [1, 7, 300, SiteRenderer.searchDocumentsPerRun] {
            let dropped = renderer.searchIndex(keepingCorpus: false, documentsPerRun: perRun)
            #expect(dropped.corpus == nil)
            #expect(kept.files.map(\.path) == dropped.files.map(\.path), "\(perRun) a run")
            #expect(kept.files.map(\.contents.inMemory) == dropped.files.map(\.contents.inMemory), "\(perRun) a run")
        }

        // Card files handed on as they are made: in more than one batch, and with the other files, the same files.
        var batches: [[OutputFile]] = []
        let rest = renderer.searchIndex(keepingCorpus: false, documentsPerRun: 300, handOnCards: { batches.append($0) })
        let bytes = { (files: [OutputFile]) in Dictionary(uniqueKeysWithValues: files.map { ($0.path, $0.contents.inMemory) }) }
        #expect(batches.count > 1 && batches.allSatisfy { !$0.isEmpty } && batches.joined().allSatisfy { $0.path.hasPrefix("api/search/cards/") })
        #expect(!rest.files.contains { $0.path.hasPrefix("api/search/cards/") })
        #expect(bytes(Array(batches.joined()) + rest.files) == bytes(kept.files))

        // CJK pairs in documents on both sides of the last cuts, so that a pair's postings are added to twice.
        let cjk = SearchIndexTests.cjkCleaners.map { name, bio in SearchIndexTests.document(kind: "cleaners", cluster: 0, title: name, text: bio) }
        let documents = kept.corpus!.documents + cjk + cjk
        let atOnce = SearchTerms(documents).sorted.map { "\($0.term) \($0.postings)" }
        for cut in [1, documents.count / 2, documents.count - cjk.count - 2, documents.count - 3] {
            var collector = SearchTerms.Collector()
            collector.add(Array(documents[..<cut]), numberedFrom: 0)
            collector.add(Array(documents[cut...]), numberedFrom: cut)
            #expect(collector.terms().sorted.map { "\($0.term) \($0.postings)" } == atOnce, "cut at \(cut)")
        }
    }
}
