import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Watches the folders of a playlist's entries with inotify (see
/// `WatchTargets`) and says when what they hold has changed: a file
/// complete, replaced, deleted or moved, a folder made or removed.
///
/// A file being written is pending, and left out of the playlist
/// (`admits`), until it is complete: closed after writing, moved in (a
/// rename is whole), or not written for `settle` (a writer that never
/// closes). Files there at the start are complete; files found in a folder
/// that appears later are pending until they settle (the copy into it may
/// have begun before its watch).
///
/// No thread and no timer while nothing happens: a Dispatch read source on
/// the inotify descriptor, and a timer armed only while a file is pending.
/// `onChange` and `onProblem` run on the watch's own serial queue.
/// `@unchecked Sendable`: the Dispatch sources are thread-safe to schedule
/// and cancel; everything else that changes is behind `state`.
public final class FolderWatch: @unchecked Sendable {
    /// What changed since the last call.
    public struct Change: Sendable {
        /// Files that became complete after being written (new or replaced), normalized paths.
        public let completed: Set<String>

        /// Whether the file `item` (as the resolver names it) was written since the last change.
        public func wasWritten(_ item: String) -> Bool { completed.contains(WatchTargets.normalized(item)) }
    }

    /// How long a file must go unwritten to count as complete when its writer does not close it.
    public static let defaultSettle = Duration.seconds(2)

    /// Normalized paths of the folders the entries depend on (for messages).
    public let folders: [String]
    private let targets: WatchTargets
    private let settle: Duration
    private let queue = DispatchQueue(label: "marquee.folder-watch")
    private let inotify: InotifyDescriptor
    private let reader: any DispatchSourceRead
    private let timer: any DispatchSourceTimer
    private let state = Mutex(State())
    private let onChange: @Sendable (Change) -> Void
    private let onProblem: @Sendable (String) -> Void

    private struct State {
        /// Watched folder by watch number.
        var watches: [Int32: String] = [:]
        /// Files being written, with when they were last written.
        var pending: [String: ContinuousClock.Instant] = [:]
        var stopped = false
    }

