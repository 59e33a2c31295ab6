import CALSA

/// libasound prints its own diagnostics to stderr ("ALSA lib confmisc.c:855:
/// (parse_card) cannot find card '9'", several lines per failed open). Marquee
/// reports each failure once, as an `ALSAError` naming the call, so those
/// lines are silenced, process-wide, from the first PCM open on.
enum ALSALibraryMessages {
    /// Installs the silent handler once (thread-safe: a global's lazy initialiser).
    static func silence() { _ = installed }

    /// `snd_lib_error_handler_t` is variadic, which Swift cannot declare; a C
    /// function taking just the fixed arguments and ignoring the rest has the
    /// same calling convention on the x86-64 and AArch64 System V ABIs (the
    /// caller owns the variadic part). libasound imports the type as an opaque pointer.
    private static let installed: Bool = {
        let ignore: @convention(c) (UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?, Int32, UnsafePointer<CChar>?) -> Void = { _, _, _, _, _ in }
        // snd_lib_error_set_handler always answers 0; libasound's messages would
        // simply stay on if it ever refused.
        return snd_lib_error_set_handler(OpaquePointer(unsafeBitCast(ignore, to: UnsafeRawPointer.self))) == 0
    }()
}
