/// The topics a screen and `marquee fleet` speak on (docs/fleet.md). A
/// screen takes commands and configurations on its own topics and its
/// groups'; what it says (replies, status, events, screenshots, plays) is
/// under its own id only, so an ACL can give each screen `marquee/ID/#`
/// and `marquee/group/G/#` for reading and its own topics for writing.
public struct FleetTopics: Sendable, Equatable {
    public static let root = "marquee"
    public let id: String

    public init(id: String) { self.id = id }

    public var command: String { "\(Self.root)/\(id)/cmd" }
    public var reply: String { "\(Self.root)/\(id)/reply" }
    /// Retained: the latest status, or `{"id":ID,"online":false}` (the will).
    public var status: String { "\(Self.root)/\(id)/status" }
    public var events: String { "\(Self.root)/\(id)/events" }
    public var screenshot: String { "\(Self.root)/\(id)/screenshot" }
    public var config: String { "\(Self.root)/\(id)/config" }
    public var plays: String { "\(Self.root)/\(id)/plays" }

    public static func groupCommand(_ group: String) -> String { "\(root)/group/\(group)/cmd" }
    public static func groupConfig(_ group: String) -> String { "\(root)/group/\(group)/config" }
    /// Every screen's retained status, or every reply, for a subscriber.
    public static let allStatus = "\(root)/+/status"
    public static let allReplies = "\(root)/+/reply"

    /// The screen id in a topic `marquee/ID/...`; nil for a group's topic or another tree.
    public static func screen(in topic: String) -> String? {
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count == 3, levels[0] == Substring(root), levels[1] != "group" else { return nil }
        return String(levels[1])
    }

    /// What a command or configuration addressed as TARGET (a screen id
    /// or `group/G`) is published to.
    public static func commandTopic(for target: String) -> String {
        target.hasPrefix("group/") ? groupCommand(String(target.dropFirst(6))) : FleetTopics(id: target).command
    }

    public static func configTopic(for target: String) -> String {
        target.hasPrefix("group/") ? groupConfig(String(target.dropFirst(6))) : FleetTopics(id: target).config
    }

    /// The reply id of a configuration push: `config-` and the FNV-1a 64
    /// hash of the document, which both ends compute.
    public static func pushID(of document: [UInt8]) -> String { "config-" + ContentHash.fnv1a64(document) }
}

/// FNV-1a, 64 bits, as 16 hex digits: a configuration's version.
public enum ContentHash {
    public static func fnv1a64(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
