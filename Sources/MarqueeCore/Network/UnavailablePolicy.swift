/// What the show does when a network item is unavailable (`[playback]
/// on_unavailable`).
public enum UnavailablePolicy: String, Sendable, CaseIterable {
    /// Move on to the next item and try this one again next time round; a
    /// show with nothing else to play waits.
    case skip
    /// Wait for it, trying again on the retry schedule.
    case wait
}
