import Dispatch
import MarqueeCore
import MarqueeFFmpeg
import MarqueeOverlays

/// An item's captions: which option is chosen, and the one read and ready to draw.
struct ItemCaptions: Sendable {
    enum Choice: Sendable {
        /// The player's criteria choose (`Player.setMediaSelectionCriteria`).
        case automatic
        /// `PlayerItem.select(_:in:)` chose this one, or none.
        case chosen(MediaSelectionOption?)
    }

    var choice = Choice.automatic
    /// The option wanted now (being read, or `renderer`'s).
    var wanted: MediaSelectionOption?
    var renderer: CaptionRenderer?
    /// Counts the reads started, so a slow one that a newer choice overtook is dropped.
    var generation = 0
    /// The player's criteria and where a file that cannot be read is said,
    /// as given when the item was last opened.
    var criteria: MediaSelectionCriteria?
    var report: (@Sendable (PlayerItem, Result<MediaSelectionOption?, any Error>) -> Void)?
}

extension PlayerItem {
    /// Chooses the captions shown for this item, like AVPlayerItem's
    /// `select(_:in:)`: an option of its legible group, or nil for none.
    /// Takes effect at once where the item is playing; the player's
    /// criteria no longer choose for it.
    public func select(_ option: MediaSelectionOption?, in group: MediaSelectionGroup) {
        update { $0.captions.choice = .chosen(option) }
        applyCaptionChoice()
    }

    /// The option whose captions are shown (or being read to be), like
    /// `currentMediaSelection.selectedMediaOption(in:)`; nil when none.
    public func selectedMediaOption(in group: MediaSelectionGroup) -> MediaSelectionOption? {
        group.characteristic == .legible ? selectedLegibleOption : nil
    }

    /// The captions shown (or being read to be); nil when none.
    public var selectedLegibleOption: MediaSelectionOption? { update { $0.captions.wanted } }

    /// What the presenter draws over this item's frames; nil while none is ready.
    var captionRenderer: CaptionRenderer? { update { $0.captions.renderer } }

    /// Called when the engine opens the item and when the player's criteria
    /// change: reads the chosen captions off the engine's threads (a
    /// sidecar in a moment; a track of a long file takes one pass over it).
    /// - Parameter report: told when captions are ready, or why they are not.
    func prepareCaptions(criteria: MediaSelectionCriteria?,
                         report: @escaping @Sendable (PlayerItem, Result<MediaSelectionOption?, any Error>) -> Void) {
        update {
            $0.captions.criteria = criteria
            $0.captions.report = report
        }
        applyCaptionChoice()
    }

    private func applyCaptionChoice() {
        let (media, choice, criteria) = update { ($0.media, $0.captions.choice, $0.captions.criteria) }
        guard let media else { return }
        // Outside the lock: the group lists the item's folder for sidecars.
        let wanted: MediaSelectionOption? = switch choice {
        case .chosen(let option): option
        case .automatic: criteria.flatMap { asset.legibleGroup(media).option(for: $0) }
        }
        let start: (MediaSelectionOption?, Bool, Int, (@Sendable (PlayerItem, Result<MediaSelectionOption?, any Error>) -> Void)?)? = update { state in
            guard wanted != state.captions.wanted else { return nil }
            let shown = state.captions.renderer != nil
            state.captions.wanted = wanted
            state.captions.renderer = nil
            state.captions.generation += 1
            return (wanted, shown, state.captions.generation, state.captions.report)
        }
        guard let (wanted, wasShown, generation, report) = start else { return }
        guard let option = wanted else {
            // None now: a paused picture that showed some is drawn again without.
            if wasShown { report?(self, .success(nil)) }
            return
        }
        let source = asset.source
        DispatchQueue.global(qos: .utility).async { [self] in
            do {
                let script = switch option.source {
                case .track(let index): try SubtitleReader.read(source: source, stream: index)
                case .file(let path): try SubtitleReader.read(source: path, alignedWithFile: false)
                }
                let renderer = try CaptionRenderer(script: script)
                let current = update { state in
                    guard state.captions.generation == generation else { return false }
                    state.captions.renderer = renderer
                    return true
                }
                if current { report?(self, .success(option)) }
            } catch {
                report?(self, .failure(error))
            }
        }
    }
}
