import Support

/// An order-free digest of input stamps: each entry's path and stamp hashed with SHA-256, and the first two
/// words of those hashes summed, each on its own. The same stamps give the same digest in whatever order a
/// scan meets them, so telling whether anything changed compares one value with the build record's rather
/// than sorting hundreds of thousands of lines as the record keeps them.
public struct StampsDigest: Hashable, Sendable, CustomStringConvertible {
    private var first: UInt64 = 0
    private var second: UInt64 = 0

    public init() {}

    /// Reads `description`'s 32 hex digits.
    public init?(_ text: String) {
        guard text.utf8.count == 32, let first = UInt64(text.prefix(16), radix: 16), let second = UInt64(text.suffix(16), radix: 16) else {
            return nil
        }
        (self.first, self.second) = (first, second)
    }

    mutating func add(path: String, stamp: String) {
        var line = path + "\t" + stamp
        let (first, second) = line.withUTF8 { SHA256.prefix128(UnsafeRawBufferPointer($0)) }
        self.first &+= first
        self.second &+= second
    }

    public var description: String {
        [first, second].map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}
