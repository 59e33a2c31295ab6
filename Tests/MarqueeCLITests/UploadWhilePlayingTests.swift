import Foundation
import MarqueeTestSupport
import Testing

/// Issue 37, must-show 3, the real-time half (bench/upload.py has the
/// figures beside nginx): a 200 MB upload over loopback at full speed while
/// a 720p clip plays in real time. No frame is dropped meanwhile, the
/// player's peak memory grows by far less than the body (it goes to disk
/// as it comes, not into memory), and the file arrives whole. Run alone,
/// as CI runs the real-time suites.
@Suite(.serialized) struct UploadWhilePlayingTests {
    /// Growth of the player's peak resident memory allowed over the upload:
    /// MHD's buffers and a thread, with room for the allocator, and far
    /// below the 200 MB a body held in memory would take.
    static let peakGrowthLimitKB = 48 << 10

    @Test func a200MBUploadDropsNoFrameAndStaysOutOfMemory() throws {
        let clip = try Fixtures.path(Fixtures.indexed(seconds: 4, fps: 25, size: "1280x720"))
        let (server, media) = try MediaAPITests.player(maxUploadMB: 256, inputs: [clip])
        defer { _ = server.stop() }
        let body = "\(server.folder)/body.mp4"
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: try HTTPControlTests.clip(2))))
        bytes += [UInt8](repeating: 0, count: 200_000_000 - bytes.count)
        try Data(bytes).write(to: URL(fileURLWithPath: body))
        usleep(1_500_000)

        let pid = server.player.pid
        // Peak RSS counts from here (proc(5): writing 5 to clear_refs resets VmHWM).
        try "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)
        let resident = try Self.memoryKB(pid, "VmRSS")
        let before = try server.json("/status")
        let started = Date()
        let upload = try Command.run("curl", ["-s", "-S", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", "-T", body,
                                              "\(server.url)/media/body.mp4"], timeout: 120)
        let seconds = Date().timeIntervalSince(started)
        usleep(500_000)
        let after = try server.json("/status")
        let growth = try Self.memoryKB(pid, "VmHWM") - resident
        let dropped = (after["framesDropped"] as? Int ?? -1) - (before["framesDropped"] as? Int ?? 0)
        let shown = (after["framesPresented"] as? Int ?? 0) - (before["framesPresented"] as? Int ?? 0)
        print("upload of 200 MB while playing 720p: \(upload.stdout) (curl: status, s); \(shown) frames shown, \(dropped) dropped; "
              + "peak RSS \(growth / 1024) MB above the \(resident / 1024) MB before")
        #expect(upload.stdout.hasPrefix("201 "), "\(upload)")
        #expect(dropped == 0, "\(dropped) frames dropped during the upload")
        #expect(Double(shown) >= seconds * 25 * 0.9, "\(shown) frames in \(seconds) s: the player stalled")
        #expect(growth < Self.peakGrowthLimitKB, "the peak grew by \(growth) KB over the upload")
        let stored = try FileManager.default.attributesOfItem(atPath: "\(media)/body.mp4")[.size] as? Int
        #expect(stored == 200_000_000)
        #expect(FileManager.default.contentsEqual(atPath: body, andPath: "\(media)/body.mp4"), "the file arrived changed")
    }

    /// A memory figure of `pid` from /proc (VmRSS, VmHWM), in KB.
    static func memoryKB(_ pid: Int32, _ field: String) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix(field + ":") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]))
    }
}
