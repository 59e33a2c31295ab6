import Dispatch
import FoundationEssentials
import Glibc
import Marquee
import Synchronization

/// Follows a playing player's events: reports failed items in one line each,
/// a network source lost and back in one line each,
/// samples resources, and returns when playback is over (unless it keeps
/// open, or waits for files in a watched folder: then the last frame stays
/// up until a signal, `quit` or the files) or a signal asks to stop. A
/// broken item in a looping playlist fails on every pass: its line is
/// written the first time, not once a pass for months.
final class PlaySession: Sendable {
    let player: QueuePlayer
    /// systemd's notification socket, when it listens (`Type=notify`).
    let service: ServiceNotifier?
    let keepsOpen: Bool
    /// Whether video that could not be set up for hardware decoding is said:
    /// with `--hwdec auto` software is an expected outcome (a debug line);
    /// with `--hwdec vaapi` it is not.
    let reportsSetUpFallbacks: Bool
    /// The longest wait between attempts to reach a lost source, for its line.
    let retryCap: Double
    /// Whether the show waits for files in a watched folder: the end of
    /// playback is then not the end of the session.
    let waitsForFiles: @Sendable () -> Bool
    private let failed = Mutex<Int>(0)
    private let reported = Mutex<Set<String>>([])
    /// Memory and descriptors every `resourceSampleInterval` item ends, for `--stats`.
    private let samples = Mutex<[ResourceSample]>([])
    static let resourceSampleInterval = 50

    struct ResourceSample: Codable {
        let ends: Int
        let usage: ResourceUsage
    }

    var resourceSamples: [ResourceSample] { samples.withLock { $0 } }

    init(player: QueuePlayer, service: ServiceNotifier?, keepsOpen: Bool, reportsSetUpFallbacks: Bool, retryCap: Double, waitsForFiles: @escaping @Sendable () -> Bool) {
        self.player = player
        self.service = service
        self.waitsForFiles = waitsForFiles
        self.retryCap = retryCap
        self.keepsOpen = keepsOpen
        self.reportsSetUpFallbacks = reportsSetUpFallbacks
    }

    var failures: Int { failed.withLock { $0 } }

    func run(events: PlayerEvents, until signals: SignalWatcher) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await signals.wait() }
            group.addTask { [self] in
                var ends = 0
                for await event in events {
                    switch event {
                    case .itemStatusChanged(let item, .failed):
                        failed.withLock { $0 += 1 }
                        reportOnce(item.error.map { "\($0)" } ?? "\(item): cannot be played")
                    case .failedToPlayToEnd(_, let error):
                        reportOnce("\(error)")
                    case .sourceLost(let item, let reason, let retryIn):
                        Diagnostics.error("\(item.asset.source): lost (\(reason)); trying again in \(String(retryIn, places: 1)) s, "
                                          + "then up to every \(String(retryCap, places: 0)) s")
                        service?.setWaiting(.stream, "waiting for \(item.asset.source)")
                    case .sourceRestored(let item, let seconds, let attempts):
                        Diagnostics.error("\(item.asset.source): back after \(String(seconds, places: 1)) s "
                                          + "(\(attempts) \(attempts == 1 ? "attempt" : "attempts"))")
                        service?.setWaiting(.stream, nil)
                    case .videoOutputFailed(let error):
                        Diagnostics.error("\(error)")
                    case .audioResamplingFailed(let error):
                        Diagnostics.error("sync: sound not resampled to the wall clock: \(error)")
                    case .videoDecodingFellBack(let item, let reason, let atSetUp) where reportsSetUpFallbacks || !atSetUp:
                        Diagnostics.error("\(item.asset.source): \(reason)")
                    case .captionsUnavailable(let item, let error):
                        reportOnce("\(Self.name(of: item)): captions not shown: \(error)")
                    case .splashShown:
                        service?.ready()
                    case .splashUnavailable(_, let error):
                        Diagnostics.error("splash: \(error); the background is shown instead")
                    case .currentItemChanged(let item):
                        service?.setActivity(item.map { "playing \(Self.name(of: $0))" } ?? "nothing to play")
                    case .timeControlStatusChanged(.playing, _):
                        if let item = player.currentItem { service?.setActivity("playing \(Self.name(of: item))") }
                        service?.ready()
                    case .timeControlStatusChanged(.paused, _):
                        service?.setActivity(player.currentItem.map { "paused: \(Self.name(of: $0))" } ?? "nothing to play")
                    case .didPlayToEnd:
                        ends += 1
                        if ends % Self.resourceSampleInterval == 0, let usage = ResourceUsage.current() {
                            samples.withLock { $0.append(ResourceSample(ends: ends, usage: usage)) }
                        }
                    case .playbackFinished where !keepsOpen && !waitsForFiles():
                        return
                    default:
                        break
                    }
                }
            }
            await group.next()
            group.cancelAll()
        }
    }

    /// An item as `STATUS=` names it: a file's name, or the URL.
    private static func name(of item: PlayerItem) -> String {
        let source = item.asset.source
        return source.contains("://") ? source : URL(fileURLWithPath: source).lastPathComponent
    }

    private func reportOnce(_ line: String) {
        if reported.withLock({ $0.insert(line).inserted }) { Diagnostics.error(line) }
    }
}

/// Turns SIGINT and SIGTERM into a clean stop (stats written, outputs closed).
/// `@unchecked Sendable`: the sources are only kept alive here, never touched after init.
final class SignalWatcher: @unchecked Sendable {
    private let stream: AsyncStream<Int32>
    private let continuation: AsyncStream<Int32>.Continuation
    private let sources: [any DispatchSourceSignal]

    init() {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        self.stream = stream
        self.continuation = continuation
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            return source
        }
    }

    func wait() async {
        for await _ in stream { return }
    }

    /// Ends `wait()` as SIGTERM does (the `quit` command), without sending a
    /// signal that a thread not blocking it could swallow.
    func requestStop() { continuation.yield(SIGTERM) }
}

/// The one-line status on a terminal: time, duration, A-V offset, drops,
/// audio underruns, stalls (and "buffering" while waiting for one), decoder.
/// `@unchecked Sendable`: the timer is thread-safe to cancel; nothing else is shared.
final class StatusLine: @unchecked Sendable {
    private let timer: any DispatchSourceTimer

    init(player: Player) {
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "marquee.status"))
        timer.schedule(deadline: .now(), repeating: 0.5)
        timer.setEventHandler {
            let stats = player.stats.snapshot
            let time = player.currentTime().seconds
            let duration = player.currentItem?.duration
            let total = duration?.isNumeric == true ? String(duration!.seconds, places: 1) : "--"
            let offset = stats.avOffsetP50Ms.map { "\(String($0, places: 1)) ms" } ?? "--"
            let decoder = stats.hwdec ?? "--"
            let buffering = player.reasonForWaitingToPlay == .toMinimizeStalls ? "  buffering" : ""
            StandardStream.output.write("\r\(String(time, places: 1)) / \(total) s  A-V \(offset)  dropped \(stats.framesDropped)  "
                                                  + "underruns \(stats.underruns)  stalls \(stats.stalls)  \(decoder)\(buffering)   ")
        }
        timer.resume()
    }

    func stop() {
        timer.cancel()
        StandardStream.output.write("\n")
    }
}
