import CCrypto

/// SHA-256 through OpenSSL's EVP interface: the manifest's digests, render keys, the build record's name and
/// the image cache's keys all use this one implementation.
public enum SHA256 {
    /// The digest in lowercase hex.
    public static func hex(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { hex($0) }
    }

    /// The digest in lowercase hex, of bytes anywhere in memory (a file mapped rather than read).
    public static func hex(_ bytes: UnsafeRawBufferPointer) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        let length = digest.withUnsafeMutableBufferPointer { compute(bytes, into: $0.baseAddress!) }
        // Two table lookups a byte: String(radix:) per byte cost more than the digest of a small page.
        var hex: [UInt8] = []
        hex.reserveCapacity(length * 2)
        for byte in digest.prefix(length) {
            hex.append(lowercaseHexDigits[Int(byte >> 4)])
            hex.append(lowercaseHexDigits[Int(byte & 0xF)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    public static func hex(_ text: String) -> String {
        hex(Array(text.utf8))
    }

    /// The digest's first 128 bits, as two words.
    public static func prefix128(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Int(EVP_MAX_MD_SIZE) / 8) { words in
            _ = compute(bytes, into: UnsafeMutableRawPointer(words.baseAddress!).assumingMemoryBound(to: UInt8.self))
            return (words[0], words[1])
        }
    }

    /// Writes the digest of `bytes` at `digest` (room for `EVP_MAX_MD_SIZE` bytes); returns its length.
    private static func compute(_ bytes: UnsafeRawBufferPointer, into digest: UnsafeMutablePointer<UInt8>) -> Int {
        var length: UInt32 = 0
        let ok = EVP_Digest(bytes.baseAddress, bytes.count, digest, &length, EVP_sha256(), nil)
        precondition(ok == 1, "OpenSSL could not compute SHA-256")
        return Int(length)
    }
}

/// ASCII `0`–`9`, `a`–`f`, indexed by value: for SHA-256 digests in hex and `\u00XX` escapes in JSON.
public let lowercaseHexDigits = Array("0123456789abcdef".utf8)
