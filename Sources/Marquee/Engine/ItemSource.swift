import MarqueeFFmpeg

/// The demuxer and decoders of one item, run by the engine's source thread.
/// It plays pass after pass of the same item without flushing its decoders:
/// at the end of a pass it seeks back to the start and shifts every later
/// packet's timestamps by the pass length, so the decoders see one continuous
/// stream (this is what makes a loop seamless).
///
/// Not thread-safe: owned by the source thread.
final class ItemSource {
    let item: PlayerItem
    let demuxer: Demuxer
    let media: MediaDescription
    private let video: (stream: Int, decoder: FallbackVideoDecoder)?
    private let audio: (stream: Int, decoder: AudioDecoder)?
    /// The audio stream's declared end: decoded sound past it is codec padding,
    /// which would be a gap at every loop seam.
    private let audioEnd: MediaTime?
    /// Added to every packet of the current pass.
    private var passOffset = MediaTime.zero
    /// The latest packet end seen in this pass (after the offset): where the next pass starts.
    private var passEnd = MediaTime.negativeInfinity
    /// Segments whose frames may still come out of the decoders, oldest first.
    private var segments: [Segment] = []
    /// The segment each decoder's output is in: video trails audio across a
    /// seam (frames still inside a threaded decoder), so each has its own.
    private var videoSegment = 0
    private var audioSegment = 0
    /// Exact seeks: frames and samples before this stream time are decoded but not shown.
    private var discardBefore: MediaTime?
    /// The latest video frame handed on (or skipped by an exact seek), on the
    /// offset timeline: where a switch to software decoding resumes.
    private var lastVideoPts: MediaTime?
    /// After such a switch: frames up to this pts were shown already.
    private var videoShownThrough: MediaTime?
    /// The latest audio packet decoded, and after a switch the point up to
    /// which re-read audio packets are skipped (the audio decoder has had them).
    private var lastAudioPacketPts: MediaTime?
    private var audioFedThrough: MediaTime?
    /// Says why video decoding went to software (one line, without the source).
    private let onSoftwareFallback: (String) -> Void
    /// Consecutive packets the decoder rejected; many in a row means the item is broken.
    private var consecutiveDecodeErrors = 0
    static let decodeErrorLimit = 50
    private var frameRate: Double
    /// A network item's packets, read ahead on a thread of their own.
    let readAhead: ReadAhead?
    /// For a still picture: how long it stays up, its one frame's duration.
    private let stillDuration: Double?
    /// A still picture's one frame, decoded when the item opens and shown
    /// each pass: in one piece, or in the steps of its fades; the pieces of
    /// this pass, and how many of them were shown.
    let still: VideoFrame?
    private var stillPieces: [(offset: Double, duration: Double)] = []
    private var stillShown = 0
    /// This pass's fades, planned by the source stage as the pass starts.
    private var fades: PassFades?
    /// For a still picture played with sound: the format of the silence it
    /// is heard as (so the audio clock runs through it, and the next
    /// item's sound comes after it).
    private let stillSilence: AudioFormat?
    /// Reading backwards (a negative rate, a step back); nil reading forwards.
    private var reverse: ReverseReader?
    /// A step: frames still to pass over before the one shown, and the last
    /// one passed over, shown instead where the item ends first.
    private var skipFrames = 0
    private var lastSkipped: (frame: VideoFrame, duration: Double)?
    /// Frames handed on since the latest start.
    private(set) var framesSinceStart = 0
    /// Since the current pass began: frames and sound handed on, and packets
    /// the decoders took without an error (whose frames a threaded decoder
    /// may hand on only in a later pass).
    private var passOutput = 0
    private var passPacketsTaken = 0
    /// Packets of the current pass the decoders rejected.
    private(set) var passDecodeErrors = 0
    /// Video packets read while the video queue had no room, in order, not
    /// yet decoded: the sound stored beside them is read on (`step`).
    private var heldVideo = FIFO<Packet>()
    private var heldVideoBytes = 0
    /// The demuxer reached the pass's end with video packets still held.
    private var readToEnd = false
    /// What may be held before reading stops too: far more than any file's
    /// interleave puts between a picture and its sound (the audio queue's
    /// second bounds the reading first). Nothing when the sound is not read
    /// on (`readsOnForSound`).
    private let heldVideoLimit: (packets: Int, bytes: Int)

