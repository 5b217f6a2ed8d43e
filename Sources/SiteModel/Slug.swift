import Foundation

/// Slugs name listings in URLs and references: lowercase ASCII words joined by single hyphens.
public enum Slug {
    /// The longest name that may become part of an output path, in bytes. A file system takes at most 255
    /// bytes for one part, and Noticeboard adds to some (`<slug>.json`, `<name>-1280w.<hash>.webp`, `-2`): this
    /// leaves room for that, and every name that makes a part is checked against it where it is written.
    public static let maxBytes = 200

    /// Nil, or why the web-address part that `text` makes (`slug`) is too long.
    public static func tooLong(_ what: String, slug: String) -> String? {
        guard slug.utf8.count > maxBytes else { return nil }
        return "\(what) makes a web-address part of \(slug.utf8.count) bytes ('\(slug.prefix(30))…'); the limit is \(maxBytes) bytes (a file system takes 255 for a name, and Noticeboard adds to it), so shorten it"
    }

    /// The slug a file name stands for: `Siobhán Ó Súilleabháin.yaml` → `siobhan-o-suilleabhain`.
    /// Letters are transliterated to ASCII; every other run of characters becomes one hyphen.
    public static func from(fileName: String) -> String {
        var stem = fileName
        if let dot = stem.lastIndex(of: ".") { stem = String(stem[..<dot]) }
        return from(text: stem)
    }

    /// The slug of any text, such as a facet value: `Outdoor & camping` → `outdoor-camping`.
    public static func from(text stem: String) -> String {
        // ICU's transliterator costs about 0.2 M instructions a call; ASCII text (most file names) only needs lowercasing.
        let ascii = stem.utf8.allSatisfy { $0 < 0x80 }
            ? stem.lowercased() : stem.applyingTransform(StringTransform("Any-Latin; Latin-ASCII; Lower"), reverse: false) ?? stem.lowercased()
        var slug = ""
        var pendingHyphen = false
        for byte in ascii.utf8 {
            let isWordByte = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            if isWordByte {
                if pendingHyphen && !slug.isEmpty { slug.append("-") }
                pendingHyphen = false
                slug.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                pendingHyphen = true
            }
        }
        return slug
    }

    /// True for `aoife-byrne`; false for `Aoife`, `-a`, `a--b` or anything over 100 bytes.
    public static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, let last = bytes.last, first != UInt8(ascii: "-"), last != UInt8(ascii: "-"),
            bytes.count <= 100
        else { return false }
        var previousHyphen = false
        for byte in bytes {
            let isHyphen = byte == UInt8(ascii: "-")
            let isWordByte = (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            if !(isHyphen || isWordByte) || (isHyphen && previousHyphen) { return false }
            previousHyphen = isHyphen
        }
        return true
    }
}
