import Marquee

/// The wall schedule of a show's playlist (`[sync] mode = "wallclock"`):
/// each item's length from its file (a still picture's from its entry or
/// `image_duration`), so the loop's length is known before it plays.
enum WallClockPlaylist {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func schedule(of items: [PlayerItem], epoch: Double, imageDuration: Double) async throws -> WallSchedule {
        var durations: [Double] = []
        for item in items {
            let media = try await item.asset.load(.mediaDescription)
            let seconds = media.isStillImage ? item.imageDuration ?? imageDuration : media.duration.seconds
            guard seconds.isFinite, seconds > 0 else {
                throw Failure(description: "\(item.asset.source) has no length (a live stream?): every item of a wall schedule needs one")
            }
            durations.append(seconds)
        }
        guard let schedule = WallSchedule(epoch: epoch, durations: durations) else { throw Failure(description: "the playlist is empty") }
        return schedule
    }
}