    /// Frame threads for a software video decoder on slice threads alone,
    /// from the next keyframe (`FallbackVideoDecoder.useFrameThreads`).
    func useFrameThreads() {
        video?.decoder.useFrameThreads()
    }

    /// - Parameters:
    ///   - screenSize: a still picture larger than this is decoded smaller where its codec can.
    ///   - readAhead: for a network item, how many seconds to read
    ///     ahead of the decoders, and the signal raised when packets come.
    ///   - readsOnForSound: while the video queue is full, video packets are
    ///     held and the sound beside them read on (`step`), so a short video
    ///     queue never starves a sound device in real time. Untimed, each
    ///     output keeps its own clock and nothing starves: reading on would
    ///     only hold the packets of the seconds the sound runs ahead.
    init(item: PlayerItem, audioFormat: AudioFormat?, videoThreads: DecoderThreads, hardware: HardwareDecoding,
         deinterlacing: Deinterlacing, network: NetworkOptions, imageDuration: Double, screenSize: PixelSize?,
         readAhead: (seconds: Double, consumer: WakeSignal)?,
         readsOnForSound: Bool = true, onSoftwareFallback: @escaping (String) -> Void) throws {
        self.item = item
        heldVideoLimit = readsOnForSound ? (packets: 256, bytes: 16 << 20) : (0, 0)
        self.onSoftwareFallback = onSoftwareFallback
        let demuxer = try Demuxer(source: item.asset.source, openTimeout: item.asset.timeout, headerWillDo: true, network: network)
        self.demuxer = demuxer
        let stillDuration = demuxer.media.isStillImage ? item.imageDuration ?? imageDuration : nil
        self.stillDuration = stillDuration
        stillSilence = stillDuration == nil ? nil : audioFormat
        var media = demuxer.media
        // A picture lasts as long as it is shown, not the frame of 25 fps its reader gives it.
        if let stillDuration { media.duration = MediaTime(seconds: stillDuration, preferredTimescale: 90_000) }
        self.media = media
        guard media.isPlayable else {
            throw media.containerFormat == "webp_pipe" ? PlaybackError.unreadableWebP(source: item.asset.source)
                : PlaybackError.noPlayableTrack(source: item.asset.source)
        }
        item.markReady(media)
        // An HLS stream's variants: only the chosen one's segments are fetched (the others' streams are discarded).
        let variant = item.variantPreference(default: network.variant).choose(from: media.variants)
        let videoTrack = media.preferredTrack(.video, in: variant).flatMap { item.isTrackEnabled($0.id) ? $0 : nil }
        let audioTrack = audioFormat == nil ? nil
            : (media.preferredTrack(.audio, in: variant) ?? media.preferredTrack(.audio)).flatMap { item.isTrackEnabled($0.id) ? $0 : nil }
        // A picture larger than the screen: decoded at a reduced size where its codec can (JPEG); the output scales the rest.
        let fit = videoTrack.flatMap { track -> PixelSize? in
            guard stillDuration != nil, let screenSize, let picture = track.video else { return nil }
            return PictureFit.fitted(PixelSize(width: picture.width, height: picture.height), into: screenSize)
        }
        video = try videoTrack.map { track in
            let lowres = fit.map { PictureFit.reduction(of: PixelSize(width: track.video?.width ?? 0, height: track.video?.height ?? 0),
                                                         to: $0) } ?? 0
            return (track.id, try FallbackVideoDecoder(demuxer: demuxer, stream: track.id, threads: videoThreads, hardware: hardware,
                                                       deinterlacing: deinterlacing, lowres: lowres))
        }
        audio = try audioTrack.map { ($0.id, try AudioDecoder(demuxer: demuxer, stream: $0.id, output: audioFormat!)) }
        audioEnd = audioTrack.flatMap { demuxer.declaredEnd(ofStream: $0.id) }
        guard video != nil || audio != nil else { throw PlaybackError.noPlayableTrack(source: item.asset.source) }
        frameRate = videoTrack?.video?.frameRate ?? 25
        if let failure = video?.decoder.setupFailure { onSoftwareFallback("decoding video in software: \(failure)") }
        // Decoded now, so a picture that does not decode fails here (one line, the show goes on).
        let pictureDecoder = video
        still = try stillDuration.flatMap { _ in
            try pictureDecoder.map { try Self.decodePicture(demuxer, $0, source: item.asset.source) }
        }
        demuxer.select(streams: Set([video?.stream, audio?.stream].compactMap { $0 }))
        let timedStream = video?.stream ?? audio?.stream ?? 0
        // A live stream has no more than its latency to read ahead: what is newer is not written yet.
        let isLive = !media.duration.isNumeric || media.duration <= .zero
        let ahead = readAhead.map { isLive ? min($0.seconds, max(network.liveLatency, 0.5)) : $0.seconds }
        self.readAhead = readAhead.flatMap { options in
            item.asset.isNetworkSource ? ReadAhead(demuxer: demuxer, timedStream: timedStream,
                                                   seconds: ahead ?? options.seconds, consumer: options.consumer) : nil
        }
    }

