import MarqueeControl
import MarqueeHTTP

/// The media routes (docs/control.md): `GET /media`, `PUT` and `DELETE
/// /media/NAME`, `GET /media/NAME/thumbnail.png?width=W`.
extension HTTPRoutes {
    /// An upload's body goes to its file as it arrives; every other body is
    /// held in memory. An upload that cannot succeed is refused before any
    /// of it is read.
    func body(for request: HTTPRequest) -> HTTPBodyHandling {
        guard request.method == "PUT", case .file(let text)? = MediaRoute(request.path) else { return .memory }
        let folder: MediaFolder
        switch media {
        case .success(let opened): folder = opened
        case .failure(let error): return .refuse(.text(409, "no upload folder: \(error.message)"))
        }
        let name: MediaName
        do throws(MediaNameError) {
            name = try MediaName(text)
        } catch {
            return .refuse(.text(400, "\(error)"))
        }
        if let declared = request.headers["content-length"].flatMap(Int.init) {
            guard declared <= folder.maximumBytes else {
                return .refuse(.text(413, "\(name) is \(declared) bytes; at most \(folder.maximumBytes) (max_upload_mb) are taken"))
            }
            if let free = folder.freeBytes, declared > free {
                return .refuse(.text(507, "\(name) is \(declared) bytes; the upload folder's disk has \(free) free"))
            }
        }
        do throws(HTTPFailure) {
            return .stream(try MediaUpload(folder: folder, name: name) { [controls] file, replaced in
                controls.log.info("media: \(replaced ? "replaced" : "stored") \(folder.path(of: file.name)) (\(file.stamp.bytes) bytes, \(file.probe.kind?.rawValue ?? "?"))")
                let path = folder.path(of: file.name)
                return MediaListing.json(file, path: path, inPlaylist: PlayControls.uses(path, in: controls.playlistPaths()))
            })
        } catch {
            return .refuse(error.response)
        }
    }

    func respond(to request: HTTPRequest, at route: MediaRoute) -> HTTPResponse {
        let folder: MediaFolder
        switch media {
        case .success(let opened): folder = opened
        case .failure(let error): return .text(409, "no upload folder: \(error.message)")
        }
        switch route {
        case .list: return list(folder)
        case .file(let text): return Self.named(text) { delete($0, from: folder) }
        case .thumbnail(let text): return Self.named(text) { thumbnail($0, in: folder, query: request.query) }
        }
    }

    /// `answer` for the file `text` names, or the 400 saying what is wrong with the name.
    private static func named(_ text: String, _ answer: (MediaName) -> HTTPResponse) -> HTTPResponse {
        let name: MediaName
        do throws(MediaNameError) {
            name = try MediaName(text)
        } catch {
            return .text(400, "\(error)")
        }
        return answer(name)
    }

    private func list(_ folder: MediaFolder) -> HTTPResponse {
        do throws(ControlError) {
            let used = controls.playlistPaths()
            let files = try folder.files().map { file in
                let path = folder.path(of: file.name)
                return MediaListing.json(file, path: path, inPlaylist: PlayControls.uses(path, in: used))
            }
            return .json(200, JSONValue.array(files).jsonText)
        } catch {
            return .text(500, error.message)
        }
    }

    /// Takes the file out of the playlist first (nothing is deleted when
    /// the playlist cannot be saved without it), then removes it.
    private func delete(_ name: MediaName, from folder: MediaFolder) -> HTTPResponse {
        let path = folder.path(of: name)
        guard FileStamp(path) != nil else { return .text(404, "no file \(name) in the upload folder") }
        switch controls.removeFromPlaylist(path) {
        case .success: break
        case .failure(.entry(let error)), .failure(.store(let error)):
            return .text(409, "\(name) is in the playlist, which cannot be saved without it: \(error.message); nothing was deleted")
        case .failure(.noStore(let error)):
            return .text(409, "\(name) is in the playlist, which cannot be changed: \(error.message); nothing was deleted")
        }
        do throws(ControlError) {
            try folder.remove(name)
        } catch {
            return .text(500, error.message)
        }
        controls.log.info("media: deleted \(path)")
        return HTTPResponse(status: 204, contentType: "text/plain; charset=utf-8", body: .bytes([]))
    }

    private func thumbnail(_ name: MediaName, in folder: MediaFolder, query: [String: String]) -> HTTPResponse {
        var width = 320
        if let given = query["width"] {
            guard let value = Int(given), MediaThumbnails.widths.contains(value) else {
                return .text(400, "width=\(given.prefix(20)): give pixels from \(MediaThumbnails.widths.lowerBound) to \(MediaThumbnails.widths.upperBound)")
            }
            width = value
        }
        guard let file = folder.file(name) else { return .text(404, "no file \(name) in the upload folder") }
        do throws(ThumbnailFailure) {
            return HTTPResponse(status: 200, contentType: "image/png", body: .bytes(try MediaThumbnails(folder: folder).png(of: file, width: width)))
        } catch {
            switch error {
            case .noPicture: return .text(404, "\(name) is sound alone: it has no picture")
            case .unplayable(let reason): return .text(422, "\(name) cannot be played: \(reason)")
            case .failed(let reason): return .text(500, "thumbnail of \(name): \(reason)")
            }
        }
    }
}
