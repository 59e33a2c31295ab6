import CFFmpeg
import MarqueeCore

/// One compressed packet read by the demuxer, owning its AVPacket.
///
/// `@unchecked Sendable`: a packet is handed from the demux thread to a decoder
/// thread through a queue and never touched by two threads at once; after
/// reading it is only read.
public final class Packet: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVPacket>
    /// Time base of the stream the packet belongs to.
    let timeBase: AVRational

    init(taking pointer: UnsafeMutablePointer<AVPacket>, timeBase: AVRational) {
        self.pointer = pointer
        self.timeBase = timeBase
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&doomed)
    }

    public var streamIndex: Int { Int(pointer.pointee.stream_index) }
    public var pts: MediaTime { MediaTime(libav: pointer.pointee.pts, timeBase: timeBase) }
    public var dts: MediaTime { MediaTime(libav: pointer.pointee.dts, timeBase: timeBase) }
    public var duration: MediaTime { MediaTime(libav: pointer.pointee.duration, timeBase: timeBase) }
    public var isKeyframe: Bool { pointer.pointee.flags & AV_PKT_FLAG_KEY != 0 }
    public var size: Int { Int(pointer.pointee.size) }
}

extension Packet {
    /// Shifts pts and dts by `offset` (exactly, in the stream's time base), so
    /// a second pass of a loop continues the first one's timeline and the
    /// decoder never needs a flush.
    public func offsetTimestamps(by offset: MediaTime) {
        guard let ticks = offset.value(inTimeBase: timeBase.num, timeBase.den, rounding: .nearestHalfAwayFromZero),
              ticks != 0 else { return }
        if pointer.pointee.pts != noTimestamp { pointer.pointee.pts += ticks }
        if pointer.pointee.dts != noTimestamp { pointer.pointee.dts += ticks }
    }

    /// The time just after this packet: pts + duration (or pts when the
    /// duration is unknown).
    public var end: MediaTime {
        let start = pts.isValid ? pts : dts
        let length = duration
        return length.isNumeric && length > .zero ? start + length : start
    }
}
