import Marquee

/// A PNG of what a display shows, for `GET /screenshot.png` and the
/// fleet's `screenshot` command.
extension PlayControls {
    /// The widths a screenshot may be scaled to, in pixels (up to an 8K screen).
    public static let screenshotWidths = 16...7680

    /// Why there is no screenshot, with the HTTP status that says so.
    struct ScreenshotRefusal: Error {
        let status: Int
        let message: String
    }

    /// - Parameters:
    ///   - width: scaled to this width (the height keeps the screen's shape); nil: the screen's.
    ///   - display: a layout's display by name; nil: the first.
    func screenshotPNG(width: Int?, display name: String?) -> Result<[UInt8], ScreenshotRefusal> {
        if let layout = screen.layout {
            let display = name.map(layout.display(named:)) ?? layout.displays.first
            guard let display else {
                let names = layout.displays.map(\.name).joined(separator: ", ")
                return .failure(ScreenshotRefusal(status: 404, message: "display=\(name!.prefix(40)): no such display (have: \(names))"))
            }
            guard let screen = display.screen() else { return .failure(ScreenshotRefusal(status: 503, message: "display \(display.name) is not there")) }
            do {
                return .success(try ScreenCapture().png(rgb: screen.rgb, width: screen.width, height: screen.height, scaledWidth: width))
            } catch {
                return .failure(ScreenshotRefusal(status: 500, message: "screenshot: \(error)"))
            }
        }
        guard let picture = player.pictureOnScreen() else { return .failure(ScreenshotRefusal(status: 503, message: "nothing has been drawn on the screen yet")) }
        do {
            return .success(try screen.png(of: picture, scaledWidth: width))
        } catch {
            return .failure(ScreenshotRefusal(status: 500, message: "screenshot: \(error)"))
        }
    }
}
