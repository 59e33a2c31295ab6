import Dispatch
import FoundationEssentials
import Glibc

/// Runs a closure on a private queue each time the process gets `signal`
/// (SIGHUP: reload), instead of the signal's default action.
/// `@unchecked Sendable`: the dispatch source is thread-safe to cancel and
/// is only set in `start`, which is called once before anything else.
final class SignalHandler: @unchecked Sendable {
    private let number: Int32
    private var source: (any DispatchSourceSignal)?

    init(_ number: Int32) {
        self.number = number
    }

    func start(_ handler: @escaping @Sendable () -> Void) {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: DispatchQueue(label: "marquee.signal.\(number)"))
        source.setEventHandler(handler: handler)
        source.resume()
        self.source = source
    }

    func stop() { source?.cancel() }
}
