import FoundationEssentials
import MarqueeFFmpeg
import Synchronization

/// Pictures of an asset at requested times, as AVAssetImageGenerator makes
/// them: a thumbnail for a content system's preview, a contact sheet.
///
/// Each request opens the asset, seeks and decodes in software, on a
/// Dispatch thread, through the same `ItemSource` playback uses (so a
/// picture is filtered, deinterlaced and tone mapped as it is shown). With
/// both tolerances zero the picture is the frame whose display interval
/// holds the time (an exact seek: from the keyframe before, through an open
/// GOP's leading pictures); with the defaults (infinite) it is the
/// keyframe at or before the time, which needs no decoding past it; with
/// finite tolerances, that keyframe when it lies within them, else the
/// exact frame. The actual time returned is the picture's own.
///
/// Set the properties before the first request; a value type copies them
/// into each request, so it is safe to use from any task.
public struct ImageGenerator: Sendable {
    public let asset: Asset
    /// How far before the requested time the picture may be (AVFoundation's
    /// `requestedTimeToleranceBefore`); `.positiveInfinity` by default.
    public var requestedTimeToleranceBefore = MediaTime.positiveInfinity
    /// How far after it the picture may be; `.positiveInfinity` by default.
    public var requestedTimeToleranceAfter = MediaTime.positiveInfinity
    /// The largest picture returned: fitted inside it, keeping its shape;
    /// nil for the picture's own size. Both sides at least 1.
    public var maximumSize: PixelSize?
    /// Whether the picture is turned and mirrored as the track's
    /// orientation says and stretched by its pixel aspect, as a display
    /// shows it (true, the default), or left as stored.
    public var appliesPreferredTrackTransform = true

    public init(asset: Asset) {
        self.asset = asset
    }

    /// A picture and the time it stands for.
    public struct Image: Sendable {
        /// RGB24, at its displayed size (within `maximumSize`).
        public let picture: VideoFrame
        /// The picture's presentation time, from the item's start.
        public let actualTime: MediaTime
        /// The time that was asked for.
        public let requestedTime: MediaTime
    }

    /// The picture at `time`.
    /// - Throws: `ImageGeneratorError` for a time outside the item, a zero
    ///   maximum size or an asset without video; the backend's error when the
    ///   file cannot be opened or decoded. `CancellationError` once the task is cancelled.
    public func image(at time: MediaTime) async throws -> Image {
        try Task.checkCancellation()
        let request = self
        // The decoding runs on a Dispatch thread, where the task's cancellation is not seen: it reads this flag instead.
        let cancelled = CancelFlag()
        return try await withTaskCancellationHandler {
            try await offCooperativePool { try request.decode(at: time, cancelled: cancelled) }
        } onCancel: {
            cancelled.raise()
        }
    }

