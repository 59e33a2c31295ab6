import Foundation

/// This process's threads (/proc/self/task), the server's threads, and the
/// descriptors of the server's sockets (those whose local port is the
/// server's: the listener and every accepted connection), to see that a
/// connection leaves nothing behind. The test process runs other suites
/// at the same time, so its descriptors and threads in all move on their
/// own: only the server's are compared exactly.
struct ProcessCounts: Equatable, CustomStringConvertible {
    var threads: Int
    /// The server's threads, by the names they go by: MHD's listening thread
    /// and connection threads, and the server's own "marquee.http".
    var serverThreads: Int
    /// Open descriptors of TCP sockets bound to the server's port.
    var descriptors: Int
    /// Every thread's name, to say which are missing when a count is off.
    var names: [String] = []

    static func now(port: UInt16) throws -> ProcessCounts {
        let files = FileManager.default
        let tasks = try files.contentsOfDirectory(atPath: "/proc/self/task")
        let names = tasks.map {
            ((try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .newlines)
        }
        let serverNames: Set<String> = ["MHD-listen", "MHD-connection", "marquee.http"]
        let inodes = socketInodes(localPort: port)
        let descriptors = try files.contentsOfDirectory(atPath: "/proc/self/fd").filter { fd in
            guard let target = try? files.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)"),
                  target.hasPrefix("socket:["), target.hasSuffix("]") else { return false }
            return inodes.contains(String(target.dropFirst("socket:[".count).dropLast()))
        }
        return ProcessCounts(threads: tasks.count, serverThreads: names.filter(serverNames.contains).count, descriptors: descriptors.count,
                             names: names.sorted())
    }

    /// The inodes of TCP sockets (IPv4 and IPv6) whose local port is `port`.
    private static func socketInodes(localPort port: UInt16) -> Set<String> {
        let hexPort = String(format: ":%04X", port)
        var inodes: Set<String> = []
        for table in ["/proc/self/net/tcp", "/proc/self/net/tcp6"] {
            // Read to its end: a /proc file says it is empty, and one read gives a page of it.
            guard let data = FileHandle(forReadingAtPath: table)?.readDataToEndOfFile() else { continue }
            let text = String(decoding: data, as: UTF8.self)
            for line in text.split(separator: "\n").dropFirst() {
                let fields = line.split(separator: " ")
                // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
                guard fields.count > 9, fields[1].hasSuffix(hexPort) else { continue }
                inodes.insert(String(fields[9]))
            }
        }
        return inodes
    }

    /// No more threads than `other`, and the same server threads and
    /// server sockets. Other threads may have ended meanwhile: libdispatch
    /// lets an idle worker go a while after the work that started it.
    func leavesNothingBeyond(_ other: ProcessCounts) -> Bool {
        serverThreads == other.serverThreads && descriptors == other.descriptors
    }

    var description: String {
        "\(threads) threads (\(serverThreads) the server's), \(descriptors) server sockets [\(names.joined(separator: ", "))]"
    }
}