    deinit { readAhead?.stop() }

    /// Runs a seek on the demuxer, with the read-ahead (if any) parked and emptied.
    private func seeking(_ body: (Demuxer) throws(FFmpegError) -> Void) throws(FFmpegError) {
        dropHeldVideo()
        if let readAhead { try readAhead.reposition(body) } else { try body(demuxer) }
    }

    var hasVideo: Bool { video != nil }
    /// Read backwards since the latest start.
    var isReversed: Bool { reverse != nil }
    /// The loop pass being read (0 = first).
    var pass: Int { segments.last?.pass ?? 0 }
    var hasAudio: Bool { audio != nil || stillSilence != nil }
    var decoderName: String? { video?.decoder.current.decoderName }
    var decoderKind: VideoDecoderKind? { video?.decoder.current.kind }

    /// Starts a segment at item time `itemStart` placed at `timelineStart`.
    /// With `exact`, frames before `itemStart` are decoded but not shown;
    /// otherwise playback starts at the keyframe at or before it.
    /// `pass` numbers the segment (a source reopened after an outage goes on with its pass).
    /// - Parameters:
    ///   - reversed: read backwards from `itemStart` (clamped to the item's
    ///     end; +infinity is the end): the frames shown before it, newest
    ///     first, without sound. The item must allow it (`PlayerItem.canPlayReverse`).
    ///   - skipFrames: a step: pass over this many frames first (at the
    ///     item's ends the last one is shown).
    ///   - pictureAhead: a start whose first picture is wanted soonest: it is
    ///     decoded ahead too where that is sooner (`FallbackVideoDecoder.decodeFirstPictureAhead`).
    func start(at itemStart: MediaTime, timelineStart: Double, segmentID: Int, pass: Int = 0, exact: Bool,
               reversed: Bool = false, skipFrames: Int = 0, pictureAhead: Bool = false) throws -> Segment {
        let wasRead = !segments.isEmpty
        segments.removeAll()
        dropHeldVideo()
        stillShown = 0
        fades = nil
        (videoSegment, audioSegment) = (0, 0)
        passEnd = .negativeInfinity
        lastVideoPts = nil
        videoShownThrough = nil
        lastAudioPacketPts = nil
        audioFedThrough = nil
        discardBefore = nil
        reverse = nil
        self.skipFrames = skipFrames
        lastSkipped = nil
        framesSinceStart = 0
        (passOutput, passPacketsTaken, passDecodeErrors) = (0, 0, 0)
        if reversed, let video {
            let time = itemStart.isNumeric ? min(max(itemStart, .zero), media.duration) : media.duration
            audio?.decoder.flush()
            // From the end, every frame: a container's length may end at its last frame's start (WebM) rather than after it.
            let end = time < media.duration ? time : media.duration + MediaTime(value: 1, timescale: 1)
            reverse = ReverseReader(demuxer: demuxer, stream: video.stream, decoder: video.decoder, start: media.startTime,
                                    end: end + media.startTime)
            let segment = Segment(id: segmentID, item: item, pass: pass, timelineStart: timelineStart, itemStart: time,
                                  ptsOrigin: time + media.startTime, hasVideo: true, hasAudio: false, isReversed: true)
            segments.append(segment)
            return segment
        }
        let absolute = itemStart + media.startTime
        if itemStart > .zero || wasRead {
            try seeking { (demuxer) throws(FFmpegError) in
                if exact, let video {
                    try demuxer.seek(toShow: absolute, stream: video.stream)
                } else {
                    try demuxer.seek(to: absolute)
                }
            }
            video?.decoder.flush()
            audio?.decoder.flush()
        }
        let origin = absolute + passOffset
        discardBefore = exact && itemStart > .zero ? origin : nil
        if pictureAhead, discardBefore == nil, skipFrames == 0 { video?.decoder.decodeFirstPictureAhead() }
        let segment = Segment(id: segmentID, item: item, pass: pass, timelineStart: timelineStart, itemStart: itemStart,
                              ptsOrigin: origin, hasVideo: hasVideo, hasAudio: hasAudio)
        segments.append(segment)
        return segment
    }

