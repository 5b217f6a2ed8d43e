import Foundation

/// How search reads text: folded, then cut into words. The search page's script (`assets/search.js`,
/// `fold` and `words`) does exactly the same to what a visitor types; README's "Search" states the rules.
///
/// Folding: lowercase; compatibility decomposition (NFKD: `ﬁ` → `fi`, full-width `Ａ` → `a`); combining
/// marks dropped (`é` → `e`); the letters that have no decomposition replaced (`ł` → `l`, `ß` → `ss`…, see
/// `letters`); then composed again (NFC), so Hangul stays in syllables. A word is a run of letters and
/// numbers (Unicode categories L and N); a run of CJK characters (`isCJK`) is a word of its own even when it
/// touches other letters.
public enum SearchWords {
    /// Letters that folding keeps apart from their base letter, and what search reads them as.
    static let letters: [Unicode.Scalar: String] = [
        "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "ł": "l", "đ": "d", "ð": "d", "þ": "th", "ħ": "h", "ı": "i",
        "ŧ": "t", "ŀ": "l", "ĸ": "k", "ŋ": "n", "ſ": "s", "ǥ": "g", "ƀ": "b", "ɨ": "i", "ʉ": "u",
        // Browsers lowercase a word-final Σ to ς, Swift always to σ: both read as σ.
        "ς": "σ",
    ]

    /// The folded words of `text`, in order.
    public static func words(_ text: String) -> [String] {
        var cutter = WordCutter()
        for byte in text.utf8 { cutter.add(byte) }
        cutter.end()
        return cutter.words
    }

    /// Cuts UTF-8 into words. An all-ASCII word (where folding is lowercasing) is made byte by byte; a word
    /// with any other character goes, with the bytes around it up to the next ASCII separator, through
    /// `unicodeWords`, which gives the same result as folding the whole text at once.
    private struct WordCutter {
        var words: [String] = []
        private var ascii: [UInt8] = []
        /// UTF-8 of a stretch that holds non-ASCII characters.
        private var other: [UInt8] = []

        mutating func add(_ byte: UInt8) {
            if byte >= 0x80 {
                other += ascii
                ascii.removeAll(keepingCapacity: true)
                other.append(byte)
                return
            }
            let lower = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 0x20 : byte
            let isWordByte = (lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")) || (lower >= UInt8(ascii: "0") && lower <= UInt8(ascii: "9"))
            if !isWordByte {
                end()
            } else if other.isEmpty {
                ascii.append(lower)
            } else {
                other.append(byte)
            }
        }

        mutating func end() {
            if !other.isEmpty { words += SearchWords.unicodeWords(String(decoding: other, as: UTF8.self)) }
            if !ascii.isEmpty { words.append(String(decoding: ascii, as: UTF8.self)) }
            // Kept for the next word: a new buffer for each word took a third of the time cutting text into words.
            other.removeAll(keepingCapacity: true)
            ascii.removeAll(keepingCapacity: true)
        }
    }

    /// The words of a stretch that holds non-ASCII characters, through full folding.
    static func unicodeWords(_ text: String) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        var wordIsCJK = false
        func end() {
            if !word.isEmpty { words.append(String(word)) }
            word = String.UnicodeScalarView()
        }
        for scalar in fold(text).unicodeScalars {
            guard isWordScalar(scalar) else {
                end()
                continue
            }
            let cjk = isCJK(scalar)
            if !word.isEmpty && cjk != wordIsCJK { end() }
            wordIsCJK = cjk
            word.append(scalar)
        }
        end()
        return words
    }

    /// Lowercase, NFKD, combining marks dropped, `letters` replaced, NFC.
    static func fold(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.lowercased().decomposedStringWithCompatibilityMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            if let replacement = letters[scalar] { kept.append(contentsOf: replacement.unicodeScalars) } else { kept.append(scalar) }
        }
        return String(kept).precomposedStringWithCanonicalMapping
    }

    static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// Han, kana, Hangul and Bopomofo: scripts written without spaces between words, searched by substring.
    public static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x11FF, 0x2E80...0x2FDF, 0x3040...0x318F, 0x31A0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA960...0xA97F,
            0xAC00...0xD7FF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3134F:
            return true
        default:
            return false
        }
    }
}
