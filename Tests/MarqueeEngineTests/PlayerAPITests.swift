@testable import Marquee
import MarqueeTestSupport
import Synchronization
import Testing

/// Issue 14, must-show 2: each piece of AVPlayer's API the library adds, on
/// the engine's own stages stepped on a virtual clock (`StageExecutor`).
@Suite struct PlayerAPITests {
    typealias Rig = SteppedEngineTests.Rig

    /// A player whose stages nobody steps, with no items: commands and events only.
    static func idlePlayer() -> Player {
        let clock = VirtualClock()
        return Player(items: [], configuration: PlayerConfiguration(videoOutput: NullVideoOutput(clock: clock), audioOutput: nil,
                                                                    hostClock: clock), threaded: false)
    }

    // MARK: rate

    /// Every value the doc names: none crashes, each does what `rate` says.
    @Test func outOfRangeRatesAreClampedPauseOrAreIgnored() throws {
        let rig = Rig([try SteppedEngineTests.clip(seconds: 4)])
        let player = rig.player
        player.rate = 1000
        #expect(player.rate == 16 && player.timeControlStatus != .paused)
        player.rate = .infinity
        #expect(player.rate == 16)
        player.rate = 1e-9
        #expect(player.rate == PlaybackRate.range.lowerBound)
        player.rate = 2
        player.rate = .nan
        #expect(player.rate == 2, "NaN changed the rate")
        player.rate = 0
        #expect(player.rate == 0 && player.timeControlStatus == .paused)
        player.rate = 2
        player.rate = -1
        #expect(player.rate == -1 && player.timeControlStatus != .paused, "a negative rate plays backwards")
        player.rate = -.infinity
        #expect(player.rate == -16)
        // 1000 plays at 16: the 4 s clip is over in about a quarter of a
        // second of the clock (1x would take 4 s).
        player.rate = 1000
        let start = rig.clock.now()
        #expect(rig.executor.run(for: 2.0), "at 16x a 4 s clip should end within 2 s")
        let elapsed = (rig.clock.now() - start).secondsDouble
        #expect(elapsed > 0.2 && elapsed < 0.5, "4 s of clip took \(elapsed) s")
        #expect(rig.video.frames.last?.index == 99)
    }

    @Test func defaultRateIsWhatPlayUsesAndOutOfRangeIsClampedOrIgnored() throws {
        let rig = Rig([try SteppedEngineTests.clip(seconds: 10)])
        let player = rig.player
        #expect(player.defaultRate == 1)
        player.defaultRate = 2
        player.play()
        #expect(player.rate == 2)
        rig.executor.run(for: 1.0)
        let moved = player.currentTime().seconds
        #expect(abs(moved - 2) < 0.2, "at defaultRate 2, one second moved the item \(moved) s")
        // A rate set directly is for now; play() after a pause goes back to defaultRate.
        player.rate = 0.5
        player.pause()
        player.play()
        #expect(player.rate == 2)
        player.defaultRate = 0
        player.defaultRate = -3
        player.defaultRate = .nan
        #expect(player.defaultRate == 2, "zero, negative and NaN must be ignored")
        player.defaultRate = .infinity
        #expect(player.defaultRate == 16)
    }

    // MARK: timeControlStatus

    /// paused -> waiting (to minimize stalls) -> playing at start, around a
    /// seek while playing, and around a stall (the source held as if stuck
    /// in a network read); a paused seek stays paused.
    @Test func timeControlStatusFollowsStartSeekAndStall() async throws {
        let rig = Rig([try SteppedEngineTests.clip(seconds: 10)])
        let player = rig.player
        let events = player.events()
        #expect(player.timeControlStatus == .paused && player.reasonForWaitingToPlay == nil)
        player.play()
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.reasonForWaitingToPlay == .toMinimizeStalls)
        rig.executor.run(for: 0.5)
        #expect(player.timeControlStatus == .playing && player.reasonForWaitingToPlay == nil)