    /// Begins the next loop pass right after the current one, without a
    /// decoder flush. Returns the new segment.
    func startNextPass(segmentID: Int) throws -> Segment {
        guard let last = segments.last else { throw PlaybackError.internalState("next pass before start") }
        if isReversed, let timelineEnd {
            // Backwards, the next pass starts at the end again, right after the start shown last.
            return try start(at: media.duration, timelineStart: timelineEnd, segmentID: segmentID, pass: last.pass + 1,
                             exact: true, reversed: true)
        }
        let end = passEnd.isNumeric ? passEnd : last.ptsOrigin
        let start = media.startTime
        try seeking { (demuxer) throws(FFmpegError) in try demuxer.seek(to: start) }
        passOffset = end - media.startTime
        passEnd = .negativeInfinity
        discardBefore = nil
        stillShown = 0
        fades = nil
        (passOutput, passPacketsTaken, passDecodeErrors) = (0, 0, 0)
        let segment = Segment(id: segmentID, item: item, pass: last.pass + 1, timelineStart: last.timeline(ofPts: end),
                              itemStart: .zero, ptsOrigin: end, hasVideo: hasVideo, hasAudio: hasAudio)
        segments.append(segment)
        return segment
    }

    /// The segment being read, and where its pass ends (stream time, once read to EOF).
    var lastSegment: Segment? { segments.last }
    var passEndTime: MediaTime? { passEnd.isNumeric ? passEnd : nil }

    /// Timeline seconds at which the current pass ends (known once it has been read to EOF).
    var timelineEnd: Double? {
        if let reverse, let last = segments.last { return last.timelineStart + (last.ptsOrigin - reverse.end).seconds }
        guard let last = segments.last, passEnd.isNumeric else { return nil }
        return last.timeline(ofPts: passEnd)
    }

    /// Item time through which this pass was read; nil before its first packet.
    var readThrough: MediaTime? {
        guard let last = segments.last, passEnd.isNumeric else { return nil }
        return last.itemTime(ofPts: passEnd)
    }

    /// Where reading resumes after the source was lost, in item time: just
    /// past the last frame handed on (an exact start there shows the next
    /// one; packets read but not yet decoded into frames are read again),
    /// or without video where reading got to.
    var resumePoint: MediaTime? {
        guard let segment = segments.last else { return nil }
        guard hasVideo else { return readThrough }
        guard let last = lastVideoPts, last >= segment.ptsOrigin else { return segment.itemStart }
        return segment.itemTime(ofPts: last) + MediaTime(seconds: 1 / frameRate, preferredTimescale: 90_000)
    }

    /// Whether the pass that just ended showed nothing: no frame and no
    /// sound came out of it, and it either ended in an error or its
    /// decoders took none of its packets (a clean pass whose packets were
    /// taken may still show their frames in the next one).
    func passShowedNothing(failed: Bool) -> Bool {
        passOutput == 0 && (failed || passPacketsTaken == 0)
    }

    /// A stream without a length: what ends it is a lost connection, not its end.
    var isLive: Bool { !media.duration.isNumeric || media.duration <= .zero }

    /// At the end of a pass: it ended more than a second before the
    /// container's length (a VOD stream whose server went away: libavformat's
    /// HLS reader skips segments it cannot fetch and then reports the end),
    /// or it is live, or nothing was read at all.
    var endedEarly: Bool {
        if isReversed { return false }
        guard !isLive, let read = readThrough else { return true }
        return (media.duration - read).seconds > 1
    }

    enum Output {
        case video(TimelineFrame)
        case audio(TimelineAudio)
    }

    enum Step {
        case decoded
        case endOfPass
        /// A network item's next packet has not come yet.
        case waiting
        /// Nothing to do until the video queue has room: no sound to read
        /// for, or as much video held as may be.
        case videoFull
    }

