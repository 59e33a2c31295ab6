import FoundationEssentials

/// DRM render nodes: the unprivileged device files (/dev/dri/renderD128, ...)
/// that VA-API decodes on, as opposed to the card nodes KMS drives.
public enum RenderNode {
    public static let directory = "/dev/dri"

    /// Every renderD* node in `directory`, in numeric order.
    /// - Throws: `.noRenderNode` naming the directory, and whether it exists.
    public static func all(in directory: String = directory) throws(HardwareDecodingError) -> [String] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw .noRenderNode(directory: directory, exists: FileManager.default.fileExists(atPath: directory))
        }
        let nodes = names.filter { $0.hasPrefix("renderD") }
            .sorted { (Int($0.dropFirst("renderD".count)) ?? .max) < (Int($1.dropFirst("renderD".count)) ?? .max) }
        guard !nodes.isEmpty else { throw .noRenderNode(directory: directory, exists: true) }
        return nodes.map { "\(directory)/\($0)" }
    }

    /// `configured` when it names a device, else the first render node ("auto" or nil).
    public static func resolve(_ configured: String?) throws(HardwareDecodingError) -> String {
        if let configured, configured != "auto" { return configured }
        return try all()[0]
    }
}
