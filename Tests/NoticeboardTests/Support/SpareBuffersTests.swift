import Rendering
import Support
import Testing

/// A kept buffer is written over when nothing else holds it, and copied when something does, so that reusing
/// buffers never changes bytes another value holds.
@Suite struct SpareBuffersTests {
    private static func address(_ bytes: [UInt8]) -> UInt {
        bytes.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// A document of one-byte items "a,b,c", its items' spans, and an edit replacing the second.
    private static func document() -> (bytes: [UInt8], spans: ItemSpans) {
        var bytes: [UInt8] = [], spans = ItemSpans()
        for (index, item) in ["a", "b", "c"].enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            spans.append(Array(item.utf8), to: &bytes)
        }
        return (bytes, spans)
    }

    @Test func aBufferNothingElseHoldsIsWrittenOver() {
        var kept = [UInt8](repeating: UInt8(ascii: "#"), count: 4096)
        let address = Self.address(kept)
        let spares = SpareBuffers(["doc": exchange(&kept, with: [])])
        let last = Self.document()
        let made = last.spans.splicing(last.bytes, [.replacing(1, with: Array("xyz".utf8))], separator: [UInt8(ascii: ",")], into: spares.take("doc"))
        #expect(made.bytes == Array("a,xyz,c".utf8))
        #expect(Self.address(made.bytes) == address)
        // Taken once: the next document at that path gets a buffer of its own.
        #expect(spares.take("doc").capacity == 0 && spares.take("other").isEmpty)
    }

    @Test func aBufferAnotherValueHoldsIsLeftAsItIs() {
        let held = Array("held bytes".utf8)
        let spares = SpareBuffers(["doc": held])
        let last = Self.document()
        let made = last.spans.splicing(last.bytes, [.removing(0)], separator: [UInt8(ascii: ",")], into: spares.take("doc"))
        #expect(made.bytes == Array("b,c".utf8))
        #expect(held == Array("held bytes".utf8) && Self.address(made.bytes) != Self.address(held))
    }

    @Test func aBufferMadeReadyAheadIsEmptyWithRoomForALongerDocument() {
        let made = SpareBuffers.prefaulted(for: 100_000)
        #expect(made.isEmpty && made.capacity >= 100_000 + 100_000 / 256 + 16_384)
    }

    @Test func aNewBufferHasRoomForALongerDocument() {
        var buffer: [UInt8] = []
        SpareBuffers.reserve(1_000_000, in: &buffer)
        #expect(buffer.capacity >= 1_000_000 + 1_000_000 / 256 + 16_384)
        // One with the room already is left as it is.
        let address = Self.address(buffer)
        SpareBuffers.reserve(1_000_000, in: &buffer)
        #expect(Self.address(buffer) == address)
    }
}
