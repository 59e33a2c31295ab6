import Foundation
import Marquee
import MarqueeTestSupport
import Testing

/// The pipeline's threads carry their names into the kernel, where `top -H`,
/// `perf` and a crash report look for them.
@Suite struct ThreadNameTests {
    static func threadNames() -> Set<String> {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return Set(tasks.compactMap { task in
            (try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
        })
    }

    @Test func theEngineThreadsAreNamedInTheKernel() async throws {
        let path = try Fixtures.path(Fixtures.indexed(seconds: 2, fps: 25))
        let run = try Run([path], untimed: false)
        run.player.play()
        var names: Set<String> = []
        for _ in 0..<100 where !names.isSuperset(of: ["marquee.source", "marquee.present", "marquee.audio"]) {
            try await Task.sleep(for: .milliseconds(10))
            names = Self.threadNames()
        }
        #expect(names.isSuperset(of: ["marquee.source", "marquee.present", "marquee.audio"]), "threads: \(names.sorted())")
        run.player.pause()
    }
}
