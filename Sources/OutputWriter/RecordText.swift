import Foundation
import SiteModel

/// The build record's text: lines of tab-separated fields, read as bytes without a string per line.
enum RecordText {
    typealias Line = Slice<UnsafeBufferPointer<UInt8>>

    /// The lines of a run of bytes, without their line ends.
    struct Lines: IteratorProtocol, Sequence {
        private var rest: Line

        init(_ bytes: Line) {
            rest = bytes
        }

        mutating func next() -> Line? {
            guard !rest.isEmpty else { return nil }
            let end = rest.firstIndex(ofByte: UInt8(ascii: "\n")) ?? rest.endIndex
            defer { rest = rest[(end == rest.endIndex ? end : end + 1)...] }
            return rest[..<end]
        }
    }

    /// A line's tab-separated fields one after another, without an array of them.
    struct Fields {
        private var rest: Line
        private var ended = false

        /// The rest of the line after the fields `next()` gave, tabs and all; nil once it gave the line's last field.
        var remainder: Line? { ended ? nil : rest }

        init(_ line: Line) {
            rest = line
        }

        /// The next field; the last one runs to the line's end.
        mutating func next() -> Line? {
            guard !ended else { return nil }
            guard let tab = rest.firstIndex(ofByte: UInt8(ascii: "\t")) else {
                ended = true
                return rest
            }
            defer { rest = rest[(tab + 1)...] }
            return rest[..<tab]
        }
    }

    /// Appends a line of `fields` (which hold no tab or line end).
    static func append(_ fields: [String], to output: inout some ByteSink) {
        output.append(contentsOf: line(fields))
    }

    /// A line of `fields` (which hold no tab or line end), with its line end.
    static func line(_ fields: [String]) -> [UInt8] {
        var line: [UInt8] = []
        for (index, field) in fields.enumerated() {
            if index > 0 { line.append(UInt8(ascii: "\t")) }
            line.append(contentsOf: field.utf8)
        }
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// Where to cut `bytes` into about `count` runs of whole lines, for reading on several cores.
    static func runs(of bytes: Line, count: Int) -> [Range<Int>] {
        var runs: [Range<Int>] = []
        var start = bytes.startIndex
        let step = max(1, bytes.count / max(1, count))
        while start < bytes.endIndex {
            let cut = min(start + step, bytes.endIndex)
            let end = cut == bytes.endIndex ? cut : (bytes[cut...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.endIndex)
            runs.append(start..<end)
            start = end
        }
        return runs
    }
}

extension Slice where Base == UnsafeBufferPointer<UInt8> {
    /// The bytes as a string (a record is checked to be UTF-8 before its lines are read).
    var text: String { String(decoding: UnsafeBufferPointer(rebasing: self), as: UTF8.self) }

    /// The non-negative decimal number the bytes spell; nil when they spell none.
    var decimal: Int? {
        guard !isEmpty, count <= 18 else { return nil }
        var value = 0
        for byte in self {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Where `byte` first occurs, found by `memchr`: the generic search goes a byte at a time, and a
    /// no-change rebuild reads a record of 200 MB for its line ends at 430,000 listings.
    func firstIndex(ofByte byte: UInt8) -> Int? {
        guard !isEmpty else { return nil }
        let first = base.baseAddress!
        return memchr(first + startIndex, Int32(byte), count).map { UnsafePointer($0.assumingMemoryBound(to: UInt8.self)) - first }
    }

    /// A line's tab-separated fields, at most `max` of them: the last takes the rest of the line, tabs and all.
    func fields(max: Int) -> [Self] {
        var reader = RecordText.Fields(self)
        var fields: [Self] = []
        while fields.count < max - 1, let field = reader.next() {
            fields.append(field)
        }
        if let rest = reader.remainder { fields.append(rest) }
        return fields
    }
}
