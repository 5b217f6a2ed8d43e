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
        digest(bytes).hex
    }

    /// The digest, held in its 32 bytes.
    public static func digest(_ bytes: UnsafeRawBufferPointer) -> Digest {
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Int(EVP_MAX_MD_SIZE) / 8) { words in
            _ = compute(bytes, into: UnsafeMutableRawPointer(words.baseAddress!).assumingMemoryBound(to: UInt8.self))
            return Digest(words[0], words[1], words[2], words[3])
        }
    }

    public static func digest(_ bytes: [UInt8]) -> Digest {
        bytes.withUnsafeBytes { digest($0) }
    }

    /// A digest of bytes given in parts, for a file written as it is made.
    public final class Parts {
        private let context: OpaquePointer

        public init() {
            context = EVP_MD_CTX_new()
            precondition(EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1, "OpenSSL could not start SHA-256")
        }

        deinit { EVP_MD_CTX_free(context) }

        /// Another digest that has had the same parts added, to go on from here on its own.
        public func copy() -> Parts {
            let copy = Parts()
            precondition(EVP_MD_CTX_copy_ex(copy.context, context) == 1, "OpenSSL could not copy SHA-256")
            return copy
        }

        public func add(_ bytes: UnsafeRawBufferPointer) {
            precondition(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1, "OpenSSL could not compute SHA-256")
        }

        /// The digest of every part added; nothing may be added after.
        public func digest() -> Digest {
            withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Int(EVP_MAX_MD_SIZE) / 8) { words in
                var length: UInt32 = 0
                let bytes = UnsafeMutableRawPointer(words.baseAddress!).assumingMemoryBound(to: UInt8.self)
                precondition(EVP_DigestFinal_ex(context, bytes, &length) == 1, "OpenSSL could not compute SHA-256")
                return Digest(words[0], words[1], words[2], words[3])
            }
        }
    }

    /// A SHA-256 digest in its 32 bytes, for digests held by the hundred thousand: as 64 characters of text
    /// each took 112 bytes and an allocation. `hex` makes the text when it is needed.
    public struct Digest: Hashable, Sendable {
        fileprivate let words: (UInt64, UInt64, UInt64, UInt64)

        init(_ first: UInt64, _ second: UInt64, _ third: UInt64, _ fourth: UInt64) {
            words = (first, second, third, fourth)
        }

        public static func == (a: Digest, b: Digest) -> Bool { a.words == b.words }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
        }

        /// The digest that `hex` gives as `text`; nil for text that is not 64 lowercase hex digits.
        public init?(hex text: some Collection<UInt8>) {
            // Read from contiguous bytes where the text has them: through the generic collection, which is not
            // specialised across modules, each digit cost a call: reading a build record at L took 1.5 s, 0.3 s after.
            guard let digest = text.withContiguousStorageIfAvailable(Self.parse) ?? Array(text).withUnsafeBufferPointer(Self.parse) else { return nil }
            self = digest
        }

        private static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Digest? {
            guard text.count == 64 else { return nil }
            var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
            let valid = withUnsafeMutableBytes(of: &words) { bytes in
                for index in 0..<32 {
                    guard let high = value(ofHexDigit: text[2 * index]), let low = value(ofHexDigit: text[2 * index + 1]) else { return false }
                    bytes[index] = high << 4 | low
                }
                return true
            }
            return valid ? Digest(words.0, words.1, words.2, words.3) : nil
        }

        private static func value(ofHexDigit digit: UInt8) -> UInt8? {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: nil
            }
        }

        /// Lowercase hex, as the digest's bytes come.
        public var hex: String {
            String(unsafeUninitializedCapacity: 64) { text in
                writeHex(into: text)
                return 64
            }
        }

        /// Appends `hex` to `bytes` without making it as a string first.
        public func appendHex(to bytes: inout [UInt8]) {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: 64))
            bytes.withUnsafeMutableBufferPointer { buffer in writeHex(into: UnsafeMutableBufferPointer(rebasing: buffer[start...])) }
        }

        private func writeHex(into text: UnsafeMutableBufferPointer<UInt8>) {
            withUnsafeBytes(of: words) { bytes in
                // Two table lookups a byte: String(radix:) per byte cost more than the digest of a small page.
                for (index, byte) in bytes.enumerated() {
                    text[2 * index] = lowercaseHexDigits[Int(byte >> 4)]
                    text[2 * index + 1] = lowercaseHexDigits[Int(byte & 0xF)]
                }
            }
        }
    }

    public static func hex(_ text: String) -> String {
        hex(Array(text.utf8))
    }

    /// The digest's first 128 bits, as two words.
    public static func prefix128(_ bytes: UnsafeRawBufferPointer) -> (UInt64, UInt64) {
        let words = digest(bytes).words
        return (words.0, words.1)
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