    /// Reads and decodes one packet (for a still picture, shows its frame).
    /// - Parameter videoRoom: whether the video queue takes a frame now.
    ///   Without room a picture is not made (it would wait in the source's
    ///   hands, a picture more than real time needs): video packets are held
    ///   as they were read, and the sound stored beside them read on, so a
    ///   short video queue never starves the sound device.
    func step(serial: Int, videoRoom: Bool = true, emit: (Output) -> Void) throws -> Step {
        if let reverse { return try stepBackwards(reverse, serial: serial, emit: emit) }
        if let picture = video?.decoder.pictureAhead() { emitVideo(picture, serial: serial, emit: emit) }
        if videoRoom, let packet = heldVideo.popFirst() {
            heldVideoBytes -= packet.size
            heldVideoChanged()
            try decode(packet, serial: serial, emit: emit)
            return .decoded
        }
        if !videoRoom, still != nil || audio == nil || readToEnd
            || heldVideo.count >= heldVideoLimit.packets || heldVideoBytes >= heldVideoLimit.bytes {
            return .videoFull
        }
        if readToEnd {
            readToEnd = false
            extendToDeclaredDuration()
            return .endOfPass
        }
        if let still, let stillDuration {
            if stillShown == 0 { stillPieces = fades?.stillPieces(duration: stillDuration) ?? [(0, stillDuration)] }
            guard stillShown < stillPieces.count else {
                extendToDeclaredDuration()
                return .endOfPass
            }
            let piece = stillPieces[stillShown]
            stillShown += 1
            var frame = still
            frame.pts = still.pts + passOffset + MediaTime(seconds: piece.offset, preferredTimescale: 90_000)
            emitVideo(frame, duration: piece.duration, serial: serial, emit: emit)
            return .decoded
        }
        let next = try readAhead?.next() ?? demuxer.read().map(ReadAhead.Next.packet) ?? .end
        let packet: Packet
        switch next {
        case .packet(let read): packet = read
        case .waiting: return .waiting
        case .failed(let error): throw error
        case .end:
            // The pass ends once what is held is decoded; a network stream
            // that ended early is lost at once instead (its held video is
            // read again when it is back).
            guard heldVideo.isEmpty || (item.asset.isNetworkSource && endedEarly) else {
                readToEnd = true
                return .decoded
            }
            extendToDeclaredDuration()
            return .endOfPass
        }
        packet.offsetTimestamps(by: passOffset)
        if let audio, packet.streamIndex == audio.stream, let fedThrough = audioFedThrough {
            if packet.ordering <= fedThrough { return .decoded }
            audioFedThrough = nil
        }
        let end = packet.end
        if end.isNumeric, end > passEnd {
            passEnd = end
            publishLoadedRange()
        }
        if let video, packet.streamIndex == video.stream, !videoRoom || !heldVideo.isEmpty {
            heldVideo.append(packet)
            heldVideoBytes += packet.size
            heldVideoChanged()
            return .decoded
        }
        try decode(packet, serial: serial, emit: emit)
        return .decoded
    }

    private func dropHeldVideo() {
        heldVideo.removeAll()
        heldVideoBytes = 0
        readToEnd = false
        heldVideoChanged()
    }

    /// A network item's buffer counts the video held here (in the read
    /// ahead's timestamps, before this pass's offset): read from the
    /// network, not yet decoded. Without it, reading on for sound would
    /// drain the read-ahead a start waits to see full.
    private func heldVideoChanged() {
        guard let readAhead else { return }
        guard let first = heldVideo.elements.first(where: { $0.pts.isValid })?.pts,
              let end = heldVideo.elements.last(where: { $0.end.isValid })?.end else { return readAhead.holding(nil) }
        readAhead.holding((first - passOffset, end - passOffset))
    }

