import Dispatch
@testable import OutputWriter
import SiteModel
import Testing

/// Rendered bytes wait for the writers within a bound, so a site larger than memory is written as it is made.
@Suite struct QueuedBytesTests {
    @Test func aProducerWaitsWhileTheBytesInFlightAreOverTheBound() {
        let queued = QueuedBytes(limit: 100)
        queued.wait(toAdd: 60)
        let added = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            queued.wait(toAdd: 60)
            added.signal()
        }
        #expect(added.wait(timeout: .now() + 0.3) == .timedOut)
        #expect(queued.inFlight == 60)
        queued.written(60)
        #expect(added.wait(timeout: .now() + 10) == .success)
        #expect(queued.inFlight == 60)
    }

    /// A file counts toward the bound with the memory its bytes take, spare room included.
    @Test func aFileCountsTheRoomItsBytesTake() {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(4096)
        bytes.append(1)
        #expect(OutputFile(path: "a.html", contents: .bytes(bytes)).heldBytes >= 4096)
        #expect(OutputFile(path: "a.css", contents: .copy(from: "/tmp/a.css")).heldBytes == 0)
    }

    @Test func aBatchLargerThanTheBoundGoesWhenNothingWaits() {
        let queued = QueuedBytes(limit: 100)
        queued.wait(toAdd: 500)
        #expect(queued.inFlight == 500)
        queued.written(500)
        #expect(queued.inFlight == 0)
    }
}
