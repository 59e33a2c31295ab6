import CALSA
import Glibc

/// A libasound call that failed: which call, on which PCM, and the negative
/// errno it returned. Prints as `DEVICE: CALL: MESSAGE (CODE)`, MESSAGE being
/// `snd_strerror`'s text, e.g.
/// `hw:9,0: snd_pcm_open: No such file or directory (-2)`.
public struct ALSAError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The libasound function, e.g. `snd_pcm_hw_params_set_rate_near`.
    public let call: String
    /// The PCM name as given to `snd_pcm_open` (`default`, `hw:0,0`, ...).
    public let device: String
    /// The negative errno libasound returned (`-EPIPE`, `-ENODEV`, ...).
    public let code: Int32

    public init(call: String, device: String, code: Int32) {
        self.call = call
        self.device = device
        self.code = code
    }

    /// libasound's text for `code` (`snd_strerror`).
    public var message: String { String(cString: snd_strerror(code)) }

    public var description: String { "\(device): \(call): \(message) (\(code))" }

    /// The device ran dry (underrun, EPIPE): `snd_pcm_prepare` recovers it.
    public var isUnderrun: Bool { code == -EPIPE }
    /// The system suspended the device (ESTRPIPE): `snd_pcm_resume`, else prepare.
    public var isSuspended: Bool { code == -ESTRPIPE }
    /// Nothing is wrong, the call would have blocked (EAGAIN) or was interrupted (EINTR).
    public var isTransient: Bool { code == -EAGAIN || code == -EINTR }
}

/// Throws `ALSAError` when `result` is negative; returns it otherwise.
@discardableResult
func check<Result: BinaryInteger>(_ result: Result, _ call: String, _ device: String) throws(ALSAError) -> Result {
    if result < 0 { throw ALSAError(call: call, device: device, code: Int32(truncatingIfNeeded: result)) }
    return result
}
