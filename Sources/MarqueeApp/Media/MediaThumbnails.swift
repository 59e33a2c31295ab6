import FoundationEssentials
import Glibc
import Marquee
import MarqueeControl

/// Thumbnails of the upload folder's files (`GET /media/NAME/thumbnail.png`),
/// made by `ImageGenerator` as the display would show the picture and kept
/// in the folder's `.thumbnails/` as `NAME.WIDTH.png`. One older than its
/// file's last change is made again.
struct MediaThumbnails {
    static let widths = 16...1920

    let folder: MediaFolder

    private var directory: String { "\(folder.path)/\(MediaFolder.thumbnailFolder)" }

    private func path(of name: MediaName, width: Int) -> String { "\(directory)/\(name.text).\(width).png" }

    /// The PNG of `file` fitted inside `width` x `width`: a picture as it is,
    /// a video's frame a tenth in (at most a second, past a fade from black).
    /// - Throws: `ThumbnailFailure`: audio has no picture, a file that does
    ///   not play, a picture that could not be made.
    func png(of file: MediaFile, width: Int) throws(ThumbnailFailure) -> [UInt8] {
        guard let kind = file.probe.kind else { throw .unplayable(file.probe.problem ?? "cannot be played") }
        guard kind != .audio else { throw .noPicture }
        let cached = path(of: file.name, width: width)
        var info = stat()
        if stat(cached, &info) == 0, Self.isAfter(info.st_mtim, file.stamp.changed),
           let data = FileManager.default.contents(atPath: cached) {
            return Array(data)
        }
        let source = folder.path(of: file.name)
        let at = min(1, (file.probe.duration ?? 0) / 10)
        let png: [UInt8]
        do {
            png = try waitFor {
                var generator = ImageGenerator(asset: Asset(source: source))
                generator.maximumSize = PixelSize(width: width, height: width)
                let image = try await generator.image(at: MediaTime(seconds: at, preferredTimescale: 90_000))
                return try ScreenCapture().png(of: image.picture)
            }
        } catch {
            throw .failed("\(error)")
        }
        keep(png, at: cached)
        return png
    }

    /// Removes every thumbnail of `name`.
    func remove(_ name: MediaName) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        let prefix = name.text + "."
        for entry in names where entry.hasPrefix(prefix) && entry.hasSuffix(".png") && Int(entry.dropFirst(prefix.count).dropLast(4)) != nil {
            unlink("\(directory)/\(entry)")
        }
    }

    /// Stores a thumbnail made; a cache, so a failure only means making it
    /// again next time (no fsync: a torn file after a power cut is older
    /// than nothing and is made again).
    private func keep(_ png: [UInt8], at path: String) {
        guard mkdir(directory, 0o755) == 0 || errno == EEXIST else { return }
        let temporary = "\(path).\(UInt64.random(in: 0...UInt64.max)).tmp"
        guard FileManager.default.createFile(atPath: temporary, contents: Data(png)) else { return }
        if rename(temporary, path) != 0 { unlink(temporary) }
    }

    private static func isAfter(_ a: timespec, _ b: timespec) -> Bool {
        a.tv_sec > b.tv_sec || (a.tv_sec == b.tv_sec && a.tv_nsec >= b.tv_nsec)
    }
}

/// Why a thumbnail could not be given.
enum ThumbnailFailure: Error {
    case noPicture
    case unplayable(String)
    case failed(String)
}
