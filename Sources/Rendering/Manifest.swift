import SiteModel
import Support

/// `/api/manifest.json`: every other output file with its size and SHA-256, so an app downloads only
/// what changed since its last sync.
public enum Manifest {
    public static let path = "api/manifest.json"

    /// The manifest of `digests` (every other output file, by path), and its paths in order. The entries are
    /// encoded straight into bytes, on every core, rather than held as a value tree: at 430,000 listings
    /// there are 800,000. The order comes from the `last` manifest's when there is one (see `order`).
    public static func file(for digests: [String: FileDigest], site: SiteConfig, last: [String] = [], mayBeNew: [String] = []) -> (
        file: OutputFile, order: [String]
    ) {
        let order = order(of: digests, last: last, mayBeNew: mayBeNew)
        let schema = site.url("api/schema/manifest.json")
        // Made as it is written (`ByteStream`): at 430,000 listings it is 108 MB.
        let contents = OutputFile.Contents.streamed { stream in
            JSONWriter.write(["$schema": .string(schema)], thenList: "files", count: order.count, encodedOnEveryCore: { index in
                let digest = digests[order[index]]!
                return JSONWriter.fileEntry(path: order[index], size: digest.size, sha256: digest.sha256)
            }, into: &stream)
        }
        return (OutputFile(path: path, contents: contents), order)
    }

    /// `digests.keys.sorted()`. An in-place edit adds or drops only a few paths (the sync documents'), all
    /// among `mayBeNew`: the `last` order's paths that are still there are merged with the new ones, instead
    /// of sorting 800,000 paths again. Sorted anew when that does not account for every path.
    static func order(of digests: [String: FileDigest], last: [String], mayBeNew: [String]) -> [String] {
        guard !last.isEmpty else { return digests.keys.sorted() }
        let kept = last.parallelFilter { digests[$0] != nil }
        let new = Set(mayBeNew.filter { digests[$0] != nil && !contains($0, sorted: last) }).sorted()
        guard kept.count + new.count == digests.count else { return digests.keys.sorted() }
        return merged(kept, new)
    }

    private static func contains(_ path: String, sorted paths: [String]) -> Bool {
        let index = paths.insertionIndex(of: path)
        return index < paths.count && paths[index] == path
    }

    /// Two sorted lists with no path in both, as one.
    private static func merged(_ first: [String], _ second: [String]) -> [String] {
        guard !second.isEmpty else { return first }
        var result: [String] = []
        result.reserveCapacity(first.count + second.count)
        var (i, j) = (0, 0)
        while i < first.count, j < second.count {
            if first[i] < second[j] {
                result.append(first[i])
                i += 1
            } else {
                result.append(second[j])
                j += 1
            }
        }
        result.append(contentsOf: first[i...])
        result.append(contentsOf: second[j...])
        return result
    }

    public static func digest(_ bytes: [UInt8]) -> FileDigest {
        FileDigest(size: bytes.count, sha256: SHA256.digest(bytes))
    }
}
