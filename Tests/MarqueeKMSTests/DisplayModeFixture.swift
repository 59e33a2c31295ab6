import CDRM
@testable import MarqueeKMS

/// Modes as a connector would report them, built from drmModeModeInfo.
enum DisplayModeFixture {
    static func mode(_ width: Int, _ height: Int, _ hertz: Int, preferred: Bool = false) -> DisplayMode {
        var info = drmModeModeInfo()
        info.hdisplay = UInt16(width)
        info.vdisplay = UInt16(height)
        // Totals of 2000 x 1125 make the pixel clock a whole number of kHz for every rate used.
        info.htotal = 2000
        info.vtotal = 1125
        info.clock = UInt32(2000 * 1125 * hertz / 1000)
        info.vrefresh = UInt32(hertz)
        info.type = preferred ? UInt32(DRM_MODE_TYPE_PREFERRED) : 0
        return DisplayMode(info)
    }
}
