import OrderedCollections
import SiteModel
import Support

/// What a page is rendered from, as one SHA-256: the template set's fingerprint, the template's name and
/// the context. Rendering is a pure function of these, so equal keys mean equal bytes.
///
/// The context goes in as a tagged, length-prefixed byte encoding rather than as JSON: strings are copied
/// whole instead of scanned for escapes (JSON of every page's context was a tenth of a build's
/// instructions), and the encoding tells text from HTML, which JSON would not.
///
/// What many pages share (a list page's cards, its page links, the kind) can go in as a stand-in: a smaller
/// value, such as the `digest(of:)` of the shared value, from which the field's value follows. On the
/// 43,000-listing benchmark, encoding each card once per listing rather than once per list page showing
/// it took the keys from 10 % of the CPU samples of a `check` to 4–5 %.
enum RenderKey {
    /// `standIns` replace top-level fields of the context in the key; each must determine its field's value.
    static func of(fingerprint: String, template: String, context: Value, standIns: [String: Value] = [:]) -> SHA256.Digest {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8192)
        appendText(fingerprint, to: &bytes)
        appendText(template, to: &bytes)
        if case .object(let fields) = context {
            appendObject(fields, standIns: standIns, to: &bytes)
        } else {
            append(context, to: &bytes)
        }
        return SHA256.digest(bytes)
    }

    /// SHA-256 of the value's encoding: a stand-in for a value many pages share, made once.
    static func digest(of value: Value) -> String {
        compactDigest(of: value).hex
    }

    /// `digest(of:)` in its 32 bytes, for stand-ins held for every listing until pages ask for them.
    static func compactDigest(of value: Value) -> SHA256.Digest {
        var bytes: [UInt8] = []
        append(value, to: &bytes)
        return SHA256.digest(bytes)
    }

    /// `digest(of: .list(items))` for `count` items made one at a time and let go after, for a list too long
    /// to hold whole: a map page's stand-ins for every place of a kind were 50 MB at 100,000 places.
    static func digest(ofListOf count: Int, item: (Int) -> Value) -> String {
        let parts = SHA256.Parts()
        var bytes: [UInt8] = [Tag.list.rawValue]
        appendInteger(Int64(count), to: &bytes)
        for index in 0..<count {
            append(item(index), to: &bytes)
            if bytes.count >= 64 * 1024 {
                bytes.withUnsafeBytes(parts.add)
                bytes.removeAll(keepingCapacity: true)
            }
        }
        bytes.withUnsafeBytes(parts.add)
        return parts.digest().hex
    }

    private enum Tag: UInt8 {
        case null, `false`, `true`, int, decimal, string, date, html, list, object, standIn
    }

    private static func append(_ value: Value, to bytes: inout [UInt8]) {
        switch value {
        case .null: bytes.append(Tag.null.rawValue)
        case .bool(let flag): bytes.append(flag ? Tag.true.rawValue : Tag.false.rawValue)
        case .int(let number):
            bytes.append(Tag.int.rawValue)
            appendInteger(number, to: &bytes)
        case .decimal(let number):
            bytes.append(Tag.decimal.rawValue)
            appendInteger(number.units, to: &bytes)
            appendInteger(Int64(number.scale), to: &bytes)
        case .string(let text):
            bytes.append(Tag.string.rawValue)
            appendText(text, to: &bytes)
        case .html(let text):
            bytes.append(Tag.html.rawValue)
            appendText(text, to: &bytes)
        case .date(let date):
            bytes.append(Tag.date.rawValue)
            appendInteger(Int64(date.year), to: &bytes)
            appendInteger(Int64(date.month), to: &bytes)
            appendInteger(Int64(date.day), to: &bytes)
        case .list(let items):
            bytes.append(Tag.list.rawValue)
            appendInteger(Int64(items.count), to: &bytes)
            for item in items { append(item, to: &bytes) }
        case .object(let fields):
            appendObject(fields, standIns: [:], to: &bytes)
        }
    }

    private static func appendObject(_ fields: OrderedDictionary<String, Value>, standIns: [String: Value], to bytes: inout [UInt8]) {
        bytes.append(Tag.object.rawValue)
        appendInteger(Int64(fields.count), to: &bytes)
        for index in fields.keys.indices {
            let key = fields.keys[index]
            appendText(key, to: &bytes)
            if let standIn = standIns[key] {
                bytes.append(Tag.standIn.rawValue)
                append(standIn, to: &bytes)
            } else {
                append(fields.values[index], to: &bytes)
            }
        }
    }

    /// The length, then the UTF-8 bytes in one copy (read in place: no copy of the string to make it contiguous,
    /// which native strings always are).
    private static func appendText(_ text: String, to bytes: inout [UInt8]) {
        appendInteger(Int64(text.utf8.count), to: &bytes)
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
    }

    private static func appendInteger(_ number: Int64, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: number.littleEndian) { bytes.append(contentsOf: $0) }
    }
}
