import Rendering
import SiteModel
import Support
import Testing

/// The listings' versions, held kind by kind: the build record reads and writes them by `<kind>/<slug>` in
/// key order, and serve's record splice needs the keys whose versions changed.
@Suite struct VersionTableTests {
    private static func version(_ text: String) -> ListingVersions.Version {
        ListingVersions.Version(updated: CalendarDate(parsing: "2026-11-28")!, sha256: SHA256.digest(Array(text.utf8)))
    }

    /// Kinds whose names begin with one another, and slugs that do: the order a record sorted by whole key has.
    private static let keys = [
        "quote/a", "quote/a-b", "quote/ab", "quotes/a", "quote-x/a", "quote-x/b-2", "q/z", "cleaners/ana", "cleaners/ana-2", "cleaners/an",
    ]

    private static func table(_ versions: [String: ListingVersions.Version]) -> VersionTable {
        var table = VersionTable()
        for (key, version) in versions {
            let isKey = table.set(version, forKey: key)
            #expect(isKey)
        }
        return table
    }

    @Test func keysComeInTheOrderOfTheWholeKeysWhateverTheOrderSet() {
        let versions = Dictionary(uniqueKeysWithValues: Self.keys.map { ($0, Self.version($0)) })
        let table = Self.table(versions)
        #expect(table.keys == Self.keys.sorted())
        #expect(table.count == Self.keys.count)
        var visited: [String] = []
        table.forEachKeyed { key, version in
            visited.append(key)
            #expect(version == versions[key])
        }
        #expect(visited == Self.keys.sorted())
        for key in Self.keys { #expect(table[key] == versions[key]) }
        #expect(table["quote/b"] == nil && table["nothing/a"] == nil)
    }

    @Test func aKeyWithoutKindOrSlugIsRefused() {
        var table = VersionTable()
        for key in ["ana", "/ana", "cleaners/"] {
            let isKey = table.set(Self.version(key), forKey: key)
            #expect(!isKey, "\(key)")
        }
        #expect(table.isEmpty)
    }

    @Test func removingTheLastVersionOfAKindLeavesATableEqualToOneWithoutIt() {
        var table = Self.table(["cleaners/ana": Self.version("1"), "quotes/a": Self.version("2")])
        table.set(nil, forKey: "quotes/a")
        #expect(table == Self.table(["cleaners/ana": Self.version("1")]))
        table.set(nil, forKey: "cleaners/ana")
        #expect(table.isEmpty && table == VersionTable())
    }

    /// Against the same changes made to a dictionary by whole key: versions changed, removed and added.
    @Test func differingKeysAreThoseADictionaryByWholeKeyFinds() {
        var generator = SplitMix64(seed: 21)
        var last: [String: ListingVersions.Version] = [:]
        for index in 0..<400 {
            let key = ["cleaners", "quote", "quotes", "rentals"][index % 4] + "/listing-\(index / 4)"
            last[key] = Self.version(key)
        }
        for round in 0..<20 {
            var now = last
            for key in last.keys {
                switch generator.next() % 10 {
                case 0: now[key] = Self.version("\(key) \(round)")
                case 1: now[key] = nil
                default: break
                }
            }
            now["reviews/new-\(round)"] = Self.version("new")
            let expected = Set(now.keys).union(last.keys).filter { now[$0] != last[$0] }.sorted()
            #expect(VersionTable.differingKeys(Self.table(now), Self.table(last)) == expected)
            #expect(VersionTable.differingKeys(Self.table(last), Self.table(now)) == expected)
            #expect(VersionTable.differingKeys(Self.table(now), Self.table(now)).isEmpty)
        }
    }

    /// Slugs set, replaced and removed one at a time, in the middle of a kind as at its ends (as serve's edits
    /// and a record read in order do): every key then finds what a dictionary by whole key holds.
    @Test func eachKeyFindsItsVersionAfterChangesAnywhereInItsKind() {
        var generator = SplitMix64(seed: 28)
        var table = VersionTable(), expected: [String: ListingVersions.Version] = [:]
        let keys = (0..<120).map { ["cleaners", "quotes"][$0 % 2] + "/listing-\($0 / 2)" }
        for step in 0..<600 {
            let key = keys[Int(generator.next() % UInt64(keys.count))]
            let version = generator.next() % 3 == 0 ? nil : Self.version("\(key) \(step)")
            table.set(version, forKey: key)
            expected[key] = version
            #expect(keys.allSatisfy { table[$0] == expected[$0] }, "after step \(step)")
        }
        #expect(table.keys == expected.keys.sorted())
    }
}
