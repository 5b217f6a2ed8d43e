import CCollation
import Foundation

/// The order of text in the site's language: the Unicode Collation Algorithm with that language's tailoring
/// (ICU), ignoring case and accents, with numbers inside text compared as numbers ("Cleaner 6" before
/// "Cleaner 10"). In English "Łukasz" sorts with the L's, in Polish after them; both before "Mateusz".
/// Each text's sort key is made once and sorting compares keys byte by byte, which is what makes a
/// language-aware order affordable for tens of thousands of listings.
public final class Collation: @unchecked Sendable {
    /// ICU's collator, used only through `noticeboard_sort_key`, which ICU allows from many threads at once.
    private let collator: UnsafeMutableRawPointer?
    public let language: String

    /// `language` is a BCP 47 tag (`en-IE`); one ICU does not know sorts by the Unicode default (root) order.
    public init(language: String) {
        self.language = language
        collator = noticeboard_collator_open(language.replacingOccurrences(of: "-", with: "_"))
    }

    deinit {
        if let collator { noticeboard_collator_close(collator) }
    }

    /// Bytes whose lexicographic order is the text's collation order.
    public func key(_ text: String) -> [UInt8] {
        guard let collator else { return Array(text.lowercased().utf8) }
        let units = Array(text.utf16)
        var key = [UInt8](repeating: 0, count: units.count * 2 + 16)
        let length = units.withUnsafeBufferPointer { units in
            var length = Int(noticeboard_sort_key(collator, units.baseAddress, Int32(units.count), &key, Int32(key.count)))
            if length > key.count {
                key = [UInt8](repeating: 0, count: length)
                length = Int(noticeboard_sort_key(collator, units.baseAddress, Int32(units.count), &key, Int32(key.count)))
            }
            return length
        }
        key.removeSubrange(max(0, length - 1)...)  // the key's terminating zero
        return key
    }

    public func compare(_ x: String, _ y: String) -> ComparisonResult {
        Self.compare(key(x), key(y))
    }

    /// Keys in byte order, a shorter key before a longer one it begins.
    static func compare(_ x: [UInt8], _ y: [UInt8]) -> ComparisonResult {
        let common = min(x.count, y.count)
        let order = common == 0 ? 0 : x.withUnsafeBufferPointer { x in y.withUnsafeBufferPointer { y in memcmp(x.baseAddress!, y.baseAddress!, common) } }
        if order != 0 { return order < 0 ? .orderedAscending : .orderedDescending }
        return x.count < y.count ? .orderedAscending : x.count > y.count ? .orderedDescending : .orderedSame
    }
}
