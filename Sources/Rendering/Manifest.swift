import OrderedCollections
import SiteModel
import Support

/// `/api/manifest.json`: every other output file with its size and SHA-256, so an app downloads only
/// what changed since its last sync.
public enum Manifest {
    public static let path = "api/manifest.json"

    /// Where an in-place edit starts its manifest from: the last manifest's paths, sorted, and where each
    /// one's entry lies in it.
    public struct Layout: Sendable {
        let order: [String]
        let spans: ItemSpans

        /// The paths under `folder`: found by halving, as the paths are sorted.
        func paths(under folder: String) -> ArraySlice<String> {
            let start = order.insertionIndex(of: folder)
            let end = order[start...].firstIndex { !$0.hasPrefix(folder) } ?? order.endIndex
            return order[start..<end]
        }
    }

    /// The manifest of `digests` (every other output file, by path), sorted by path. The entries are
    /// encoded straight into bytes, on every core, rather than held as a value tree: at 430,000 listings
    /// there are 800,000. Made as it is written (`ByteStream`): at 430,000 listings it is 108 MB. The paths
    /// wait for it as bytes, in the order they came, with the order they sort in beside them.
    public static func file(for digests: WrittenDigests, site: SiteConfig) -> OutputFile {
        var paths = PathList()
        digests.forEach { path, _ in paths.append(path) }
        let order = paths.sortedIndices()
        let contents = OutputFile.Contents.streamed { [paths] stream in
            JSONWriter.write(head(site), thenList: "files", count: order.count, encodedOnEveryCore: { index in
                let path = paths[order[index]]
                return entry(path, digests[path]!)
            }, into: &stream)
        }
        return OutputFile(path: path, contents: contents)
    }

    /// In place: the manifest whole, and its layout for the next edit. Spliced from the `last` manifest (its
    /// bytes, as its layout lays them out) with the entries of `paths`, the only files that may have come, gone
    /// or changed, made again from `digest`, `into` a buffer from `SpareBuffers`; without one, made anew from
    /// `every` path.
    static func inPlace(
        paths: Set<String>, digest: (String) -> FileDigest?, last: (bytes: [UInt8], layout: Layout)?, every: () -> [String], site: SiteConfig,
        into buffer: consuming [UInt8] = []
    ) -> (bytes: [UInt8], layout: Layout) {
        guard let last, !last.layout.order.isEmpty, last.layout.spans.fit(last.bytes, count: last.layout.order.count) else {
            let order = every().sorted()
            var bytes: [UInt8] = []
            let spans = withoutActuallyEscaping(digest) { digest in
                JSONWriter.listDocument(head(site), thenList: "files", of: order.lazy.map { entry($0, digest($0)!) }, into: &bytes)
            }
            return (bytes, Layout(order: order, spans: spans))
        }
        let (edits, order) = ItemSpans.edits(order: last.layout.order, at: paths.sorted()) { path in digest(path).map { entry(path, $0).bytes } }
        let spliced = last.layout.spans.splicing(last.bytes, edits, separator: [UInt8(ascii: ",")], into: buffer)
        return (spliced.bytes, Layout(order: order, spans: spliced.spans))
    }

    private static func head(_ site: SiteConfig) -> OrderedDictionary<String, Value> {
        ["$schema": .string(site.url("api/schema/manifest.json"))]
    }

    private static func entry(_ path: String, _ digest: FileDigest) -> JSONWriter.Encoded {
        JSONWriter.fileEntry(path: path, size: digest.size, sha256: digest.sha256)
    }

    public static func digest(_ bytes: [UInt8]) -> FileDigest {
        FileDigest(size: bytes.count, sha256: SHA256.digest(bytes))
    }
}
