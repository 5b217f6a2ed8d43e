/// Where a document's bytes go as it is made: an array that holds them all, or a `ByteStream` that hands
/// them on in parts. `count` is how many were appended, so a document's writer knows where its items lie.
public protocol ByteSink {
    var count: Int { get }
    mutating func append(contentsOf bytes: [UInt8])
    mutating func append(_ byte: UInt8)
}

extension Array: ByteSink where Element == UInt8 {}

/// Bytes handed on in parts of about `partSize` as they are made, for a document too large to hold whole:
/// a kind's JSON is 400 MB at 100,000 listings, and held whole (in a buffer grown to twice that) it was
/// the peak of a build's memory.
public struct ByteStream: ByteSink {
    public private(set) var count = 0
    private var part: [UInt8] = []
    private let partSize: Int
    private let take: ([UInt8]) -> Void

    public static let defaultPartSize = 1 << 20

    public init(partSize: Int = defaultPartSize, take: @escaping ([UInt8]) -> Void) {
        self.partSize = partSize
        self.take = take
    }

    public mutating func append(contentsOf bytes: [UInt8]) {
        part.append(contentsOf: bytes)
        count += bytes.count
        if part.count >= partSize { handOn() }
    }

    public mutating func append(_ byte: UInt8) {
        part.append(byte)
        count += 1
        if part.count >= partSize { handOn() }
    }

    /// Hands on what is left: the document is complete.
    public mutating func finish() {
        if !part.isEmpty { handOn() }
    }

    private mutating func handOn() {
        take(part)
        part.removeAll(keepingCapacity: true)
    }

    /// Everything `write` makes, in memory.
    public static func collect(_ write: (inout ByteStream) -> Void) -> [UInt8] {
        var bytes: [UInt8] = []
        var stream = ByteStream { bytes.append(contentsOf: $0) }
        write(&stream)
        stream.finish()
        return bytes
    }
}
