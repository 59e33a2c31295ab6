import Marquee

/// What a file in the upload folder is, as the player would play it.
enum MediaKind: String, Sendable {
    case video, image, audio

    /// The kind `media` plays as; nil when it has no track to decode.
    init?(_ media: MediaDescription) {
        if media.isStillImage {
            self = .image
        } else if let video = media.preferredTrack(.video), video.video?.isAttachedPicture != true {
            self = .video
        } else if media.preferredTrack(.audio) != nil {
            self = .audio
        } else {
            return nil
        }
    }
}

/// What `GET /media` says of a file besides its name and stamp: its kind
/// and shape, or why the player cannot play it.
struct MediaProbe: Sendable {
    let kind: MediaKind?
    /// Seconds; nil for a picture and for a file that does not say.
    let duration: Double?
    /// As displayed: pixel aspect applied, turned as the file says; nil without pictures.
    private(set) var width: Int?
    private(set) var height: Int?
    /// Why the file cannot play (libavformat's reason, or no decodable track); nil when it can.
    let problem: String?

    init(_ media: MediaDescription) {
        kind = MediaKind(media)
        let seconds = media.duration.seconds
        duration = kind == .image || !seconds.isFinite ? nil : seconds
        if kind != .audio, let video = media.preferredTrack(.video)?.video {
            let aspect = video.sampleAspectRatio?.doubleValue ?? 1
            let stretched = aspect > 0 && aspect.isFinite ? Int((Double(video.width) * aspect).rounded()) : video.width
            (width, height) = video.orientation.swapsAxes ? (video.height, stretched) : (stretched, video.height)
        } else {
            (width, height) = (nil, nil)
        }
        problem = kind == nil ? "no track this player can decode" : nil
    }

    /// Turns the size a quarter when the decoded picture's shape says the
    /// file is turned where the container does not (a JPEG's EXIF tag,
    /// which only the decoder reads).
    mutating func match(shown: PixelSize) {
        guard let width, let height, width != height, shown.width != shown.height,
              (width > height) != (shown.width > shown.height) else { return }
        (self.width, self.height) = (height, width)
    }

    init(problem: String) {
        (kind, duration, width, height) = (nil, nil, nil, nil)
        self.problem = problem
    }
}
