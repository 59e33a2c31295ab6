/// Which decoded pictures are deinterlaced, and into how many pictures
/// (`[decode] deinterlace` and `deinterlace_rate`, `--deinterlace` and
/// `--deinterlace-rate`).
public struct Deinterlacing: Sendable, Hashable {
    public enum Mode: String, Sendable, CaseIterable {
        /// The pictures that say they are interlaced: the decoded frame's
        /// flag, else the stream's field order.
        case auto
        /// Every picture; one that does not say is read top field first.
        case on
        /// None: interlaced pictures are shown as decoded, both fields woven
        /// into one, which combs wherever something moves.
        case off
    }

    public enum Rate: String, Sendable, CaseIterable {
        /// One picture per frame: the two fields make one.
        case frame
        /// One picture per field, at twice the frame rate: motion as smooth
        /// as the camera took it, at twice the conversion work.
        case field
    }

    public var mode: Mode
    public var rate: Rate

    public init(mode: Mode = .auto, rate: Rate = .frame) {
        self.mode = mode
        self.rate = rate
    }

    /// The field order a picture scanned as `picture` is deinterlaced with,
    /// or nil when it is shown as it is.
    public func fieldOrder(deinterlacing picture: FieldOrder) -> FieldOrder? {
        switch mode {
        case .off: nil
        case .auto: picture.isInterlaced ? picture : nil
        // Most interlaced video that forgets to say so is top field first (DV is the exception).
        case .on: picture.isInterlaced ? picture : .topFieldFirst
        }
    }
}
