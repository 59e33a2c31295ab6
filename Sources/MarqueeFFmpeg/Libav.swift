import CFFmpeg

/// Process-wide libav settings.
public enum Libav {
    public enum LogLevel: Int32, Sendable, CaseIterable {
        case quiet = -8, error = 16, warning = 24, info = 32, debug = 48

        public init?(name: String) {
            guard let level = Self.allCases.first(where: { "\($0)" == name }) else { return nil }
            self = level
        }
    }

    /// How much libav itself prints to stderr. Marquee reports failures as
    /// typed errors, so libav's own chatter is off unless asked for
    /// (MARQUEE_LIBAV_LOG=warning|info|debug) when debugging a file.
    public static func setLogLevel(_ level: LogLevel) {
        av_log_set_level(level.rawValue)
    }

    /// The libav libraries this process runs against, with the versions
    /// they report at run time (`avformat_version()` ...), e.g. ("libavformat", "59.27.100").
    public static var versions: [(library: String, version: String)] {
        [("libavformat", avformat_version()), ("libavcodec", avcodec_version()), ("libavutil", avutil_version()),
         ("libavfilter", avfilter_version()), ("libswscale", swscale_version()), ("libswresample", swresample_version())]
            .map { ($0, "\($1 >> 16).\($1 >> 8 & 0xff).\($1 & 0xff)") }
    }
}
