import MarqueeControl
import MarqueeCore
import Synchronization
import Testing

@Suite struct CommandExecutorTests {
    let player = FakePlayer()

    func executor(reload: CommandExecutor.ReloadHandler? = nil, quit: @escaping @Sendable () -> Void = {}) -> CommandExecutor {
        CommandExecutor(target: player, reload: reload, quit: quit)
    }

    func run(_ text: String) throws -> Result<ControlResult, ControlError> {
        executor().execute(try ControlCommand(parsing: text))
    }

    @Test func toggleFlipsPlayAndPause() throws {
        _ = try run("toggle")
        #expect(player.status.state == .paused)
        _ = try run("toggle")
        #expect(player.status.state == .playing)
        #expect(player.calls == ["pause", "play"])
    }

    /// `screen off|on` is one call on the target (the player pauses and
    /// resumes itself), and `status` and `get screen` report it.
    /// `show-text` and `overlay` reach the target as they are written; its refusal is the reply.
    @Test func overlayCommandsReachTheTarget() throws {
        #expect(try run("show-text Doors at 9 5") == .success(.done(nil)))
        #expect(try run("overlay logo off") == .success(.done(nil)))
        #expect(try run("overlay ticker on") == .failure(ControlError("overlay: no overlay 'ticker' (have: logo)")))
        #expect(player.calls == ["show-text Doors at 9 5.0", "overlay logo false"])
    }

    @Test func screenOffAndOnReachTheTargetAndTheStatus() throws {
        #expect(try run("screen off") == .success(.done(nil)))
        #expect(player.calls == ["screen false"])
        #expect(try run("get screen") == .success(.value(.string("off"))))
        guard case .success(.status(let status)) = try run("status") else { Issue.record("no status"); return }
        #expect(!status.screenOn && status.fields["screen"] == .string("off"))
        #expect(status.text.contains(" screen=off"))
        _ = try run("screen on")
        #expect(player.calls == ["screen false", "screen true"])
        #expect(try run("get screen") == .success(.value(.string("on"))))
    }

    @Test func stopPausesAtTheStart() throws {
        _ = try run("stop")
        #expect(player.status.state == .paused)
        #expect(player.status.time == 0)
    }

    @Test func seeksAreRelativeToNowAndClampedToTheItem() throws {
        _ = try run("seek +5")
        #expect(player.status.time == 15)
        _ = try run("seek -20")
        #expect(player.status.time == 0)
        _ = try run("seek 1000")
        #expect(player.status.time == 60)
        _ = try run("seek 30.5")
        #expect(player.status.time == 30.5)
    }

    @Test func nextAndPrevStopAtTheEndsUnlessThePlaylistLoops() throws {
        #expect(try run("prev") == .failure(ControlError("prev: already at the first item")))
        _ = try run("next")
        _ = try run("next")
        #expect(player.status.index == 2)
        #expect(try run("next") == .failure(ControlError("next: already at the last item (3 of 3)")))
        _ = try run("loop playlist")
        _ = try run("next")
        #expect(player.status.index == 0)
        _ = try run("prev")
        #expect(player.status.index == 2)
        _ = try run("prev")
        #expect(player.status.index == 1)
    }

    @Test func gotoCountsFromOne() throws {
        _ = try run("goto 3")
        #expect(player.status.index == 2)
        #expect(try run("goto 4") == .failure(ControlError("goto: no item 4; the playlist has 3")))
        #expect(player.status.index == 2)
    }

    @Test func afterTheEndOnlyGotoMoves() throws {
        player.state.withLock { $0.index = nil }
        #expect(try run("next") == .failure(ControlError("next: nothing is playing (use goto N)")))
        #expect(try run("seek 1") == .failure(ControlError("seek: nothing is playing")))
        _ = try run("goto 1")
        #expect(player.status.index == 0)
    }

    @Test func settersReachThePlayer() throws {
        _ = try run("pause")
        _ = try run("rate 2")
        _ = try run("volume 0.25")
        _ = try run("mute")
        _ = try run("loop item")
        let status = player.status
        #expect(status.rate == 2 && status.state == .playing && status.volume == 0.25 && status.muted && status.loop == .item)
        _ = try run("unmute")
        #expect(!player.status.muted)
    }

    @Test func statusReportsWithoutChangingAnything() throws {
        let before = player.calls
        #expect(try run("status") == .success(.status(player.status)))
        #expect(player.calls == before)
    }

    @Test func reloadUsesTheHostsHandlerOrSaysThereIsNone() throws {
        #expect(try run("reload") == .failure(ControlError("reload: no configuration file to reload (start with --config FILE)")))
        let withFile = executor(reload: { .success("reloaded: volume 0.5") })
        #expect(withFile.execute(.reload) == .success(.done("reloaded: volume 0.5")))
    }

    @Test func quitIsAnsweredBeforeItHappens() {
        let order = Mutex<[String]>([])
        let executor = executor(quit: { order.withLock { $0.append("quit") } })
        executor.handle(ControlRequest(id: .integer(1), command: .quit)) { reply in
            order.withLock { $0.append(reply.line(.json)) }
        }
        #expect(order.withLock { $0 } == [#"{"id":1,"result":"quitting"}"#, "quit"])
    }
}