    /// Plans the fades of the pass just started (`transition` permitting):
    /// up from the colour where it follows another item, down to it where
    /// another item follows. A video fades out to its video stream's
    /// declared end (else the item's), so a longer sound track holds a
    /// picture of the colour; a live stream, having no end, does not fade out.
    func planFades(_ transition: ItemTransition, fadesIn: Bool, fadesOut: Bool) {
        fades = nil
        guard case .fade(let seconds, _) = transition, seconds > 0, fadesIn || fadesOut, let segment = segments.last else { return }
        var half = seconds / 2
        let start: MediaTime, end: MediaTime?
        if let still, let stillDuration {
            start = still.pts + passOffset
            end = start + MediaTime(seconds: stillDuration, preferredTimescale: 90_000)
            half = min(half, stillDuration / 2)
        } else {
            start = segment.ptsOrigin
            let declared = video.flatMap { demuxer.declaredEnd(ofStream: $0.stream) }
                ?? (media.duration.isNumeric && media.duration > .zero ? media.startTime + media.duration : nil)
            end = declared.map { $0 + passOffset }
        }
        fades = PassFades(inFrom: fadesIn ? start : nil, outTo: fadesOut ? end : nil, half: half)
    }

    /// A pass lasts as long as its longest stream, or as the container says
    /// where that is longer by more than a frame (a file whose streams all
    /// end early still plays its length, in silence on its last frame). A
    /// declared length a second or more past the streams is an estimate
    /// (MPEG-TS guesses from the bit rate), not taken.
    private func extendToDeclaredDuration() {
        if let stillDuration, let segment = segments.last {
            passEnd = segment.ptsOrigin + MediaTime(seconds: stillDuration, preferredTimescale: 90_000)
            return
        }
        guard media.duration.isNumeric, passEnd.isNumeric else { return }
        let excess = (media.startTime + media.duration + passOffset - passEnd).seconds
        if excess > 1 / frameRate, excess < 1 { passEnd = passEnd + MediaTime(seconds: excess, preferredTimescale: 90_000) }
    }

    /// The item's `loadedTimeRanges`: from where this pass started to the
    /// furthest packet demuxed, in item time.
    private func publishLoadedRange() {
        guard let segment = segments.last else { return }
        let loaded = segment.itemTime(ofPts: passEnd)
        item.update { $0.loadedTimeRanges = [TimeRange(start: segment.itemStart, end: max(loaded, segment.itemStart))] }
    }

    /// Drains the decoders at the real end of the item (no further pass).
    /// Returns false when video switched to software instead: the input was
    /// rewound and must be read again to its end.
    func drain(serial: Int, emit: (Output) -> Void) throws -> Bool {
        // Video still held was read but not decoded (a source lost, a stream
        // that ended early): decoded now it would all wait at once, a second
        // of pictures; a resumed source reads it again (`resumePoint`).
        dropHeldVideo()
        guard try decode(nil, serial: serial, emit: emit) else { return false }
        showLastSkipped(serial: serial, emit: emit)
        return true
    }

    /// A step that ran out of item before its count: the last frame passed over is the one shown.
    private func showLastSkipped(serial: Int, emit: (Output) -> Void) {
        guard framesSinceStart == 0, let last = lastSkipped else { return }
        skipFrames = 0
        lastSkipped = nil
        if isReversed {
            emitBackwards(last.frame, serial: serial, emit: emit)
        } else {
            emitVideo(last.frame, duration: last.duration, serial: serial, emit: emit)
        }
    }

    /// A step's frame to pass over (kept, in case the item ends first), or false to hand it on.
    private func passesOver(_ frame: VideoFrame, duration: Double) -> Bool {
        guard skipFrames > 0 else { return false }
        skipFrames -= 1
        lastSkipped = (frame, duration)
        return true
    }

    /// One step of reading backwards: a packet, a seek or a frame handed on.
    private func stepBackwards(_ reverse: ReverseReader, serial: Int, emit: (Output) -> Void) throws -> Step {
        do throws(FFmpegError) {
            switch try reverse.step() {
            case .frame(let frame):
                consecutiveDecodeErrors = 0
                passPacketsTaken += 1
                emitBackwards(frame, serial: serial, emit: emit)
            case .working:
                break
            case .fellBack(let reason):
                onSoftwareFallback("\(reason); decoding in software")
            case .finished:
                showLastSkipped(serial: serial, emit: emit)
                return .endOfPass
            }
        } catch {
            guard error.kind == .decoding else { throw error }
            consecutiveDecodeErrors += 1
            passDecodeErrors += 1
            if consecutiveDecodeErrors >= Self.decodeErrorLimit { throw error }
        }
        return .decoded
    }

