import Foundation
import Support
import Testing

/// A digest held in its 32 bytes gives the same text as the digest made as text, and tells digests apart.
@Suite struct SHA256Tests {
    @Test func aDigestsHexIsTheDigestAsText() {
        // FIPS 180-2's examples, and the empty text.
        #expect(SHA256.digest(Array("abc".utf8)).hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.digest([]).hex == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        for text in ["", "a", "cleaners/ana/index.html"] + TestSupport.awkwardTexts {
            let bytes = Array(text.utf8)
            #expect(SHA256.digest(bytes).hex == SHA256.hex(bytes))
            #expect(SHA256.digest(bytes) == SHA256.digest(bytes))
            #expect(SHA256.digest(bytes) != SHA256.digest(bytes + [0]))
        }
    }

    /// The build record holds digests as hex: read back, each is the digest written; anything else is refused.
    @Test func aDigestReadsBackFromItsHex() {
        for text in ["", "abc"] + TestSupport.awkwardTexts {
            let digest = SHA256.digest(Array(text.utf8))
            #expect(SHA256.Digest(hex: Array(digest.hex.utf8)) == digest)
            var appended: [UInt8] = [1]
            digest.appendHex(to: &appended)
            #expect(appended == [1] + Array(digest.hex.utf8))
        }
        // As the record's fields come, a slice of the bytes around them; and from text that is not contiguous.
        let digest = SHA256.digest(Array("abc".utf8))
        let line = Array("output\t3\t\(digest.hex)\tpath".utf8)
        #expect(SHA256.Digest(hex: line[9..<73]) == digest)
        #expect(SHA256.Digest(hex: line[8..<72]) == nil)
        #expect(SHA256.Digest(hex: digest.hex.utf8.lazy.map { $0 }) == digest)
        let hex = SHA256.digest([]).hex
        for damaged in [String(hex.dropLast()), hex + "0", hex.uppercased(), "g" + hex.dropFirst(), String(hex.dropLast()) + " "] {
            #expect(SHA256.Digest(hex: Array(damaged.utf8)) == nil, "\(damaged)")
        }
    }

    /// A digest resumed from the state kept before the first changed byte is the digest of the whole: over
    /// successive changes (as successive edits in place make), whether the change is in the first mebibyte,
    /// near the end, or makes the document shorter or longer than a mebibyte's multiple.
    @Test func aResumedDigestIsTheWholeDocumentsDigest() {
        var random = SystemRandomNumberGenerator()
        var bytes = (0..<(3 * ResumableDigest.stride + 1_000)).map { _ in UInt8.random(in: 0...255, using: &random) }
        var digest = ResumableDigest(of: bytes)
        #expect(digest.digest == SHA256.digest(bytes) && digest.size == bytes.count)
        for round in 0..<12 {
            let start = round == 0 ? 10 : Int.random(in: 0..<bytes.count, using: &random)
            let removed = Int.random(in: 0...min(50, bytes.count - start), using: &random)
            let inserted = round == 5 ? ResumableDigest.stride : Int.random(in: 0...50, using: &random)
            bytes.replaceSubrange(start..<(start + removed), with: (0..<inserted).map { _ in UInt8.random(in: 0...255, using: &random) })
            digest = ResumableDigest(of: bytes, resuming: digest, sameFor: start)
            #expect(digest.digest == SHA256.digest(bytes) && digest.size == bytes.count, "round \(round)")
        }
        // Claiming more than is the same gives another digest: the states kept are used as they are.
        var changed = bytes
        changed[0] ^= 1
        #expect(ResumableDigest(of: changed, resuming: digest, sameFor: changed.count).digest != SHA256.digest(changed))
    }
}
