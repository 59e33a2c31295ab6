@testable import Marquee
import Testing

/// The list behind the stages' queues, the read-ahead and the held packets.
@Suite struct FIFOTests {
    /// Counts instances alive, so a test sees when the list lets one go.
    final class Tracked {
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) { self.value = value; Self.alive += 1 }
        deinit { Self.alive -= 1 }
    }

    @Test func keepsOrderThroughCompactionsAndInterleavedAppends() {
        var fifo = FIFO<Int>()
        var expected: [Int] = []
        var next = 0
        // Uneven bursts cross the compaction threshold many times, sometimes with the list emptied.
        for round in 0..<200 {
            for _ in 0..<(round % 7 + 1) * 13 {
                fifo.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(round % 5 + 1) * 17 {
                #expect(fifo.popFirst() == (expected.isEmpty ? nil : expected.removeFirst()))
            }
            #expect(fifo.count == expected.count)
            #expect(fifo.first == expected.first)
            #expect(Array(fifo.elements) == expected)
        }
    }

    @Test func letsGoOfAnElementWhenItIsTaken() {
        var fifo = FIFO<Tracked>()
        let before = Tracked.alive
        for value in 0..<10 { fifo.append(Tracked(value)) }
        #expect(Tracked.alive == before + 10)
        _ = fifo.popFirst()
        _ = fifo.popFirst()
        // The two taken are gone though no compaction has run yet.
        #expect(Tracked.alive == before + 8)
        #expect(fifo.elements.map(\.value) == Array(2..<10))
    }

    @Test func filterKeepsOrderAndDropsTheRest() {
        var fifo = FIFO<Int>()
        for value in 0..<100 { fifo.append(value) }
        for _ in 0..<30 { _ = fifo.popFirst() }
        fifo.filter { $0 % 3 == 0 }
        #expect(Array(fifo.elements) == Array(stride(from: 30, to: 100, by: 3)))
        #expect(fifo.elements.last(where: { $0 < 50 }) == 48)
        fifo.removeAll()
        #expect(fifo.isEmpty && fifo.popFirst() == nil && fifo.first == nil)
    }
}
