import MarqueeCore

/// A network source that went away (it failed to open, a read failed, or it
/// ended early) and is waited for: the source stage tries it again on the
/// retry schedule, spending nothing in between, and resumes where it was
/// lost (a live stream at its live edge).
struct SourceOutage {
    let item: PlayerItem
    /// Item time to resume at; nil: from the start (a live stream's live edge).
    let resume: MediaTime?
    /// The segment the resumed reading continues: the same one when the item
    /// was playing (no seam, no pass counted), a new one when it never opened.
    let segmentID: Int
    let pass: Int
    /// Where a new segment goes on the timeline at the earliest (it goes at
    /// the clock's position when that is later); nil: the clock's position.
    let timelineStart: Double?
    /// The item the show moves on from once this one opens (the cursor steps then).
    let previous: PlayerItem?
    let since: HostTime
    let reason: String
    var attempts = 0
    var retryAt: HostTime

}
