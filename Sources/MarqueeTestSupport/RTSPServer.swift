import Foundation

/// A real RTSP server from Debian's packages, started by a test on a
/// loopback port: it serves one file (H.264 and AAC) at `url` as RTP, and
/// can be stopped, frozen, and started again on the same port. Each kind
/// offers one transport, so a stream that plays says which one the player
/// asked for.
public final class RTSPServer {
    public enum Kind: Sendable {
        /// VLC 3 (`cvlc`; vlc-bin, vlc-plugin-base): RTP over UDP only, as
        /// its RTSP server has no interleaving (it answers a TCP SETUP with
        /// 461 Unsupported transport); the file looped. cvlc refuses to run
        /// as root, so under root it runs as nobody.
        case vlc
        /// GStreamer's RTSP server (gir1.2-gst-rtsp-server-1.0,
        /// gstreamer1.0-plugins-good) through Debian's python3-gi, set to
        /// offer RTP over TCP only; each client gets the file from its start.
        case gstreamer
    }

    public let kind: Kind
    public let port: UInt16
    /// The server's copy of the file, its log and its scratch files.
    public let directory: String
    private let file: String
    private var process: Process?
    private var frozen = false

    public init(_ kind: Kind, serving source: String) throws {
        self.kind = kind
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-rtsp-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // A copy in the server's own folder, which nobody (VLC's user under root) can read.
        file = "\(directory)/\(URL(fileURLWithPath: source).lastPathComponent)"
        try FileManager.default.copyItem(atPath: source, toPath: file)
        if kind == .vlc, getuid() == 0 {
            // VLC writes its settings under HOME, which is this folder.
            try FileManager.default.setAttributes([.ownerAccountName: "nobody"], ofItemAtPath: directory)
        }
        port = try Loopback.freePort()
    }

    deinit { stop() }

    public var url: String { "rtsp://127.0.0.1:\(port)/stream" }
    public var log: String { "\(directory)/server.log" }

    /// Starts serving, and returns once a DESCRIBE of the stream is answered
    /// with its video and audio.
    public func start() throws {
        stop()
        let process = Process()
        let (executable, arguments) = try command()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ["HOME": directory, "PATH": "/usr/bin:/bin"]
        process.standardInput = FileHandle.nullDevice
        guard FileManager.default.createFile(atPath: log, contents: nil), let output = FileHandle(forWritingAtPath: log) else {
            throw CommandError.notFound("a writable \(log)")
        }
        process.standardOutput = output
        process.standardError = output
        try process.run()
        self.process = process
        for _ in 0..<200 where process.isRunning {
            if describesStream() { return }
            usleep(50_000)
        }
        stop()
        throw CommandError.notFound("an RTSP server answering DESCRIBE \(url) (see \(log))")
    }

    /// Stops serving: the server quits, closing its connections (VLC says
    /// BYE first), and connections are refused until `start`. A frozen
    /// server is killed where it stands.
    public func stop() {
        guard let process else { return }
        if process.isRunning, !frozen {
            process.terminate()
            for _ in 0..<100 where process.isRunning { usleep(50_000) }
        }
        // Frozen, or deaf to SIGTERM for 5 s: a stuck server must not hang the suite.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        self.process = nil
        frozen = false
    }

    /// Freezes the server (SIGSTOP): its connections stay open and it sends
    /// and answers nothing, as a hung server, or one whose network went,
    /// looks to a client. `stop` kills it.
    public func freeze() throws {
        guard let process, process.isRunning, process.suspend() else {
            throw CommandError.notFound("a running RTSP server to freeze (see \(log))")
        }
        frozen = true
    }

    private func command() throws -> (String, [String]) {
        switch kind {
        case .vlc:
            let cvlc = try Command.which("cvlc")
            // gather: the file's streams stay the same streams at each loop,
            // where plain rtp would end them (RTCP BYE) and start new ones.
            let arguments = [file, "--sout", "#gather:rtp{sdp=\(url)}", "--sout-keep", "--loop"]
            guard getuid() == 0 else { return (cvlc, arguments) }
            // setpriv execs cvlc (runuser would stay as its parent and stop with it on SIGSTOP).
            return (try Command.which("setpriv"), ["--reuid=nobody", "--regid=nogroup", "--clear-groups", cvlc] + arguments)
        case .gstreamer:
            let script = "\(directory)/rtsp-server.py"
            try Self.gstreamerScript.write(toFile: script, atomically: true, encoding: .utf8)
            // Debian's python3, the one python3-gi is installed for.
            return ("/usr/bin/python3", [script, String(port), file])
        }
    }

    /// GStreamer's RTSP server on 127.0.0.1:PORT serving FILE (an MP4 with
    /// H.264 video and AAC audio) at /stream, over TCP only.
    private static let gstreamerScript = """
        import signal
        import sys
        import gi
        gi.require_version("Gst", "1.0")
        gi.require_version("GstRtsp", "1.0")
        gi.require_version("GstRtspServer", "1.0")
        from gi.repository import GLib, Gst, GstRtsp, GstRtspServer

        # A process started from a test's thread inherits the signals that
        # thread blocks (SIGTERM among them): stop() must be able to end it.
        signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGTERM])
        Gst.init(None)
        port, path = sys.argv[1], sys.argv[2]
        server = GstRtspServer.RTSPServer(address="127.0.0.1", service=port)
        factory = GstRtspServer.RTSPMediaFactory()
        factory.set_launch(f'( filesrc location="{path}" ! qtdemux name=demux '
                           'demux.video_0 ! queue ! rtph264pay name=pay0 pt=96 '
                           'demux.audio_0 ! queue ! rtpmp4gpay name=pay1 pt=97 )')
        factory.set_protocols(GstRtsp.RTSPLowerTrans.TCP)
        server.get_mount_points().add_factory("/stream", factory)
        if server.attach(None) == 0:
            sys.exit(f"cannot listen on 127.0.0.1:{port}")
        GLib.MainLoop().run()
        """

    /// Whether a DESCRIBE of the stream is answered 200 with an SDP that
    /// has its video and audio (VLC describes what it has set up so far).
    private func describesStream() -> Bool {
        guard let socket = Loopback.connect(port: port, timeout: 0.5) else { return false }
        defer { close(socket) }
        let request = Array("DESCRIBE \(url) RTSP/1.0\r\nCSeq: 1\r\nAccept: application/sdp\r\n\r\n".utf8)
        guard send(socket, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return false }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(socket, &chunk, chunk.count, 0)
            guard count > 0 else { return false }
            answer += chunk.prefix(count)
            let text = String(decoding: answer, as: UTF8.self)
            if text.contains("m=video"), text.contains("m=audio") { return text.hasPrefix("RTSP/1.0 200") }
        }
    }
}
