@testable import OutputWriter
import Rendering
import SiteModel
import Support
import Testing

/// The build's outputs held as columns answer as a dictionary of them would, through additions, changes
/// (render keys that come and go) and removals.
@Suite struct OutputTableTests {
    private static func output(_ text: String, key: String?) -> BuildState.Output {
        BuildState.Output(digest: Manifest.digest(Array(text.utf8)), renderKey: key.map { SHA256.digest(Array($0.utf8)) })
    }

    /// The same changes made to a table and to a dictionary, over paths some of which are not ASCII.
    private static func changed(_ rounds: Int) -> (table: OutputTable, dictionary: [String: BuildState.Output]) {
        var table = OutputTable(), dictionary: [String: BuildState.Output] = [:]
        var random = SystemRandomNumberGenerator()
        let paths = (0..<300).map { $0 % 7 == 0 ? "catalogue/caf\u{e9}-\($0)/index.html" : "api/things/\($0).json" } + ["", "e\u{301}te.html"]
        for round in 0..<rounds {
            let path = paths.randomElement(using: &random)!
            let output: BuildState.Output? = switch Int.random(in: 0..<4, using: &random) {
            case 0: nil
            case 1: output("\(path) \(round)", key: nil)
            default: output("\(path) \(round)", key: "key \(round)")
            }
            table[path] = output
            dictionary[path] = output
        }
        return (table, dictionary)
    }

    @Test func answersAsADictionaryWould() {
        let (table, dictionary) = Self.changed(3_000)
        #expect(table.count == dictionary.count && table.isEmpty == dictionary.isEmpty)
        for path in Set(dictionary.keys).union(["not/there.html"]) {
            #expect(table[path] == dictionary[path], "\(path)")
        }
        #expect(Dictionary(uniqueKeysWithValues: table.map { ($0.key, $0.value) }) == dictionary)
        #expect(table.count(ofPathsEndingWith: ".html") == dictionary.keys.count { $0.hasSuffix(".html") })
        let isPage = { (path: UnsafeRawBufferPointer) in path.starts(with: "catalogue/".utf8) }
        #expect(Set(table.paths(where: isPage)) == Set(dictionary.keys.filter { $0.hasPrefix("catalogue/") }))
        var digests: [String: FileDigest] = [:]
        table.digests.forEach { digests[$0] = $1 }
        #expect(digests == dictionary.mapValues(\.digest))
    }

    /// In the order `String` sorts the paths, as the build record lists them.
    @Test func givesItsEntriesSortedAsStringsSort() {
        let (table, dictionary) = Self.changed(1_000)
        var sorted: [(String, BuildState.Output)] = []
        table.forEachSorted { sorted.append((String(decoding: $0, as: UTF8.self), $1)) }
        #expect(sorted.map(\.0) == dictionary.keys.sorted())
        #expect(sorted.allSatisfy { dictionary[$0.0] == $0.1 })
        var ascii = OutputTable()
        for path in ["b/index.html", "a.json", "a/index.html", "a"] { ascii[path] = Self.output(path, key: nil) }
        var order: [String] = []
        ascii.forEachSorted { path, _ in order.append(String(decoding: path, as: UTF8.self)) }
        #expect(order == ["a", "a.json", "a/index.html", "b/index.html"])
    }

    /// Equal when they hold the same outputs, in whatever order those came; a removed one is not held.
    @Test func isEqualByWhatItHolds() {
        let one = Self.output("one", key: "k"), two = Self.output("two", key: nil)
        var first: OutputTable = ["a": one, "b": two], second: OutputTable = ["b": two, "a": one]
        #expect(first == second)
        second["c"] = one
        #expect(first != second)
        second["c"] = nil
        #expect(first == second && second.count == 2 && second["c"] == nil)
        first["a"] = BuildState.Output(digest: one.digest, renderKey: nil)
        #expect(first != second)
        first["a"] = one
        #expect(first == second)
    }
}
