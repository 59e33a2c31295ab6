import Marquee
import MarqueeALSA

/// `marquee --version`: this build, and the libraries it runs against.
enum VersionReport {
    static let version = "0.5.0"

    static var text: String {
        var lines = ["marquee \(version) (commit \(BuildInfo.commit))"]
        lines += Libav.versions.map { "\($0.library) \($0.version)" }
        lines.append("libasound \(ALSALibrary.version)")
        lines.append("libdrm \(BuildInfo.libdrm) (build-time)")
        lines.append("libva \(BuildInfo.libva) (build-time)")
        return lines.joined(separator: "\n")
    }
}
