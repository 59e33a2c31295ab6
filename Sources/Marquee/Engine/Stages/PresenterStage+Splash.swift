import MarqueeFFmpeg

/// The splash (`PlayerConfiguration.splash`): a picture, or the background
/// colour, on the output as the presenter's very first step, before any
/// item's frame; and the last picture drawn again for an output that lost
/// it (`ScanOutOutput.needsPicture`: a display that came after the start).
extension PresenterStage {
    func showSplash(_ splash: Splash, now: HostTime) {
        var picture = SolidColourFrame(rgb: splash.background).frame(pts: .zero, duration: MediaTime(seconds: 1, preferredTimescale: 1000))
        if let path = splash.path {
            do {
                picture = try Self.decodeSplash(path, screenSize: output?.screenSize)
            } catch {
                engine.post(.splashUnavailable(path: path, error))
            }
        }
        do {
            _ = try draw(picture, visibility: 1, at: now)
            splashPicture = picture
            engine.post(.splashShown)
        } catch {
            reportOutputError(error)
        }
    }

    /// The picture decoded as a still item's is (reduced where it is larger
    /// than the screen, turned as its EXIF says), in software.
    private static func decodeSplash(_ path: String, screenSize: PixelSize?) throws -> VideoFrame {
        let source = try ItemSource(item: PlayerItem(source: path), audioFormat: nil, videoThreads: 1, hardware: .software,
                                    deinterlacing: Deinterlacing(), network: NetworkOptions(), imageDuration: 1,
                                    screenSize: screenSize, readAhead: nil, onSoftwareFallback: { _ in })
        guard let still = source.still else { throw PlaybackError.notAPicture(source: path) }
        return still
    }

    /// The last frame (else the splash) on the output again.
    func redrawLastPicture(now: HostTime) {
        // The last frame is kept as it was drawn (a fading one already blended).
        guard let picture = local.last?.frame.frame ?? splashPicture else { return }
        do {
            _ = try draw(picture, visibility: 1, captions: local.last.flatMap { Self.captions(of: $0.frame) }, at: now)
        } catch {
            reportOutputError(error)
        }
    }
}
