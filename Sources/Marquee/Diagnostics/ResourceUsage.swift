import FoundationEssentials

/// The process's resident memory and open file descriptors, from /proc, for
/// watching a player that must run for months without growing.
public struct ResourceUsage: Sendable, Codable, Equatable {
    /// Resident set size in kilobytes.
    public let residentKilobytes: Int
    public let openFileDescriptors: Int

    /// Nil where /proc is not available.
    public static func current() -> ResourceUsage? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? ""),
              let descriptors = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        else { return nil }
        return ResourceUsage(residentKilobytes: kilobytes, openFileDescriptors: descriptors.count - 1)
    }
}
