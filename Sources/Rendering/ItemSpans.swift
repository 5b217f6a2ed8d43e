import SiteModel

/// Where each listing's item lies in a document that holds one per listing, in the kind's order: the kind
/// document (`api/<kind>.json`) and the CSV download (`api/<kind>.csv`). An in-place edit changes no kind's
/// order (`Catalogue.replacing`), so its document is the last one with the edited listings' items made
/// anew, and what lies between items (commas, the head, the tail) copied as it was: at 100,000 listings,
/// copying 400 MB costs a fraction of encoding every listing again.
public struct ItemSpans: Sendable, Equatable {
    /// Item `i` is `starts[i]..<ends[i]`.
    private var starts: [Int] = []
    private var ends: [Int] = []

    public init() {}

    public var count: Int { starts.count }

    /// Appends `item` to `output` as the next item, noting where it lies.
    mutating func append(_ item: [UInt8], to output: inout some ByteSink) {
        starts.append(output.count)
        output.append(contentsOf: item)
        ends.append(output.count)
    }

    /// Whether these spans can be those of `bytes` with `count` items: as many, and inside it.
    func fit(_ bytes: [UInt8], count: Int) -> Bool {
        self.count == count && (ends.last ?? 0) <= bytes.count
    }

    /// `last`, the document these spans describe, with the items at `positions` (ascending, each once)
    /// replaced by `items`; and the spans of the result.
    func splicing(_ last: [UInt8], at positions: [Int], with items: [[UInt8]]) -> (bytes: [UInt8], spans: ItemSpans) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(last.count + items.reduce(0) { $0 + $1.count })
        var spans = self
        // `shift` is how far the bytes after `copied` in `last` move; the spans before `unshifted` are final.
        var copied = 0, shift = 0, unshifted = 0
        for (position, item) in zip(positions, items) {
            bytes.append(contentsOf: last[copied..<starts[position]])
            spans.shift(unshifted..<position, by: shift)
            spans.append(item, at: position, to: &bytes)
            copied = ends[position]
            shift = bytes.count - copied
            unshifted = position + 1
        }
        bytes.append(contentsOf: last[copied...])
        spans.shift(unshifted..<count, by: shift)
        return (bytes, spans)
    }

    private mutating func append(_ item: [UInt8], at position: Int, to bytes: inout [UInt8]) {
        starts[position] = bytes.count
        bytes.append(contentsOf: item)
        ends[position] = bytes.count
    }

    private mutating func shift(_ positions: Range<Int>, by offset: Int) {
        guard offset != 0 else { return }
        for position in positions {
            starts[position] += offset
            ends[position] += offset
        }
    }
}
