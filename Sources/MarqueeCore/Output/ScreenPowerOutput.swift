/// An output whose screen can be switched off, so the monitor sleeps, and
/// on again with the picture back: the KMS output (the CRTC's ACTIVE
/// property, or DPMS on the legacy path), and simulated displays, which
/// record the state for tests.
///
/// A protocol of its own rather than part of `ScanOutOutput`: a simulated
/// display that takes whole frames (`NullVideoOutput`) has a screen to
/// switch off too, and a recording (files) has none, so neither side of
/// the scan-out split decides whether an output has a screen.
///
/// Threading: the presenter thread only, as every `VideoOutput` method.
/// Others ask the player (`Player.setScreenPower(on:)`), whose presenter
/// stage applies the change on its own thread between frames; while the
/// screen is off the presenter neither presents nor calls `maintain`.
public protocol ScreenPowerOutput: VideoOutput {
    /// Whether the screen is on: true until `setScreenPower(false)`.
    var isScreenOn: Bool { get }

    /// Switches the screen off (the display keeps its mode, the monitor
    /// sleeps) or on again (the mode is set again with the last picture,
    /// or with the next frame when nothing was shown yet or the display is
    /// gone). A display that reconnects while off stays off until turned
    /// on. Setting the state it already has does nothing.
    /// - Throws: the backend's error; `isScreenOn` then says the state
    ///   asked for, so that a present while off still commits nothing and
    ///   turning it on tries again.
    func setScreenPower(_ on: Bool) throws
}
