import Foundation

/// This process's threads (/proc/self/task) and open descriptors
/// (/proc/self/fd), to see that a connection leaves nothing behind.
struct ProcessCounts: Equatable, CustomStringConvertible {
    var threads: Int
    /// The server's threads, by the names they go by: MHD's listening thread
    /// and connection threads, and the server's own "marquee.http".
    var serverThreads: Int
    var descriptors: Int

    static func now() throws -> ProcessCounts {
        let files = FileManager.default
        let tasks = try files.contentsOfDirectory(atPath: "/proc/self/task")
        let names = tasks.map { (try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)) ?? "" }
        // Listing /proc/self/fd opens one descriptor of its own, in every reading alike.
        let serverNames: Set<String> = ["MHD-listen\n", "MHD-connection\n", "marquee.http\n"]
        return ProcessCounts(threads: tasks.count, serverThreads: names.filter(serverNames.contains).count,
                             descriptors: try files.contentsOfDirectory(atPath: "/proc/self/fd").count)
    }

    /// No more threads than `other`, and the same server threads and
    /// descriptors. Other threads may have ended meanwhile: libdispatch lets
    /// an idle worker go a while after the work that started it.
    func leavesNothingBeyond(_ other: ProcessCounts) -> Bool {
        threads <= other.threads && serverThreads == other.serverThreads && descriptors == other.descriptors
    }

    var description: String { "\(threads) threads (\(serverThreads) the server's), \(descriptors) descriptors" }
}