    /// The pictures at `times`, in order, one at a time, as a sequence:
    /// each element is the picture or why there is none for that time
    /// (the others still come). Ending the iteration, or cancelling its
    /// task, stops what is left.
    public func images(at times: [MediaTime]) -> AsyncStream<Result<Image, any Error>> {
        let request = self
        return AsyncStream { continuation in
            let work = Task {
                for time in times {
                    if Task.isCancelled { break }
                    do {
                        continuation.yield(.success(try await request.image(at: time)))
                    } catch is CancellationError {
                        break
                    } catch {
                        continuation.yield(.failure(error))
                    }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in work.cancel() }
        }
    }

    // MARK: Decoding

    private var exact: Bool { requestedTimeToleranceBefore == .zero && requestedTimeToleranceAfter == .zero }

    /// - Parameter cancelled: looked at before each packet; set, the decode ends with `CancellationError`.
    private func decode(at time: MediaTime, cancelled: CancelFlag) throws -> Image {
        if let maximumSize, maximumSize.width < 1 || maximumSize.height < 1 {
            throw ImageGeneratorError.badMaximumSize(maximumSize)
        }
        let source: ItemSource
        do {
            source = try ItemSource(item: PlayerItem(asset: asset), audioFormat: nil, videoThreads: 0, hardware: .software,
                                    deinterlacing: Deinterlacing(), network: NetworkOptions(), imageDuration: 1,
                                    screenSize: maximumSize, readAhead: nil, onSoftwareFallback: { _ in })
        } catch PlaybackError.noPlayableTrack {
            // Asked for no sound, a file of sound alone has nothing to open.
            throw ImageGeneratorError.noVideo(source: asset.source)
        }
        guard source.hasVideo else { throw ImageGeneratorError.noVideo(source: asset.source) }
        let duration = source.media.duration
        guard time >= .zero, !duration.isNumeric || duration <= .zero || time < duration else {
            throw ImageGeneratorError.outsideItem(source: asset.source, time: time, duration: duration)
        }
        var frame = try firstFrame(of: source, at: time, exact: exact, cancelled: cancelled)
        if !exact, !within(frame.itemTime, of: time) {
            frame = try firstFrame(of: source, at: time, exact: true, cancelled: cancelled)
        }
        return Image(picture: try shown(frame.frame), actualTime: frame.itemTime, requestedTime: time)
    }

    /// Whether `actual` is inside the tolerances around `requested`.
    private func within(_ actual: MediaTime, of requested: MediaTime) -> Bool {
        let before = requestedTimeToleranceBefore, after = requestedTimeToleranceAfter
        return (before == .positiveInfinity || actual >= requested - before) && (after == .positiveInfinity || actual <= requested + after)
    }

    /// The first frame a start at `time` shows: the keyframe at or before
    /// it, or with `exact` the frame on screen at it.
    private func firstFrame(of source: ItemSource, at time: MediaTime, exact: Bool, cancelled: CancelFlag) throws -> TimelineFrame {
        if let still = source.still {
            return TimelineFrame(frame: still, segment: try source.start(at: .zero, timelineStart: 0, segmentID: 0, exact: false),
                                 itemTime: .zero, timeline: 0, duration: 0, serial: 0)
        }
        _ = try source.start(at: time, timelineStart: 0, segmentID: 0, exact: exact)
        var found: TimelineFrame?
        let keep = { (output: ItemSource.Output) in
            if found == nil, case .video(let frame) = output { found = frame }
        }
        while found == nil {
            if cancelled.isRaised { throw CancellationError() }
            guard try source.step(serial: 0, emit: keep) == .endOfPass else { continue }
            _ = try source.drain(serial: 0, emit: keep)
            guard let found else { throw ImageGeneratorError.nothingDecoded(source: asset.source, time: time) }
            return found
        }
        return found!
    }

    /// The frame as RGB24, as a display shows it (or as stored), fitted in `maximumSize`.
    private func shown(_ frame: VideoFrame) throws -> VideoFrame {
        let converter = PixelConverter()
        var picture = appliesPreferredTrackTransform ? try converter.displayed(frame, as: .rgb24) : try converter.convert(frame, to: .rgb24)
        if let maximumSize, picture.width > maximumSize.width || picture.height > maximumSize.height {
            let scale = min(Double(maximumSize.width) / Double(picture.width), Double(maximumSize.height) / Double(picture.height))
            picture = try converter.convert(picture, to: .rgb24, width: max(1, Int((Double(picture.width) * scale).rounded())),
                                            height: max(1, Int((Double(picture.height) * scale).rounded())))
        }
        return picture
    }
}

/// Why an `ImageGenerator` request has no picture.
public enum ImageGeneratorError: Error, Sendable, Equatable, CustomStringConvertible {
    case outsideItem(source: String, time: MediaTime, duration: MediaTime)
    case badMaximumSize(PixelSize)
    case noVideo(source: String)
    /// The stream ended before any picture from `time` on was decoded.
    case nothingDecoded(source: String, time: MediaTime)

    public var description: String {
        switch self {
        case .outsideItem(let source, let time, let duration):
            "\(source): \(Self.seconds(time)) s is outside the item (0 to \(Self.seconds(duration)) s)"
        case .badMaximumSize(let size): "maximum size \(size.width)x\(size.height): both sides must be at least 1"
        case .noVideo(let source): "\(source): no video track to take a picture of"
        case .nothingDecoded(let source, let time): "\(source): no picture decodes at or after \(Self.seconds(time)) s"
        }
    }

    private static func seconds(_ time: MediaTime) -> String { String(time.seconds, places: 3) }
}

/// A task's cancellation, for work on a thread that is not the task's.
private final class CancelFlag: Sendable {
    private let raised = Atomic(false)

    func raise() { raised.store(true, ordering: .relaxed) }

    var isRaised: Bool { raised.load(ordering: .relaxed) }
}
