import CFFmpeg

/// libavutil's VA-API device context on one render node (the AVBufferRef
/// `av_hwdevice_ctx_create` returns). Codec contexts take their own
/// references; this owner drops its one in deinit.
final class HardwareDeviceContext {
    let reference: UnsafeMutablePointer<AVBufferRef>
    let path: String

    init(vaapi path: String) throws(FFmpegError) {
        var reference: UnsafeMutablePointer<AVBufferRef>?
        try check(av_hwdevice_ctx_create(&reference, AV_HWDEVICE_TYPE_VAAPI, path, nil, 0), "av_hwdevice_ctx_create", source: path)
        guard let reference else { throw .outOfMemory("av_hwdevice_ctx_create", source: path) }
        self.reference = reference
        self.path = path
    }

    deinit {
        var doomed: UnsafeMutablePointer<AVBufferRef>? = reference
        av_buffer_unref(&doomed)
    }
}
