import MarqueeControl
import Testing

/// The edge-to-press logic of a GPIO button, fed synthetic kernel edges.
@Suite struct ButtonDecoderTests {
    static let ms: UInt64 = 1_000_000

    /// Feeds `edges` (time in ms, line high?) and then advances to `until`
    /// ms, as the GPIO thread does; returns each output with the time (ms)
    /// it came out at.
    static func run(_ settings: ButtonDecoder.Settings, initiallyHigh: Bool, edges: [(Double, Bool)], until: Double) -> [(UInt64, ButtonDecoder.Output)] {
        var decoder = ButtonDecoder(settings: settings, lineIsHigh: initiallyHigh, at: 0)
        var outputs: [(UInt64, ButtonDecoder.Output)] = []
        for (time, high) in edges {
            let now = UInt64(time * 1_000_000)
            // Timers that fall due before this edge fire first, at their deadline.
            while let deadline = decoder.nextDeadline, deadline < now {
                outputs += decoder.advance(to: deadline).map { (deadline / ms, $0) }
            }
            outputs += decoder.edge(rising: high, at: now).map { (now / ms, $0) }
        }
        let end = UInt64(until * 1_000_000)
        while let deadline = decoder.nextDeadline, deadline <= end {
            outputs += decoder.advance(to: deadline).map { (deadline / ms, $0) }
        }
        return outputs
    }

    /// A bouncing contact: 11 alternating edges within 5 ms, ending at `high`.
    static func bounce(from start: Double, to high: Bool) -> [(Double, Bool)] {
        (0..<11).map { (start + Double($0) * 5 / 11, $0 % 2 == 0 ? high : !high) }
    }

    @Test func aBouncingPressCountsOnce() {
        let settings = ButtonDecoder.Settings(edge: .rising, activeLow: false, debounceMilliseconds: 20)
        let edges = Self.bounce(from: 100, to: true) + Self.bounce(from: 300, to: false)
        #expect(edges.count == 22)
        let outputs = Self.run(settings, initiallyHigh: false, edges: edges, until: 1000)
        #expect(outputs.map(\.1) == [.action])
        // Reported once the line has been still for the debounce time after its last bounce.
        #expect(outputs.first?.0 == 124)
    }

    @Test func activeLowMeansPressedIsLow() {
        let settings = ButtonDecoder.Settings(edge: .rising, activeLow: true, debounceMilliseconds: 10)
        let outputs = Self.run(settings, initiallyHigh: true, edges: [(50, false), (200, true)], until: 500)
        #expect(outputs.map(\.0) == [60])
        // The same edges without active-low: the release (line going high) is the press.
        let plain = Self.run(ButtonDecoder.Settings(edge: .rising, activeLow: false, debounceMilliseconds: 10),
                             initiallyHigh: true, edges: [(50, false), (200, true)], until: 500)
        #expect(plain.map(\.0) == [210])
    }

    @Test func aGlitchShorterThanTheDebounceIsIgnored() {
        let settings = ButtonDecoder.Settings(edge: .both, debounceMilliseconds: 20)
        let outputs = Self.run(settings, initiallyHigh: false, edges: [(100, true), (105, false)], until: 500)
        #expect(outputs.isEmpty)
    }

    @Test func aLongPressRunsTheLongActionWhileHeldAndNothingOnRelease() {
        let settings = ButtonDecoder.Settings(edge: .rising, debounceMilliseconds: 20, longPressMilliseconds: 1000)
        let outputs = Self.run(settings, initiallyHigh: false, edges: Self.bounce(from: 100, to: true) + [(2000, false)], until: 3000)
        #expect(outputs.map(\.1) == [.longAction])
        // The press settled at 124 ms; long from then.
        #expect(outputs.first?.0 == 1124)
    }

    @Test func aShortPressWithALongPressSetActsOnRelease() {
        let settings = ButtonDecoder.Settings(edge: .rising, debounceMilliseconds: 20, longPressMilliseconds: 1000)
        let outputs = Self.run(settings, initiallyHigh: false, edges: [(100, true), (400, false)], until: 3000)
        #expect(outputs.map(\.1) == [.action])
        #expect(outputs.first?.0 == 420)
    }

    @Test func fallingAndBothEdges() {
        let edges: [(Double, Bool)] = [(100, true), (300, false)]
        let falling = Self.run(ButtonDecoder.Settings(edge: .falling, debounceMilliseconds: 10), initiallyHigh: false, edges: edges, until: 1000)
        #expect(falling.map(\.0) == [310])
        let both = Self.run(ButtonDecoder.Settings(edge: .both, debounceMilliseconds: 10), initiallyHigh: false, edges: edges, until: 1000)
        #expect(both.map(\.0) == [110, 310])
    }

    @Test func withoutDebounceEveryEdgeCounts() {
        let outputs = Self.run(ButtonDecoder.Settings(edge: .rising, debounceMilliseconds: 0), initiallyHigh: false,
                               edges: Self.bounce(from: 100, to: true), until: 1000)
        #expect(outputs.count == 6)
    }

    @Test func aButtonHeldAtStartIsNotAPress() {
        let settings = ButtonDecoder.Settings(edge: .rising, debounceMilliseconds: 10, longPressMilliseconds: 500)
        let outputs = Self.run(settings, initiallyHigh: true, edges: [(2000, false), (3000, true), (3100, false)], until: 5000)
        // Only the second, real press (short: released after 100 ms) acts.
        #expect(outputs.map(\.0) == [3110])
    }

    @Test func theDeadlineSaysWhenToLookAgain() {
        var decoder = ButtonDecoder(settings: ButtonDecoder.Settings(debounceMilliseconds: 20, longPressMilliseconds: 500),
                                    lineIsHigh: false, at: 0)
        #expect(decoder.nextDeadline == nil)
        _ = decoder.edge(rising: true, at: 100 * Self.ms)
        #expect(decoder.nextDeadline == 120 * Self.ms)
        #expect(decoder.advance(to: 119 * Self.ms).isEmpty)
        #expect(decoder.advance(to: 120 * Self.ms).isEmpty)
        #expect(decoder.isPressed)
        #expect(decoder.nextDeadline == 620 * Self.ms)
        #expect(decoder.advance(to: 620 * Self.ms) == [.longAction])
        #expect(decoder.nextDeadline == nil)
    }
}
