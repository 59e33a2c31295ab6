import Glibc

/// A numeric IP address and port as the `sockaddr` MHD binds
/// (MHD_OPTION_SOCK_ADDR), and the text of a client's address.
enum SocketAddress {
    case v4(sockaddr_in)
    case v6(sockaddr_in6)

    /// nil unless `host` is a numeric IPv4 ("127.0.0.1") or IPv6 ("::1") address.
    init?(host: String, port: UInt16) {
        var v4 = sockaddr_in()
        var v6 = sockaddr_in6()
        if inet_pton(AF_INET, host, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = port.bigEndian
            self = .v4(v4)
        } else if inet_pton(AF_INET6, host, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = port.bigEndian
            self = .v6(v6)
        } else {
            return nil
        }
    }

    var isIPv6: Bool {
        if case .v6 = self { return true }
        return false
    }

    /// The IPv6 wildcard `::`, where MHD's dual stack takes IPv4 clients too.
    var isIPv6Any: Bool {
        guard case .v6(let address) = self else { return false }
        return withUnsafeBytes(of: address.sin6_addr) { $0.allSatisfy { $0 == 0 } }
    }

    /// 127.0.0.0/8, ::1, or an IPv4-mapped 127.x address.
    var isLoopback: Bool {
        switch self {
        case .v4(let address):
            return UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
        case .v6(let address):
            let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
            let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
            return bytes == Array(repeating: 0, count: 15) + [1] || (Array(bytes.prefix(12)) == mappedPrefix && bytes[12] == 127)
        }
    }

    /// Calls `body` with the address as a generic `sockaddr`.
    func withSockaddr<Result>(_ body: (UnsafePointer<sockaddr>) -> Result) -> Result {
        switch self {
        case .v4(var address):
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        case .v6(var address):
            return withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1, body) }
        }
    }

    /// "127.0.0.1:5678" or "[::1]:5678" for a client's address; "?" for a
    /// family other than IPv4 and IPv6, which MHD does not listen on.
    static func text(of address: UnsafePointer<sockaddr>) -> String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        func hostText() -> String { String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { v4 in
                var host = v4.pointee.sin_addr
                guard inet_ntop(AF_INET, &host, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
                return "\(hostText()):\(UInt16(bigEndian: v4.pointee.sin_port))"
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { v6 in
                var host = v6.pointee.sin6_addr
                guard inet_ntop(AF_INET6, &host, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
                return "[\(hostText())]:\(UInt16(bigEndian: v6.pointee.sin6_port))"
            }
        default:
            return "?"
        }
    }
}
