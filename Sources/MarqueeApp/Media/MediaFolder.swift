import FoundationEssentials
import Glibc
import Marquee
import MarqueeConfig
import MarqueeControl
import Synchronization

/// The upload folder (`[controls.http] upload_dir`, by default the first
/// media root): what `GET /media` lists, `PUT /media/NAME` writes and
/// `DELETE /media/NAME` removes. Files are probed once per version (size,
/// change time, inode) and the answer kept. Thumbnails are kept beside the
/// files in `.thumbnails/`; an upload being written is a hidden
/// `.upload-*` file, so a crash leaves no half file under a real name, and
/// those a crash left are removed when the folder is opened.
///
/// Thread-safe: HTTP connection threads call it at once.
final class MediaFolder: Sendable {
    static let uploadPrefix = ".upload-"
    static let thumbnailFolder = ".thumbnails"

    /// With links and `..` resolved.
    let path: String
    /// The largest upload, in bytes.
    let maximumBytes: Int
    private let probes = Mutex<[String: (stamp: FileStamp, probe: MediaProbe)]>([:])

    private init(path: String, maximumBytes: Int) {
        self.path = path
        self.maximumBytes = maximumBytes
    }

    /// The folder the settings name, created if missing, checked to lie in a
    /// media root, with the uploads a crash left removed; the reason the
    /// media routes cannot work otherwise.
    static func open(_ settings: MarqueeConfiguration.HTTPControl, mediaRoots: MediaRoots, base: String?,
                     log: ControlLog) -> Result<MediaFolder, ControlError> {
        guard let first = mediaRoots.roots.first else {
            return .failure(ControlError("no [playback] media_roots are set (or none exists), so there is no upload folder"))
        }
        let wanted = settings.uploadDir.isEmpty ? first : PlaylistResolver.absolute(settings.uploadDir, base: base)
        if mkdir(wanted, 0o755) != 0, errno != EEXIST {
            return .failure(ControlError("upload_dir \(wanted): mkdir: \(String(cString: strerror(errno)))"))
        }
        switch mediaRoots.confine(PlaylistEntry(path: wanted)) {
        case .failure(let error): return .failure(ControlError("upload_dir: \(error.message)"))
        case .success(let entry):
            let folder = MediaFolder(path: entry.path, maximumBytes: settings.maxUploadMB << 20)
            folder.removeLeftovers(log: log)
            return .success(folder)
        }
    }

    /// The path of `name` in the folder.
    func path(of name: MediaName) -> String { "\(path)/\(name.text)" }

    /// Every file the folder lists (hidden names and folders left out), by name.
    /// - Throws: `ControlError` when the folder cannot be read.
    func files() throws(ControlError) -> [MediaFile] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: path)
        } catch {
            throw ControlError("\(path): cannot be listed (\(error))")
        }
        let files = names.sorted().compactMap { text -> MediaFile? in
            guard let name = try? MediaName(text) else { return nil }
            return file(name)
        }
        let current = Set(files.map(\.name.text))
        probes.withLock { $0 = $0.filter { current.contains($0.key) } }
        return files
    }

    /// `name`'s file, probed; nil when there is no such regular file.
    func file(_ name: MediaName) -> MediaFile? {
        guard let stamp = FileStamp(path(of: name)) else { return nil }
        if let known = probes.withLock({ $0[name.text] }), known.stamp == stamp {
            return MediaFile(name: name, stamp: stamp, probe: known.probe)
        }
        let probe = Self.probe(path(of: name))
        probes.withLock { $0[name.text] = (stamp, probe) }
        return MediaFile(name: name, stamp: stamp, probe: probe)
    }

    /// What libavformat makes of the file at `path`; for a picture, its
    /// shape as decoded too, small.
    static func probe(_ path: String) -> MediaProbe {
        do {
            var probe = MediaProbe(try waitFor { try await Asset(source: path).load(.mediaDescription) })
            if probe.kind == .image, let shown = try? waitFor({
                var generator = ImageGenerator(asset: Asset(source: path))
                generator.maximumSize = PixelSize(width: 64, height: 64)
                let picture = try await generator.image(at: .zero).picture
                return PixelSize(width: picture.width, height: picture.height)
            }) {
                probe.match(shown: shown)
            }
            return probe
        } catch {
            return MediaProbe(problem: "\(error)")
        }
    }

    /// Removes `name` and its thumbnails, and syncs the folder.
    /// - Throws: `ControlError` naming the call; none when the file is already gone.
    func remove(_ name: MediaName) throws(ControlError) {
        guard unlink(path(of: name)) == 0 || errno == ENOENT else {
            throw ControlError("unlink \(path(of: name)): \(String(cString: strerror(errno)))")
        }
        MediaThumbnails(folder: self).remove(name)
        probes.withLock { _ = $0.removeValue(forKey: name.text) }
        try AtomicFile.syncFolder(path, what: "media")
    }

    /// Bytes free for an upload on the folder's file system; nil when statvfs fails.
    var freeBytes: Int? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
    }

    private func removeLeftovers(log: ControlLog) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { return }
        for name in names where name.hasPrefix(Self.uploadPrefix) {
            if unlink("\(path)/\(name)") == 0 {
                log.info("media: removed \(path)/\(name), an upload that never finished")
            }
        }
    }
}

/// One file of the upload folder as `GET /media` describes it.
struct MediaFile: Sendable {
    let name: MediaName
    let stamp: FileStamp
    let probe: MediaProbe
}

/// A file's version: what changes when it is written, replaced or renamed over.
struct FileStamp: Sendable, Hashable {
    let bytes: Int
    let inode: UInt64
    /// The change time (ctime), which no one can set back, unlike the modification time.
    let changed: timespec
    let modified: timespec

    /// nil unless `path` is a regular file that stat can read.
    init?(_ path: String) {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        bytes = Int(info.st_size)
        inode = UInt64(info.st_ino)
        changed = info.st_ctim
        modified = info.st_mtim
    }

    /// The modification time in the local zone's offset then.
    var modifiedTime: WallTime {
        var seconds = modified.tv_sec
        var local = tm()
        let offset = localtime_r(&seconds, &local) == nil ? 0 : local.tm_gmtoff
        return WallTime(secondsSinceEpoch: Double(modified.tv_sec) + Double(modified.tv_nsec) / 1e9, utcOffset: offset)
    }

    static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.bytes == b.bytes && a.inode == b.inode && a.changed.tv_sec == b.changed.tv_sec && a.changed.tv_nsec == b.changed.tv_nsec
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(bytes)
        hasher.combine(inode)
        hasher.combine(changed.tv_sec)
        hasher.combine(changed.tv_nsec)
    }
}
