import SiteModel
import Support

/// Where each item lies in a list document: the kind document (`api/<kind>.json`) and the CSV download
/// (`api/<kind>.csv`), an item per listing in the kind's order, and the manifest, an entry per file in path
/// order. An in-place edit changes no kind's order (`Catalogue.replacing`), so its document is the last one
/// with the edited listings' items made anew, and the rest (items, the head, the tail) copied as it was:
/// at 100,000 listings, copying 400 MB costs a fraction of encoding every listing again. The manifest's
/// entries are edited alike, some coming and going (`Manifest.inPlace`).
public struct ItemSpans: Sendable, Equatable {
    /// Item `i` is `starts[i]..<ends[i]`.
    private var starts: [Int] = []
    private var ends: [Int] = []

    public init() {}

    public var count: Int { starts.count }

    /// Appends `item` to `output` as the next item, noting where it lies.
    public mutating func append(_ item: [UInt8], to output: inout some ByteSink) {
        starts.append(output.count)
        output.append(contentsOf: item)
        ends.append(output.count)
    }

    /// Whether these spans can be those of `bytes` with `count` items: as many, and inside it.
    public func fit(_ bytes: [UInt8], count: Int) -> Bool {
        self.count == count && (ends.last ?? 0) <= bytes.count
    }

    /// One change to a list document: at `position` (an item's index in the last document, or its count
    /// for the end) the last item is dropped when `dropsItem`, and `item` goes there when given.
    public struct Edit: Sendable {
        let position: Int
        let dropsItem: Bool
        let item: [UInt8]?

        public static func replacing(_ position: Int, with item: [UInt8]) -> Edit { Edit(position: position, dropsItem: true, item: item) }
        public static func inserting(_ item: [UInt8], at position: Int) -> Edit { Edit(position: position, dropsItem: false, item: item) }
        public static func removing(_ position: Int) -> Edit { Edit(position: position, dropsItem: true, item: nil) }

        /// This edit `offset` items further on: for a list whose items follow another's in one document.
        public func shifted(by offset: Int) -> Edit {
            Edit(position: position + offset, dropsItem: dropsItem, item: item)
        }
    }

    /// The edits that bring a list of items sorted by key up to date at `keys` (sorted: those that may have
    /// come, gone or changed), given `order`, the last list's keys: each is made again by `item`, or removed
    /// when it gives nil. Also the new list's keys.
    public static func edits(order: [String], at keys: [String], item: (String) -> [UInt8]?) -> (edits: [Edit], order: [String]) {
        var edits: [Edit] = [], made: [String] = [], next = 0
        made.reserveCapacity(order.count + keys.count)
        for key in keys {
            let index = order.insertionIndex(of: key)
            let listed = index < order.count && order[index] == key
            made.append(contentsOf: order[next..<index])
            next = listed ? index + 1 : index
            if let item = item(key) {
                edits.append(listed ? .replacing(index, with: item) : .inserting(item, at: index))
                made.append(key)
            } else if listed {
                edits.append(.removing(index))
            }
        }
        made.append(contentsOf: order[next...])
        return (edits, made)
    }

    /// `last`, the document these spans describe (with at least one item), with `edits` made, and the spans
    /// of the result. The edits come in ascending positions, an insertion before a replacement or removal at
    /// the same position. The last items between edits are copied as they were, with what lies between them;
    /// `separator` joins an edited item to its neighbours (`,` in a JSON list; nothing for CSV rows, which end
    /// their own lines). What comes before the first item and after the last is `last`'s, or `head` and `tail`.
    /// `unchanged` counts the bytes at the start that are `last`'s. The result is written `into` a buffer from
    /// `SpareBuffers` when given one.
    public func splicing(
        _ last: [UInt8], _ edits: [Edit], separator: [UInt8], head: [UInt8]? = nil, tail: [UInt8]? = nil, into buffer: consuming [UInt8] = []
    ) -> (bytes: [UInt8], spans: ItemSpans, unchanged: Int) {
        precondition(count > 0, "a document without items has no known head")
        var bytes = consume buffer
        bytes.removeAll(keepingCapacity: true)
        SpareBuffers.reserve(last.count + edits.reduce(0) { $0 + ($1.item?.count ?? 0) + separator.count }, in: &bytes)
        var spans = ItemSpans()
        spans.starts.reserveCapacity(count + edits.count)
        spans.ends.reserveCapacity(count + edits.count)
        if let head { bytes.append(contentsOf: head) } else { bytes.append(contentsOf: last[..<starts[0]]) }
        // The last items from `next` on are not yet copied or dropped.
        var next = 0
        func copyItems(upTo end: Int) {
            guard next < end else { return }
            if spans.count > 0 { bytes.append(contentsOf: separator) }
            let shift = bytes.count - starts[next]
            bytes.append(contentsOf: last[starts[next]..<ends[end - 1]])
            spans.starts.append(contentsOf: starts[next..<end].lazy.map { $0 + shift })
            spans.ends.append(contentsOf: ends[next..<end].lazy.map { $0 + shift })
            next = end
        }
        for edit in edits {
            copyItems(upTo: edit.position)
            if let item = edit.item {
                if spans.count > 0 { bytes.append(contentsOf: separator) }
                spans.append(item, to: &bytes)
            }
            if edit.dropsItem { next = edit.position + 1 }
        }
        copyItems(upTo: count)
        if let tail { bytes.append(contentsOf: tail) } else { bytes.append(contentsOf: last[ends[count - 1]...]) }
        // Up to the first edit: its item, and the separator before it, come after the last item before it.
        let unchanged = head != nil ? 0 : edits.first.map { $0.position == 0 ? starts[0] : ends[$0.position - 1] } ?? min(bytes.count, last.count)
        return (bytes, spans, unchanged)
    }
}
