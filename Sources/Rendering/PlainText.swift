/// The text of HTML the build made from Markdown (cmark-gfm escapes only `&`, `<`, `>` and `"`): a tag that
/// starts or ends a block separates words, an inline one (a link, emphasis) does not; whitespace runs, line
/// breaks included, become one space. Read byte by byte: each listing takes it for its description, its JSON-LD
/// and its search card.
func plainText(ofHTML html: String) -> String {
    var html = html
    return html.withUTF8 { bytes in
        var text = PlainTextWriter(capacity: bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<") {
                // A tag never closed holds the rest of the text.
                guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) else { break }
                if !HTMLTag(bytes[(index + 1)..<end]).isInline { text.appendWhitespace() }
                index = end + 1
            } else if byte == UInt8(ascii: "&"), let (length, character) = entity(at: index, in: bytes) {
                text.append(character)
                index += length
            } else if byte < 0x80 {
                if byte == 0x20 || (0x09...0x0D).contains(byte) { text.appendWhitespace() } else { text.append(byte) }
                index += 1
            } else {
                let scalar = bytes[index..<min(index + scalarLength(byte), bytes.count)]
                if isWhitespace(scalar) { text.appendWhitespace() } else { text.append(scalar) }
                index += scalar.count
            }
        }
        return text.string
    }
}

/// The start of `text` within `length` characters, cut at a word, with "…" when the text goes on. Counted up to
/// the length only: a description runs to thousands of characters.
func textStart(_ text: String, length: Int) -> String {
    guard let end = text.index(text.startIndex, offsetBy: length, limitedBy: text.endIndex), end < text.endIndex else { return text }
    let cut = text[..<end]
    // A space just past the cut ends the last word within it.
    if text[end] == " " { return cut + "…" }
    return (cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut) + "…"
}

/// Appends text a byte at a time, folding each whitespace run into one space and dropping it at the start
/// and end.
private struct PlainTextWriter {
    private var bytes: [UInt8] = []
    private var pendingSpace = false

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func appendWhitespace() {
        pendingSpace = !bytes.isEmpty
    }

    mutating func append(_ byte: UInt8) {
        if pendingSpace { bytes.append(UInt8(ascii: " ")) }
        pendingSpace = false
        bytes.append(byte)
    }

    mutating func append(_ scalar: Slice<UnsafeBufferPointer<UInt8>>) {
        for byte in scalar { append(byte) }
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }
}

/// A tag's name read from what is between `<` and `>`: after any `/`, the run of letters and digits.
private struct HTMLTag {
    let isInline: Bool

    init(_ inside: Slice<UnsafeBufferPointer<UInt8>>) {
        // A comment stands where raw HTML was left out (`<!-- raw HTML omitted -->`), often inside a sentence.
        if inside.first == UInt8(ascii: "!") {
            isInline = true
            return
        }
        guard inside.allSatisfy({ $0 < 0x80 }) else {
            // Names with other letters are read by Character, as any text is.
            let name = String(decoding: inside, as: UTF8.self).drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }
            isInline = inlineTags.contains(name.lowercased())
            return
        }
        let name = inside.drop { $0 == UInt8(ascii: "/") }.prefix { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        isInline = ASCIIName(lowercasing: name).map(inlineASCIINames.contains) ?? false
    }
}

/// An ASCII name of up to 8 bytes in one integer, lowercased: tags are matched without making a String of each.
private struct ASCIIName: Hashable {
    private let packed: UInt64

    init?(lowercasing name: some Collection<UInt8>) {
        guard name.count <= 8 else { return nil }
        packed = name.reduce(0) { packed, byte in
            packed << 8 | UInt64((UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte)
        }
    }
}

/// The entities cmark-gfm writes in text, after their `&`: (bytes read, byte meant).
private func entity(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (Int, UInt8)? {
    let rest = bytes[(index + 1)...]
    for (name, character) in entities where rest.starts(with: name.utf8) { return (name.utf8.count + 1, character) }
    return nil
}

private let entities: [(name: String, character: UInt8)] = [
    ("lt;", UInt8(ascii: "<")), ("gt;", UInt8(ascii: ">")), ("quot;", UInt8(ascii: "\"")), ("#39;", UInt8(ascii: "'")), ("amp;", UInt8(ascii: "&")),
]

private let inlineTags: Set<String> = ["a", "em", "strong", "code", "del", "s", "span", "sup", "sub", "b", "i", "img"]
private let inlineASCIINames = Set(inlineTags.compactMap { ASCIIName(lowercasing: $0.utf8) })

/// The bytes of the UTF-8 sequence a lead byte starts.
private func scalarLength(_ lead: UInt8) -> Int {
    switch lead {
    case ..<0xC0: return 1
    case ..<0xE0: return 2
    case ..<0xF0: return 3
    default: return 4
    }
}

/// Unicode's White_Space, for a scalar past ASCII (no-break space, the ideographic space…).
private func isWhitespace(_ scalar: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    guard let decoded = String(decoding: scalar, as: UTF8.self).unicodeScalars.first else { return false }
    return decoded.properties.isWhitespace
}
