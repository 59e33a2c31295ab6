import FoundationEssentials
import MarqueeConfig
import MarqueeControl

/// The control socket (`[controls.socket] path`), started with the other
/// controls and stopped with them.
extension PlayControls {
    func startSocket(_ settings: MarqueeConfiguration.SocketControl, executor: CommandExecutor) {
        guard !settings.path.isEmpty else { return }
        let path = resolved(settings.path)
        do {
            let socket = try ControlSocketServer(path: path, executor: executor, status: { [target] in target.status },
                                                 log: { [log] in log.warning($0) })
            state.withLock { $0.socket = socket }
            socket.start()
            log.debug("control socket: listening on \(path)")
        } catch {
            log.error("\(error); the other controls keep working")
        }
    }

    func stopSocket() {
        let socket = state.withLock { state in
            defer { state.socket = nil }
            return state.socket
        }
        socket?.stop()
    }

    /// A path from the configuration file, relative to the file's folder.
    func resolved(_ path: String) -> String {
        PlaylistResolver.absolute(path, base: PlaylistLoader.base(configPath))
    }
}
