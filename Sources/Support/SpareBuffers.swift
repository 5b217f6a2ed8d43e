import Synchronization

/// Byte buffers a document no longer needs, by the path of the document they held, kept to hold the next version
/// of that document, or new ones made ready for it ahead (`prefaulted`). `serve`'s edit in place splices three
/// documents of 650 MB at 430,000 listings (a kind's JSON and CSV, and the manifest) into new buffers; the kernel
/// faults in and clears each page of a new buffer as it is first written, which took a fifth to a third of a
/// second of each edit. A buffer taken from here is written over in place. It is an array like any other: one
/// that something else still holds is not written over but copied as it would be anyway, so the pool can only
/// save work, never share bytes.
public final class SpareBuffers: Sendable {
    private let buffers: Mutex<[String: [UInt8]]>

    public static var none: SpareBuffers { SpareBuffers([:]) }

    /// Taken, not copied: a buffer that another value also held would not be written over.
    public init(_ buffers: consuming [String: [UInt8]]) {
        self.buffers = Mutex(consume buffers)
    }

    /// An empty buffer for the document at `path`, with the room of the one kept for it, which is no longer
    /// kept; an empty array when none is kept.
    public func take(_ path: String) -> [UInt8] {
        var buffer = buffers.withLock { $0.removeValue(forKey: path) } ?? []
        buffer.removeAll(keepingCapacity: true)
        return buffer
    }

    /// Room for `count` bytes in a buffer from `take`; a new one has some more (`room`).
    public static func reserve(_ count: Int, in buffer: inout [UInt8]) {
        guard buffer.capacity < count else { return }
        buffer.reserveCapacity(room(for: count))
    }

    /// A new buffer for a document of `count` bytes, every page of it written once now, so that the kernel
    /// faults them in before an edit rather than while the edit splices the document into it.
    public static func prefaulted(for count: Int) -> [UInt8] {
        let room = room(for: count)
        return [UInt8](unsafeUninitializedCapacity: room) { buffer, initialized in
            UnsafeMutableRawPointer(buffer.baseAddress!).initializeMemory(as: UInt8.self, repeating: 0, count: room)
            initialized = 0
        }
    }

    /// A document's bytes and some more, so that a later version fits in the same buffer: an edit makes a
    /// text a few bytes longer, and the manifest gains an entry for each build's change list.
    public static func room(for count: Int) -> Int {
        count + count / 256 + 16_384
    }
}
