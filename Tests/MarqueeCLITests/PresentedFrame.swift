import Foundation

/// One line of `marquee play --presentation-log`: the frames tests read back.
struct PresentedFrame {
    /// The item's place in play order (0 = first).
    let item: Int
    let pass: Int
    /// Item time of the frame, and when it became visible (the player's monotonic clock), seconds.
    let pts: Double
    let display: Double

    /// Every frame in the log at `path`, in order.
    static func read(_ path: String) throws -> [PresentedFrame] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            .compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            .compactMap { record in
                guard let pts = record["pts"] as? Double, let display = record["displayTime"] as? Double else { return nil }
                return PresentedFrame(item: record["item"] as? Int ?? 0, pass: record["pass"] as? Int ?? 0, pts: pts, display: display)
            }
    }
}
