/// How an item's video is decoded (`[decode] hwaccel`, `--hwdec`).
public struct HardwareDecoding: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Hardware where the device decodes the stream (VA-API is the only
        /// hardware Marquee knows today), software otherwise.
        case auto
        /// VA-API; where it cannot decode, software, with the reason logged.
        case vaapi
        /// libavcodec on the CPU; no device is opened.
        case software
    }

    public var mode: Mode
    /// The render node; nil takes the first /dev/dri/renderD*.
    public var device: String?
    /// Test hook, outside the public API: the hardware decoder is replaced
    /// by the software one made to fail after this many frames
    /// (`FaultInjectingVideoDecoder`), so the fallback path runs without a
    /// VA-API device.
    @_spi(Testing) public var failAfterFrames: Int?

    public init(mode: Mode = .auto, device: String? = nil) {
        self.mode = mode
        self.device = device
    }

    public static let software = HardwareDecoding(mode: .software)
}
