/// The SHA-256 of a document, with the digest's state kept at every mebibyte of it, so that the digest of a
/// document that begins with the same bytes goes on from the last state before they differ rather than
/// starting over. An edit in place splices one listing's item into a kind's JSON (400 MB at 430,000
/// listings): everything before it is the last document's.
public struct ResumableDigest: @unchecked Sendable {
    public static let stride = 1 << 20
    public let digest: SHA256.Digest
    public let size: Int
    /// The state after `(index + 1) * stride` bytes; never added to once kept (hence `@unchecked Sendable`).
    private let states: [SHA256.Parts]

    public init(of bytes: [UInt8]) {
        self.init(bytes, resuming: nil, sameFor: 0)
    }

    /// The digest of `bytes`, whose first `unchanged` bytes are those `last` was made from.
    public init(of bytes: [UInt8], resuming last: ResumableDigest, sameFor unchanged: Int) {
        self.init(bytes, resuming: last, sameFor: unchanged)
    }

    private init(_ bytes: [UInt8], resuming last: ResumableDigest?, sameFor unchanged: Int) {
        let kept = min(last?.states.count ?? 0, min(unchanged, bytes.count) / Self.stride)
        var states = Array(last?.states.prefix(kept) ?? [])
        let parts = kept > 0 ? states[kept - 1].copy() : SHA256.Parts()
        var offset = kept * Self.stride
        bytes.withUnsafeBytes { buffer in
            while offset < buffer.count {
                let end = min(offset + Self.stride, buffer.count)
                parts.add(UnsafeRawBufferPointer(rebasing: buffer[offset..<end]))
                if end - offset == Self.stride { states.append(parts.copy()) }
                offset = end
            }
        }
        digest = parts.digest()
        size = bytes.count
        self.states = states
    }
}
