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
        let hex = SHA256.digest([]).hex
        for damaged in [String(hex.dropLast()), hex + "0", hex.uppercased(), "g" + hex.dropFirst(), String(hex.dropLast()) + " "] {
            #expect(SHA256.Digest(hex: Array(damaged.utf8)) == nil, "\(damaged)")
        }
    }
}
