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

    /// Adds the line "path<tab>stamp", put together on the stack: this runs for every input before every build.
    mutating func add(path: String, stamp: InputStamp) {
        let (first, second) = Self.lineDigest(path: path, stamp: stamp)
        self.first &+= first
        self.second &+= second
    }

    /// Adds the lines another digest added (a sum, so lines scanned apart add up to the same digest).
    mutating func add(_ other: StampsDigest) {
        first &+= other.first
        second &+= other.second
    }

    /// Takes back what `add` added for the same line.
    mutating func remove(path: String, stamp: InputStamp) {
        let (first, second) = Self.lineDigest(path: path, stamp: stamp)
        self.first &-= first
        self.second &-= second
    }

    private static func lineDigest(path: String, stamp: InputStamp) -> (UInt64, UInt64) {
        let path = path.utf8
        return stamp.withText { stamp in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: path.count + 1 + stamp.count) { line in
                var end = line.initialize(fromContentsOf: path)
                line[end] = UInt8(ascii: "\t")
                end = line[(end + 1)...].initialize(fromContentsOf: stamp)
                return SHA256.prefix128(UnsafeRawBufferPointer(line))
            }
        }
    }

    public var description: String {
        [first, second].map { word in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
    }
}
