import Glibc

/// Reads a whole file with POSIX calls, so a failure reads as the system
/// says it ("No such file or directory"), not as a wrapped framework error.
enum SourceFile {
    struct ReadError: Error {
        let reason: String
    }

    static func read(_ path: String) throws(ReadError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ReadError(reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count == 0 { return bytes }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadError(reason: String(cString: strerror(errno)))
            }
            // A configuration is small; refuse anything that is clearly not one.
            guard bytes.count + count <= 16 << 20 else { throw ReadError(reason: "larger than 16 MiB, not a configuration file") }
            bytes.append(contentsOf: chunk[..<count])
        }
    }
}
