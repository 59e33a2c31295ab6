import Foundation
import MarqueeTestSupport
import Testing

/// libmosquitto (and the OpenSSL it brings) is opened when a screen joins a
/// fleet, not by the loader at every start: a screen without `[fleet]`
/// never maps it.
@Suite struct FleetLibraryTests {
    static func mapsMosquitto(_ pid: Int32) -> Bool {
        // Read to the end: /proc states no size. The maps name the file (libmosquitto.so.2.0.11), not the soname.
        guard let maps = try? FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps")).readToEnd() else { return false }
        return String(decoding: maps, as: UTF8.self).contains("/libmosquitto.so")
    }

    @Test func onlyAScreenInAFleetMapsLibmosquitto() async throws {
        let broker = try Mosquitto()
        try broker.start()
        let screen = try Screen(id: "lazy", fleet: "broker = \"\(broker.url)\"")
        try screen.start()
        let fleetPid = try #require(screen.processIdentifier)
        try await Wait.until("the fleet screen has opened libmosquitto", seconds: 30) {
            if !screen.isRunning { Issue.record("stopped: \(screen.stderr)"); return true }
            return Self.mapsMosquitto(fleetPid)
        }
        let listener = try Listener(broker)
        try await listener.subscribe("marquee/lazy/status")
        try await Wait.until("the fleet screen's status", seconds: 30) { !listener.messages(on: "marquee/lazy/status").isEmpty }

        let plain = Process()
        plain.executableURL = URL(fileURLWithPath: MarqueeExecutable.path)
        plain.arguments = ["play", try Screen.still(), "--image-duration", "60", "--video-out", "null", "--no-audio"]
        plain.standardError = FileHandle.nullDevice
        plain.standardOutput = FileHandle.nullDevice
        try plain.run()
        defer { plain.terminate(); plain.waitUntilExit() }
        // Long enough for the show to be up; the maps are read while it plays.
        try await Task.sleep(for: .seconds(2))
        #expect(plain.isRunning)
        #expect(!Self.mapsMosquitto(plain.processIdentifier))
        screen.stop()
    }
}
