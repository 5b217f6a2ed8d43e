/// Finds the next byte that needs escaping in UTF-8 text eight bytes at a time: each 64-bit word is tested
/// for such a byte with a few arithmetic operations (a SWAR test), and only a word that has one is read byte
/// by byte. Most text written into JSON, HTML and CSV has none, and byte-by-byte loops over it were most of
/// the time its writers took.
enum ByteScan {
    /// The offset of the first byte from `start` on for which `isSpecial` holds, or `bytes.count`.
    /// `wordHolds` must be true of every eight bytes (read as a little-endian word) that hold such a byte.
    @inline(__always)
    static func next(
        in bytes: UnsafeBufferPointer<UInt8>, from start: Int, wordHolds: (UInt64) -> Bool, isSpecial: (UInt8) -> Bool
    ) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var index = start
        while true {
            while index + 8 <= bytes.count, !wordHolds(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))) {
                index += 8
            }
            let wordEnd = min(index + 8, bytes.count)
            while index < wordEnd {
                if isSpecial(base[index]) { return index }
                index += 1
            }
            if index == bytes.count { return index }
        }
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether any byte of `word` is below `limit`, which is at most 0x80. Exact as a yes or no, though
    /// the bits it sets above the first such byte may be wrong.
    @inline(__always)
    static func hasByte(below limit: UInt8, in word: UInt64) -> Bool {
        (word &- ones &* UInt64(limit)) & ~word & highBits != 0
    }

    @inline(__always)
    static func hasByte(_ byte: UInt8, in word: UInt64) -> Bool {
        hasByte(below: 1, in: word ^ (ones &* UInt64(byte)))
    }
}
