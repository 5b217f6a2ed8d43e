import OrderedCollections
import SiteModel
import Support

/// Writes the value tree as compact JSON with keys in the tree's order, so output is byte-stable.
/// Hand-written: Foundation's JSONEncoder would need Codable models and sorts keys only alphabetically.
public enum JSONWriter {
    public static func bytes(_ value: Value) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(4096)
        write(value, to: &output)
        output.append(UInt8(ascii: "\n"))
        return output
    }

    /// A value's JSON without the closing newline, for `bytes(_:thenList:of:)` and `bytes(_:followedByFieldsOf:)`
    /// to build into more than one document.
    public struct Encoded: Sendable {
        let bytes: [UInt8]

        fileprivate init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        public var sha256: SHA256.Digest { SHA256.digest(bytes) }
    }

    /// `encoded(.object(fields + more))`, without copying `fields`; `more`'s keys are not in `fields`.
    public static func encoded(_ fields: OrderedDictionary<String, Value>, adding more: OrderedDictionary<String, Value>) -> Encoded {
        guard !more.isEmpty else { return encoded(.object(fields)) }
        var output: [UInt8] = []
        write(.object(fields), to: &output)
        output.removeLast()
        if !fields.isEmpty { output.append(UInt8(ascii: ",")) }
        var tail: [UInt8] = []
        write(.object(more), to: &tail)
        output.append(contentsOf: tail.dropFirst())
        return Encoded(bytes: output)
    }

    public static func encoded(_ value: Value) -> Encoded {
        var output: [UInt8] = []
        write(value, to: &output)
        return Encoded(bytes: output)
    }

    /// `encoded(.object(["path": path, "size": size, "sha256": sha256]))`, written without the value tree:
    /// the manifest and the sync tree have one for every file (800,000 at 430,000 listings).
    public static func fileEntry(path: String, size: Int, sha256: SHA256.Digest) -> Encoded {
        var output: [UInt8] = []
        output.reserveCapacity(path.utf8.count + 64 + 40)
        output.append(contentsOf: #"{"path":"#.utf8)
        writeString(path, to: &output)
        output.append(contentsOf: #","size":"#.utf8)
        output.append(contentsOf: String(size).utf8)
        output.append(contentsOf: #","sha256":""#.utf8)
        sha256.appendHex(to: &output)
        output.append(contentsOf: #""}"#.utf8)
        return Encoded(bytes: output)
    }

    /// `bytes(.object(fields + [name: .list(items)]))`, from the items already encoded.
    /// `items` may be lazy: each is encoded as it is appended, and not kept.
    public static func bytes(_ fields: OrderedDictionary<String, Value>, thenList name: String, of items: some Sequence<Encoded>) -> [UInt8] {
        var output: [UInt8] = []
        _ = listDocument(fields, thenList: name, of: items, into: &output)
        return output
    }

    /// `bytes(_:thenList:of:)` with the `count` items made by `item(index)`, into `output`: encoded in runs on
    /// every core, a batch of runs at a time, so that only a batch is held beside `output` (a stream, for the
    /// manifest: it has an item per file, 800,000 at 430,000 listings, and `serve` makes it again on each edit).
    public static func write(
        _ fields: OrderedDictionary<String, Value>, thenList name: String, count: Int, encodedOnEveryCore item: @Sendable (Int) -> Encoded,
        into output: inout some ByteSink
    ) {
        output.append(contentsOf: listHead(fields, name))
        let runs = (0..<count).runs(of: 4096)
        for batch in runs.indices.runs(of: 16) {
            let made = Array(runs[batch]).parallelMap { run in
                var bytes: [UInt8] = run.lowerBound > 0 ? [UInt8(ascii: ",")] : []
                for index in run {
                    if index > run.lowerBound { bytes.append(UInt8(ascii: ",")) }
                    bytes.append(contentsOf: item(index).bytes)
                }
                return bytes
            }
            for run in made { output.append(contentsOf: run) }
        }
        output.append(contentsOf: Array("]}\n".utf8))
    }

    /// The start of a list document: `fields`' object, left open, then `"name":[`.
    private static func listHead(_ fields: OrderedDictionary<String, Value>, _ name: String) -> [UInt8] {
        var head: [UInt8] = []
        writeOpenObject(fields, to: &head)
        writeString(name, to: &head)
        head.append(contentsOf: ":[".utf8)
        return head
    }

    /// `bytes(_:thenList:of:)` into `output`; returns where each item lies in it.
    static func listDocument(
        _ fields: OrderedDictionary<String, Value>, thenList name: String, of items: some Sequence<Encoded>, into output: inout some ByteSink
    ) -> ItemSpans {
        var spans = ItemSpans()
        output.append(contentsOf: listHead(fields, name))
        for (index, item) in items.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            spans.append(item.bytes, to: &output)
        }
        output.append(contentsOf: Array("]}\n".utf8))
        return spans
    }

    /// `bytes(.object(first + rest))` where `rest` is an encoded object whose keys are not in `first`.
    public static func bytes(_ first: OrderedDictionary<String, Value>, followedByFieldsOf rest: Encoded) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(rest.bytes.count + 256)
        let restIsEmpty = rest.bytes.count == 2
        if restIsEmpty {
            write(.object(first), to: &output)
        } else {
            writeOpenObject(first, to: &output)
            output.append(contentsOf: rest.bytes.dropFirst())
        }
        output.append(UInt8(ascii: "\n"))
        return output
    }

    /// The object without its closing brace, ready for more fields: a comma follows its last field, if any.
    private static func writeOpenObject(_ fields: OrderedDictionary<String, Value>, to output: inout [UInt8]) {
        write(.object(fields), to: &output)
        output.removeLast()
        if !fields.isEmpty { output.append(UInt8(ascii: ",")) }
    }

    public static func write(_ value: Value, to output: inout [UInt8]) {
        switch value {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let flag): output.append(contentsOf: (flag ? "true" : "false").utf8)
        case .int(let number): output.append(contentsOf: String(number).utf8)
        case .decimal(let number): output.append(contentsOf: number.description.utf8)
        case .string(let text), .html(let text): writeString(text, to: &output)
        case .date(let date): writeString(date.description, to: &output)
        case .list(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(item, to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let fields):
            output.append(UInt8(ascii: "{"))
            for (index, (key, item)) in fields.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                write(item, to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Copies runs of bytes that need no escape in one append each: most text has no quote, backslash or control byte.
    private static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            var runStart = 0
            var index = nextToEscape(in: bytes, from: 0)
            while index < bytes.count {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                writeEscaped(bytes[index], to: &output)
                runStart = index + 1
                index = nextToEscape(in: bytes, from: runStart)
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }

    /// The next control byte, quote or backslash.
    private static func nextToEscape(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        ByteScan.next(
            in: bytes, from: start,
            wordHolds: { ByteScan.hasByte(below: 0x20, in: $0) || ByteScan.hasByte(UInt8(ascii: "\""), in: $0) || ByteScan.hasByte(UInt8(ascii: "\\"), in: $0) },
            isSpecial: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
    }

    private static func writeEscaped(_ byte: UInt8, to output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case UInt8(ascii: "\n"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case UInt8(ascii: "\r"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case UInt8(ascii: "\t"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        default:
            output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
            output.append(lowercaseHexDigits[Int(byte >> 4)])
            output.append(lowercaseHexDigits[Int(byte & 0xF)])
        }
    }
}