    /// A frame read backwards, placed so that its end comes first on the timeline.
    private func emitBackwards(_ frame: VideoFrame, serial: Int, emit: (Output) -> Void) {
        let duration = frame.duration.isNumeric && frame.duration > .zero ? frame.duration.seconds : 1 / frameRate
        if passesOver(frame, duration: duration) { return }
        guard let segment = segments.last else { return }
        framesSinceStart += 1
        passOutput += 1
        emit(.video(TimelineFrame(frame: frame, segment: segment, itemTime: segment.itemTime(ofPts: frame.pts),
                                  timeline: segment.timeline(ofFrameAt: frame.pts, duration: duration), duration: duration,
                                  serial: serial)))
    }

    /// A still picture's frame: its packet decoded and the decoder drained
    /// and flushed (nothing of it is left inside). Where VA-API gave up on
    /// it, the picture is read again for software.
    private static func decodePicture(_ demuxer: Demuxer, _ video: (stream: Int, decoder: FallbackVideoDecoder),
                                      source: String) throws -> VideoFrame {
        defer { video.decoder.flush() }
        var frames: [VideoFrame] = []
        var rereads = 0
        while frames.isEmpty, let packet = try demuxer.read() {
            guard packet.streamIndex == video.stream else { continue }
            switch try video.decoder.decode(packet) {
            case .frames(let decoded): frames = decoded
            case .switchedToSoftware:
                rereads += 1
                guard rereads <= 1 else { throw PlaybackError.noPicture(source: source) }
                try demuxer.seek(to: .zero)
            }
        }
        if frames.isEmpty, case .frames(let drained) = try video.decoder.decode(nil) { frames = drained }
        guard let frame = frames.first else { throw PlaybackError.noPicture(source: source) }
        return frame
    }

    /// Returns false when video switched to software and the input was rewound.
    @discardableResult
    private func decode(_ packet: Packet?, serial: Int, emit: (Output) -> Void) throws(FFmpegError) -> Bool {
        do throws(FFmpegError) {
            if let video, packet == nil || packet?.streamIndex == video.stream {
                switch try video.decoder.decode(packet) {
                case .frames(let frames):
                    for frame in frames { emitVideo(frame, serial: serial, emit: emit) }
                case .switchedToSoftware(let reason):
                    let resumed = try rewindForSoftware()
                    onSoftwareFallback("\(reason); decoding in software after the frame at \(String(resumed.seconds, places: 3)) s")
                    return false
                }
            }
            if let audio, packet == nil || packet?.streamIndex == audio.stream {
                for buffer in try audio.decoder.decode(packet) { emitAudio(buffer, serial: serial, emit: emit) }
                if let packet { lastAudioPacketPts = packet.ordering }
            }
            consecutiveDecodeErrors = 0
            if packet != nil { passPacketsTaken += 1 }
        } catch {
            // A damaged packet: skip it and keep the picture going; only a run of them fails the item.
            guard error.kind == .decoding else { throw error }
            consecutiveDecodeErrors += 1
            passDecodeErrors += 1
            if consecutiveDecodeErrors >= Self.decodeErrorLimit { throw error }
        }
        return true
    }

    /// Video went to software mid-stream and the frames inside the failed
    /// decoder are lost: read again from the keyframe at or before the last
    /// frame handed on, skip frames up to it, and skip the audio packets the
    /// audio decoder already had. Returns the item time decoding resumes at.
    ///
    /// When nothing of the current loop pass was handed on yet, the pass
    /// starts again; frames of the previous pass still inside the failed
    /// decoder are then lost (a failure within a few frames of a loop seam).
    private func rewindForSoftware() throws(FFmpegError) -> MediaTime {
        guard let segment = segments.last else { return .zero }
        var resume = segment.ptsOrigin
        videoShownThrough = nil
        if let last = lastVideoPts, last >= segment.ptsOrigin {
            resume = last
            videoShownThrough = last
        }
        let target = resume - passOffset
        try seeking { (demuxer) throws(FFmpegError) in try demuxer.seek(to: target) }
        audioFedThrough = lastAudioPacketPts
        return segment.itemTime(ofPts: resume)
    }

