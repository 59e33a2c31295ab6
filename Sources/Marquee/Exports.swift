// The public API speaks in MarqueeCore's value types (MediaTime, TrackDescription,
// VideoFrame...), so users of `Marquee` get them without a second import.
@_exported import MarqueeCore
// Loading and playback fail with the backend's error, which names the libav
// call, its message and the input; callers match on it directly.
@_exported import struct MarqueeFFmpeg.FFmpegError
@_exported import enum MarqueeFFmpeg.Libav
@_exported import class MarqueeFFmpeg.Demuxer
// Hardware decoding is configured and reported in the backend's terms.
@_exported import struct MarqueeFFmpeg.HardwareDecoding
@_exported import enum MarqueeFFmpeg.VideoDecoderKind
@_exported import enum MarqueeFFmpeg.HardwareDecodingError
@_exported import enum MarqueeFFmpeg.RenderNode
@_exported import class MarqueeFFmpeg.VADevice
@_exported import class MarqueeFFmpeg.VAAPIVideoDecoder