        _ = player.startSeek(to: MediaTime(seconds: 5, preferredTimescale: 1000), exact: true)
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.currentTime().seconds == 5, "until its frame shows, the time is the seek's target")
        rig.executor.run(for: 0.5)
        #expect(player.timeControlStatus == .playing)

        rig.executor.held = ["source"]
        rig.executor.run(for: 2.0)
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate, "the source stalled but time still moves")
        #expect(player.reasonForWaitingToPlay == .toMinimizeStalls)
        rig.executor.held = []
        rig.executor.run(for: 0.5)
        #expect(player.timeControlStatus == .playing)

        player.pause()
        #expect(player.timeControlStatus == .paused)
        _ = player.startSeek(to: MediaTime(seconds: 1, preferredTimescale: 1000), exact: true)
        #expect(player.timeControlStatus == .paused, "a paused seek does not ask to play")
        rig.executor.run(for: 0.5)
        player.stop()

        var changes: [String] = []
        for await event in events {
            if case .timeControlStatusChanged(let status, let reason) = event {
                changes.append(status.rawValue + (reason.map { "(\($0.rawValue))" } ?? ""))
            }
        }
        let waiting = "waitingToPlayAtSpecifiedRate(toMinimizeStalls)"
        #expect(changes == [waiting, "playing", waiting, "playing", waiting, "playing", "paused"])
    }

    @Test func volumeIsClampedAndNaNIgnored() {
        let player = Self.idlePlayer()
        player.volume = 7
        #expect(player.volume == 1)
        player.volume = -1
        #expect(player.volume == 0)
        player.volume = 0.5
        player.volume = .nan
        #expect(player.volume == 0.5)
    }

    @Test func playingWithNothingToPlayWaitsForAnItem() {
        let player = Self.idlePlayer()
        player.play()
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.reasonForWaitingToPlay == .noItemToPlay)
        #expect(player.status == .unknown)
    }

    // MARK: events

    /// A consumer that reads nothing while 100,000 events are posted holds
    /// at most its buffer; when it reads, the drop count comes first, then
    /// the newest events in order.
    @Test func aConsumerThatNeverReadsKeepsABoundedBuffer() async throws {
        let player = Self.idlePlayer()
        let limit = 256
        let events = player.events(bufferLimit: limit)
        let count = 100_000
        for index in 0..<count {
            player.rate = 1 + Double(index % 15)
            #expect(events.buffer.bufferedCount <= limit)
        }
        // One change of time control (waiting: no item) and one rate event per setting.
        let posted = count + 1
        #expect(events.buffer.bufferedCount == limit)
        #expect(events.droppedCount == posted - limit)
        var received: [PlayerEvent] = []
        var iterator = events.makeAsyncIterator()
        for _ in 0...limit { received.append(try #require(await iterator.next())) }
        #expect(events.buffer.bufferedCount == 0)
        guard case .eventsDropped(let dropped)? = received.first else {
            Issue.record("the first event read is \(String(describing: received.first)), not the drop count")
            return
        }
        #expect(dropped == posted - limit)
        let rates = received.dropFirst().compactMap { event -> Double? in
            if case .rateChanged(let rate) = event { rate } else { nil }
        }
        #expect(rates == (count - limit..<count).map { 1 + Double($0 % 15) })
    }

    @Test func aStoppedPlayerEndsItsEventSequence() async {
        let player = Self.idlePlayer()
        let events = player.events()
        let reader = Task {
            var seen = 0
            for await _ in events { seen += 1 }
            return seen
        }
        player.play()
        player.stop()
        #expect(await reader.value >= 1)
    }

    // MARK: time observers

    /// A periodic observer as a sequence: times at the interval's multiples;
    /// ending the sequence removes the observer. A zero interval does not crash.
    @Test func periodicTimesAsASequence() async throws {
        let rig = Rig([try SteppedEngineTests.clip(seconds: 4)])
        let player = rig.player
        let observers = player.engine.observers
        var times: AsyncStream<MediaTime>? = player.periodicTimes(forInterval: MediaTime(seconds: 0.5, preferredTimescale: 600))
        let zero = player.addPeriodicTimeObserver(forInterval: .zero) { _ in }
        #expect(observers.count == 2)
        player.play()
        rig.executor.run(for: 1.2)
        var iterator = try #require(times).makeAsyncIterator()
        let time = try #require(await iterator.next())
        let multiples = time.seconds / 0.5
        #expect(abs(multiples - multiples.rounded()) < 0.05 && time.seconds > 0, "observed \(time.seconds) s")
        times = nil
        iterator = AsyncStream<MediaTime> { $0.finish() }.makeAsyncIterator()
        player.removeTimeObserver(zero)
        #expect(observers.count == 0, "the released sequence left its observer registered")
    }
}