    /// The segment `pts` falls in for the video or the audio decoder's
    /// output; segments both have left behind are forgotten.
    private func segment(for pts: MediaTime, video isVideo: Bool) -> Segment {
        var cursor = isVideo ? videoSegment : audioSegment
        while cursor + 1 < segments.count, pts.isValid, pts >= segments[cursor + 1].ptsOrigin { cursor += 1 }
        if isVideo { videoSegment = cursor } else { audioSegment = cursor }
        let segment = segments[cursor]
        let done = min(hasVideo ? videoSegment : .max, hasAudio ? audioSegment : .max)
        if done > 0 {
            segments.removeFirst(done)
            videoSegment = max(0, videoSegment - done)
            audioSegment = max(0, audioSegment - done)
        }
        return segment
    }

    /// - Parameter shownFor: a still picture's piece: seconds it is up.
    private func emitVideo(_ frame: VideoFrame, duration shownFor: Double? = nil, serial: Int, emit: (Output) -> Void) {
        let duration = shownFor ?? (frame.duration.isNumeric && frame.duration > .zero ? frame.duration.seconds : 1 / frameRate)
        guard frame.pts.isValid else { return }
        if let shown = videoShownThrough {
            if frame.pts <= shown { return }
            videoShownThrough = nil
        }
        lastVideoPts = frame.pts
        if let discardBefore, (frame.pts + MediaTime(seconds: duration, preferredTimescale: 90_000)) <= discardBefore { return }
        if passesOver(frame, duration: duration) { return }
        framesSinceStart += 1
        passOutput += 1
        let segment = segment(for: frame.pts, video: true)
        emit(.video(TimelineFrame(frame: frame, segment: segment, itemTime: segment.itemTime(ofPts: frame.pts),
                                  timeline: segment.timeline(ofPts: frame.pts), duration: duration, serial: serial,
                                  visibility: fades?.visibility(pts: frame.pts, duration: duration) ?? 1)))
        if let format = stillSilence {
            emit(.audio(TimelineAudio(buffer: AudioBuffer(pts: frame.pts, format: format, bytes: []), segment: segment,
                                      timeline: segment.timeline(ofPts: frame.pts), serial: serial, silence: duration)))
        }
    }

    private func emitAudio(_ decoded: AudioBuffer, serial: Int, emit: (Output) -> Void) {
        var buffer = decoded
        guard buffer.pts.isValid else { return }
        if let discardBefore {
            let skip = (discardBefore - buffer.pts).seconds
            if skip >= buffer.duration.seconds { return }
            if skip > 0 { buffer = buffer.droppingFirst(frames: Int(skip * Double(buffer.format.sampleRate))) }
        }
        if let audioEnd {
            let rate = Double(buffer.format.sampleRate)
            let room = Int(((audioEnd + passOffset - buffer.pts).seconds * rate).rounded())
            if room <= 0 { return }
            if room < buffer.frameCount { buffer = buffer.keepingFirst(frames: room) }
        }
        passOutput += 1
        let segment = segment(for: buffer.pts, video: false)
        emit(.audio(TimelineAudio(buffer: buffer, segment: segment, timeline: segment.timeline(ofPts: buffer.pts), serial: serial)))
    }
}

private extension Packet {
    /// Where the packet sits in its stream: pts, or dts where the container has no pts.
    var ordering: MediaTime { pts.isValid ? pts : dts }
}

/// Why an item could not be played, beyond the libav call that failed.
public enum PlaybackError: Error, Sendable, CustomStringConvertible {
    case noPlayableTrack(source: String)
    /// A still picture that decoded to nothing.
    case noPicture(source: String)
    /// An item that showed no frame and no sound on two passes in a row.
    case nothingShown(source: String)
    /// A splash (`Splash.path`) that is a video or sound, not a still picture.
    case notAPicture(source: String)
    /// A WebP libavcodec could not read: damaged, or animated (FFmpeg
    /// decodes animated WebP from 7.1; Debian 12 has 5.1).
    case unreadableWebP(source: String)
    case internalState(String)

    public var description: String {
        switch self {
        case .noPlayableTrack(let source): "\(source): no playable audio or video track"
        case .noPicture(let source): "\(source): the picture did not decode"
        case .nothingShown(let source): "\(source): nothing decodable (no frame or sound on two passes in a row); skipped"
        case .notAPicture(let source): "\(source): not a still picture (PNG, JPEG, WebP...)"
        case .unreadableWebP(let source):
            "\(source): a WebP libavcodec cannot read: damaged, or animated (libavcodec decodes animated WebP from FFmpeg 7.1)"
        case .internalState(let what): "internal error: \(what)"
        }
    }
}
