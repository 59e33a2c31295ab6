import FoundationEssentials
import Glibc
import MarqueeControl
import MarqueeHTTP

/// One `PUT /media/NAME` body on its way to disk: written as it arrives to
/// a hidden file in the upload folder (`.upload-RANDOM.EXT`, the extension
/// kept for libavformat's image readers), then fsynced, probed, renamed to
/// NAME and the folder fsynced. Nothing is ever left under NAME but a whole
/// file that plays; the hidden file is removed on every other ending (a
/// full disk, the size limit, a file that is not media, a client that goes
/// away), and one a crash left is removed when the folder is next opened.
///
/// The only owner of the file's descriptor and of the hidden file.
final class MediaUpload: HTTPBodySink {
    private let folder: MediaFolder
    private let name: MediaName
    private let temporary: String
    private var descriptor: Int32
    private var received = 0
    /// Set at the first failure: the rest of the body is read and dropped,
    /// since MHD can answer only once it has all of it.
    private var failure: HTTPResponse?
    private var isStored = false
    /// The stored file as the answer describes it (told whether it replaced one).
    private let describe: @Sendable (MediaFile, _ replaced: Bool) -> JSONValue

    /// Opens the hidden file.
    /// - Throws: an `HTTPResponse` to answer with at once: 507 for a full
    ///   disk, 500 naming the call otherwise.
    init(folder: MediaFolder, name: MediaName, describe: @escaping @Sendable (MediaFile, Bool) -> JSONValue) throws(HTTPFailure) {
        self.folder = folder
        self.name = name
        self.describe = describe
        temporary = "\(folder.path)/\(MediaFolder.uploadPrefix)\(String(UInt64.random(in: 0...UInt64.max), radix: 36))\(name.suffix)"
        descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw HTTPFailure(Self.refusal("open", temporary, errno)) }
    }

    func write(_ piece: UnsafeRawBufferPointer) -> Bool {
        received += piece.count
        guard received <= folder.maximumBytes else {
            discard()
            return false
        }
        guard failure == nil else { return true }
        var offset = 0
        while offset < piece.count {
            let written = Glibc.write(descriptor, piece.baseAddress! + offset, piece.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                fail(Self.refusal("write", temporary, errno))
                return true
            }
            offset += written
        }
        return true
    }

    func finish() -> HTTPResponse {
        if let failure { return failure }
        guard fsync(descriptor) == 0 else {
            fail(Self.refusal("fsync", temporary, errno))
            return failure!
        }
        let closed = close(descriptor)
        descriptor = -1
        guard closed == 0 else {
            fail(Self.refusal("close", temporary, errno))
            return failure!
        }
        let probe = MediaFolder.probe(temporary)
        guard probe.kind != nil else {
            let reason = (probe.problem ?? "unknown").replacing(temporary, with: name.text)
            fail(.text(422, "\(name): not media this player can play: \(reason)"))
            return failure!
        }
        let final = folder.path(of: name)
        let replaced = access(final, F_OK) == 0
        guard rename(temporary, final) == 0 else {
            fail(Self.refusal("rename", temporary, errno))
            return failure!
        }
        isStored = true
        do throws(ControlError) {
            try AtomicFile.syncFolder(folder.path, what: "media")
        } catch {
            return .text(500, "\(name) is in place but \(error.message)")
        }
        MediaThumbnails(folder: folder).remove(name)
        guard let file = folder.file(name) else { return .text(500, "\(name) vanished as it was stored") }
        var response = HTTPResponse.json(replaced ? 200 : 201, describe(file, replaced).jsonText)
        response.headers.append(("Location", "/media/\(PathSegment.encoded(name.text))"))
        return response
    }

    /// Closes and removes the hidden file; the request ended without the
    /// file being stored.
    deinit { discard() }

    private func fail(_ response: HTTPResponse) {
        failure = response
        discard()
    }

    private func discard() {
        if descriptor >= 0 {
            close(descriptor)
            descriptor = -1
        }
        if !isStored { unlink(temporary) }
    }

    /// 507 for a full disk or quota, 500 naming the call and file otherwise.
    static func refusal(_ call: String, _ path: String, _ code: Int32) -> HTTPResponse {
        let reason = String(cString: strerror(code))
        if code == ENOSPC || code == EDQUOT {
            return .text(507, "the upload folder's disk is full (\(call) \(path): \(reason)); nothing was kept")
        }
        return .text(500, "\(call) \(path): \(reason); nothing was kept")
    }
}

/// An answer given in place of going on: a thrown refusal.
struct HTTPFailure: Error {
    let response: HTTPResponse
    init(_ response: HTTPResponse) { self.response = response }
}