    /// What every watched folder reports: files written, closed, moved and
    /// deleted, folders made and removed, and the folder itself going away.
    private static let mask = UInt32(IN_CREATE | IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE
                                     | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// Starts watching the folders `entries` depend on.
    /// - Parameters:
    ///   - entries: `[playback] playlist` as written; `base` is where relative ones start.
    ///   - onProblem: one line for a folder that cannot be watched (it is left out; the rest are watched).
    /// - Throws: `FolderWatchError` when there is no inotify instance to be had.
    public init(entries: [String], relativeTo base: String?, settle: Duration = FolderWatch.defaultSettle,
                onChange: @escaping @Sendable (Change) -> Void, onProblem: @escaping @Sendable (String) -> Void) throws(FolderWatchError) {
        targets = WatchTargets(entries: entries, relativeTo: base)
        folders = targets.folders
        self.settle = settle
        self.onChange = onChange
        self.onProblem = onProblem
        let inotify = try InotifyDescriptor()
        self.inotify = inotify
        reader = DispatchSource.makeReadSource(fileDescriptor: inotify.descriptor, queue: queue)
        timer = DispatchSource.makeTimerSource(queue: queue)
        // The handlers keep the descriptor until they are cancelled: it closes after the last read.
        reader.setCancelHandler { _ = inotify }
        reader.setEventHandler { [weak self] in self?.readEvents() }
        timer.setEventHandler { [weak self] in self?.settlePending() }
        timer.schedule(deadline: .distantFuture)
        queue.sync { rearm(initial: true) }
        reader.resume()
        timer.resume()
    }

    deinit { stop() }

    /// Whether the entries name any folder to watch (an all-URL or all-file playlist does not).
    public static func watches(_ entries: [String], relativeTo base: String?) -> Bool {
        !WatchTargets(entries: entries, relativeTo: base).isEmpty
    }

    /// `items` without the folders `entries` wait for (which the resolver
    /// gives as paths, not knowing them for folders): what may play before
    /// a watch has started.
    public static func playable(_ items: [String], entries: [String], relativeTo base: String?) -> [String] {
        let targets = WatchTargets(entries: entries, relativeTo: base)
        return items.filter { !targets.awaits(WatchTargets.normalized($0)) }
    }

    /// Whether a resolved item may be played: not a file still being
    /// written, nor a missing folder being waited for (which the resolver
    /// gives as a path, not knowing it for a folder).
    public func admits(_ item: String) -> Bool {
        let path = WatchTargets.normalized(item)
        if state.withLock({ $0.pending[path] != nil }) { return false }
        return !targets.awaits(path)
    }

    /// Stops watching: no `onChange` or `onProblem` starts after it returns
    /// (one already under way on the watch's queue finishes).
    public func stop() {
        let first = state.withLock { state -> Bool in
            defer { state.stopped = true }
            return !state.stopped
        }
        guard first else { return }
        reader.cancel()
        timer.cancel()
    }

    // MARK: On the queue

    private func readEvents() {
        guard !state.withLock({ $0.stopped }) else { return }
        let events: [InotifyEvent]
        do {
            events = try inotify.readEvents()
        } catch {
            onProblem("\(error); folders are no longer watched")
            stop()
            return
        }
        var changed = false
        var completed: Set<String> = []
        var foldersChanged = false
        for event in events {
            // Events were lost: look at everything again.
            if event.has(Int32(IN_Q_OVERFLOW)) { foldersChanged = true }
            if event.has(Int32(IN_IGNORED)) {
                // The kernel dropped the watch (its folder went away); the number may be reused.
                state.withLock { _ = $0.watches.removeValue(forKey: event.watch) }
                foldersChanged = true
            }
            guard let folder = state.withLock({ $0.watches[event.watch] }) else { continue }
            if event.name.isEmpty {
                foldersChanged = true
                continue
            }
            let path = "\(folder)/\(event.name)"
            // A folder watched while waiting for a target inside it: only the way there matters.
            guard targets.folders.contains(folder) || targets.leadsToTarget(path) else { continue }
            if event.has(IN_ISDIR) {
                foldersChanged = true
                continue
            }
            if event.has(Int32(IN_CREATE)) || event.has(Int32(IN_MODIFY)) {
                state.withLock { $0.pending[path] = .now }
            }
            if event.has(Int32(IN_CLOSE_WRITE)) || event.has(Int32(IN_MOVED_TO)) {
                let wasPending = state.withLock { $0.pending.removeValue(forKey: path) != nil }
                // A file opened for writing and closed unwritten has not changed.
                if wasPending || event.has(Int32(IN_MOVED_TO)) {
                    completed.insert(path)
                    changed = true
                }
            }
            if event.has(Int32(IN_DELETE)) || event.has(Int32(IN_MOVED_FROM)) {
                state.withLock { _ = $0.pending.removeValue(forKey: path) }
                changed = true
            }
        }
        if foldersChanged { rearm() }
        armTimer()
        if changed || foldersChanged { onChange(Change(completed: completed)) }
    }

    /// Files not written for `settle` are complete.
    private func settlePending() {
        guard !state.withLock({ $0.stopped }) else { return }
        // Writes already reported but not read yet (the queue was busy) keep their files pending.
        readEvents()
        let now = ContinuousClock.now
        let settled = state.withLock { state -> Set<String> in
            let settled = Set(state.pending.filter { now - $0.value >= settle }.keys)
            for path in settled { state.pending[path] = nil }
            return settled
        }
        armTimer()
        if !settled.isEmpty { onChange(Change(completed: settled)) }
    }

    /// The timer fires when the oldest pending write has settled, and never while nothing is pending.
    private func armTimer() {
        guard let oldest = state.withLock({ $0.pending.values.min() }) else {
            timer.schedule(deadline: .distantFuture)
            return
        }
        let wait = max(.zero, (oldest + settle) - ContinuousClock.now)
        let (seconds, attoseconds) = wait.components
        timer.schedule(deadline: .now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
    }

    /// Watches the folders the targets are watched from now, and no others:
    /// a folder that appeared is watched itself, one that went away through
    /// its nearest parent. A folder removed while this runs is looked for
    /// again from its parent.
    private func rearm(initial: Bool = false) {
        for _ in 0..<Self.rearmAttempts {
            let wanted = targets.watchedFolders
            let current = state.withLock { $0.watches }
            for (watch, folder) in current where !wanted.contains(folder) {
                do {
                    try inotify.removeWatch(watch, path: folder)
                } catch {
                    onProblem("\(error)")
                }
                state.withLock { _ = $0.watches.removeValue(forKey: watch) }
            }
            var vanished = false
            for folder in wanted.sorted() where !current.values.contains(folder) {
                do {
                    let watch = try inotify.addWatch(folder, mask: Self.mask)
                    let found = initial || !targets.folders.contains(folder) ? [] : Self.files(in: folder)
                    state.withLock { state in
                        state.watches[watch] = folder
                        for path in found where state.pending[path] == nil { state.pending[path] = .now }
                    }
                } catch where error.code == ENOENT || error.code == ENOTDIR {
                    vanished = true
                } catch {
                    onProblem("\(error); changes there are not followed")
                }
            }
            if !vanished { return }
        }
        onProblem("\(folders.joined(separator: ", ")): folders keep vanishing while being watched; changes may be missed")
    }

    /// The non-hidden entries of `folder` (paths), as the resolver lists them.
    private static func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { !$0.hasPrefix(".") }.map { "\(folder)/\($0)" }
    }

    /// Folders removed one after another (a tree deleted) make rearm look
    /// again, once a level; deeper trees than this are not waited out.
    private static let rearmAttempts = 16
}
