import Glibc
import MarqueeCore
import Synchronization

/// One DRM card shared by the `KMSHead`s of a process: a card has one DRM
/// master, so every display on it commits through one open file. It
/// hands each head a CRTC no other head drives, and reads the card's page
/// flip events for all of them: one head's thread reads at a time and
/// writes each event into the slot its flip was committed with, so a head
/// never sleeps through its flip because another head read it.
///
/// Threading: any thread; `claimed` and the flip slots are guarded by `lock`.
final class KMSCard: @unchecked Sendable {
    let device: DRMDevice
    private let lock = Condition()
    /// CRTC -> the connector whose head drives it.
    private var claimed: [UInt32: String] = [:]
    private var reading = false

    private init(device: DRMDevice) {
        self.device = device
    }

    /// The cards open in this process, by path, while a head holds them.
    private static let open = Mutex<[String: Weak]>([:])
    private struct Weak { weak var card: KMSCard? }

    /// The card `options` names, else the first with the connector named
    /// (or any connected one), else the first there is; the same object
    /// for every head on one card.
    static func choose(_ options: KMSOptions) throws(KMSError) -> KMSCard {
        let candidates = options.card.map { [$0] } ?? DRMDevice.cards()
        guard !candidates.isEmpty else { throw KMSError(call: "open", code: ENOENT, device: "/dev/dri", detail: "no DRM card") }
        var opened: [KMSCard] = []
        var firstError: KMSError?
        for path in candidates {
            do throws(KMSError) {
                let card = try shared(path: path, allowAtomic: !options.forceLegacy)
                let connectors = try DisplayInventory(device: card.device).connectors
                if connectors.contains(where: { $0.isConnected && (options.connector == nil || $0.name == options.connector) }) {
                    return card
                }
                opened.append(card)
            } catch {
                firstError = firstError ?? error
            }
        }
        guard let first = opened.first else { throw firstError! }
        return first
    }

    /// Every connected connector on the card `options` names, else on every card: (card, connector).
    static func connected(_ options: KMSOptions) -> [(card: String, connector: String)] {
        var found: [(String, String)] = []
        for path in options.card.map({ [$0] }) ?? DRMDevice.cards() {
            guard let card = try? shared(path: path, allowAtomic: !options.forceLegacy),
                  let connectors = try? DisplayInventory(device: card.device).connectors else { continue }
            found += connectors.filter(\.isConnected).map { (path, $0.name) }
        }
        return found
    }

    private static func shared(path: String, allowAtomic: Bool) throws(KMSError) -> KMSCard {
        let result = open.withLock { cards -> Result<KMSCard, KMSError> in
            if let card = cards[path]?.card { return .success(card) }
            do throws(KMSError) {
                let device = try DRMDevice(path: path, allowAtomic: allowAtomic)
                try device.becomeMaster()
                let card = KMSCard(device: device)
                cards[path] = Weak(card: card)
                return .success(card)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Takes the first of `crtcs` (in order of preference) that no other head drives, for `connector`.
    func claim(_ crtcs: [UInt32], for connector: String) throws(KMSError) -> UInt32 {
        let taken = lock.withLock { () -> UInt32? in
            guard let free = crtcs.first(where: { claimed[$0] == nil || claimed[$0] == connector }) else { return nil }
            claimed[free] = connector
            return free
        }
        guard let taken else {
            let owners = crtcs.compactMap { claimed[$0] }.joined(separator: ", ")
            throw KMSError(call: "crtc", code: EBUSY, device: device.path, detail: "every CRTC that can drive \(connector) drives another display (\(owners))")
        }
        return taken
    }

    func release(_ crtc: UInt32) {
        lock.withLock { _ = claimed.removeValue(forKey: crtc) }
    }

    /// Whether another head drives `connector` already.
    func isDriven(_ connector: String) -> Bool {
        lock.withLock { claimed.values.contains(connector) }
    }

    /// Makes `slot` wait for a new flip; before the commit that carries it,
    /// so an event read by another head's thread is not lost.
    func expectFlip(_ slot: UnsafeMutablePointer<Int64>) {
        lock.withLock { slot.pointee = -1 }
    }

    /// Blocks until the flip committed with `slot` completes or `timeout`
    /// passes; the flip's time (its vblank, CLOCK_MONOTONIC), or nil on
    /// timeout (a driver that never signals must not hang a display).
    func waitForFlip(_ slot: UnsafeMutablePointer<Int64>, timeout: Duration, clock: any HostClock) throws(KMSError) -> HostTime? {
        let deadline = clock.now() + timeout
        lock.lock()
        defer { lock.unlock() }
        while slot.pointee < 0 {
            let left = (deadline - clock.now()).nanoseconds
            if left <= 0 { return nil }
            if reading {
                _ = lock.wait(untilMonotonic: deadline)
                continue
            }
            reading = true
            lock.unlock()
            var descriptor = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, left / 1_000_000)))
            let pollError = errno
            lock.lock()
            reading = false
            lock.broadcast()
            if ready < 0, pollError == EINTR { continue }
            if ready < 0 { throw KMSError(call: "poll", code: pollError, device: device.path) }
            if ready == 0 { continue }
            // Under the lock: it writes other heads' slots.
            try PageFlipEvents.handleEvents(on: device)
            lock.broadcast()
        }
        return HostTime(nanoseconds: slot.pointee)
    }
}
