import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` for the `marquee` executable: the git commit the
/// build comes from (with "-dirty" when the work tree differs from it) and
/// the libdrm and libva versions it is built against (pkg-config), which
/// those libraries cannot report at run time. It runs again when the commit
/// changes (HEAD, the branch's ref, packed refs or the index move).
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let package = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo.swift")
        let git = package.appending(path: ".git")
        var inputs = ["HEAD", "packed-refs", "index"].map { git.appending(path: $0) }
        if let head = try? String(contentsOf: git.appending(path: "HEAD"), encoding: .utf8), head.hasPrefix("ref: ") {
            inputs.append(git.appending(path: head.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let script = """
            commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
            if [ "$commit" != unknown ] && [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
                commit="$commit-dirty"
            fi
            drm=$(pkg-config --modversion libdrm 2>/dev/null || echo unknown)
            va=$(pkg-config --modversion libva 2>/dev/null || echo unknown)
            printf '/// Written by the BuildInfo plugin at build time.\\nenum BuildInfo {\\n    static let commit = "%s"\\n    static let libdrm = "%s"\\n    static let libva = "%s"\\n}\\n' \\
                "$commit" "$drm" "$va" > "$2"
            """
        return [.buildCommand(displayName: "Recording the git commit and the build's libdrm and libva versions",
                              executable: URL(fileURLWithPath: "/bin/sh"),
                              arguments: ["-c", script, "build-info", package.path, output.path],
                              inputFiles: inputs.filter { FileManager.default.fileExists(atPath: $0.path) },
                              outputFiles: [output])]
    }
}
