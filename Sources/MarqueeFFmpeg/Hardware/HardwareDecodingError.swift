import CVA
import FoundationEssentials
import Glibc

/// Why VA-API cannot decode a stream (or a device cannot be used at all).
/// Each case prints as one line that names the device and the call or the
/// missing capability, which is what the fallback to software logs.
public enum HardwareDecodingError: Error, Sendable, CustomStringConvertible {
    /// No render node to open: the directory is missing or holds no renderD* node.
    case noRenderNode(directory: String, exists: Bool)
    /// `open(2)` on the render node failed.
    case cannotOpen(device: String, errno: Int32)
    /// A libva call returned a status other than VA_STATUS_SUCCESS.
    case va(device: String, call: String, status: VAStatus)
    /// The driver has no decoder for this codec, profile, bit depth or size.
    case unsupported(device: String, stream: String, reason: String)
    /// libavcodec's side of the set-up failed (device context, hwaccel init).
    case libav(device: String, FFmpegError)

    public var description: String {
        switch self {
        case .noRenderNode(let directory, let exists):
            exists ? "no VA-API render node: \(directory) has no renderD* device"
                : "no VA-API render node: \(directory) does not exist (no DRM driver loaded)"
        case .cannotOpen(let device, let code):
            "\(device): open: \(String(cString: strerror(code)))"
        case .va(let device, let call, let status):
            "\(device): \(call): \(String(cString: vaErrorStr(status))) (VA status \(status))"
        case .unsupported(let device, let stream, let reason):
            "\(device): cannot decode \(stream): \(reason)"
        case .libav(let device, let error):
            "\(device): \(error)"
        }
    }
}

/// Turns a libva status into a thrown error naming the call and the device.
func checkVA(_ status: VAStatus, _ call: String, device: String) throws(HardwareDecodingError) {
    if status != VA_STATUS_SUCCESS { throw .va(device: device, call: call, status: status) }
}
