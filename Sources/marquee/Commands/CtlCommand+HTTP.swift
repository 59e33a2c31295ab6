import FoundationEssentials
import MarqueeApp
import MarqueeControl
import MarqueeHTTP

/// `marquee ctl --http URL ...`: a command as `POST /command`, and the
/// upload folder's `upload FILE [NAME]` (`PUT /media/NAME`, the file
/// streamed from disk) and `media` (`GET /media`, one JSON line a file).
extension CtlCommand {
    static func client(url: String?, tokenFile: String?, trustFile: String?) throws -> HTTPClient? {
        guard let url else {
            if tokenFile != nil || trustFile != nil { throw UsageError("ctl: --token-file and --cacert go with --http URL") }
            return nil
        }
        let server: ServerURL
        do throws(HTTPClientError) {
            server = try ServerURL(url)
        } catch {
            throw UsageError("ctl --http: \(error)")
        }
        if trustFile != nil, !server.isTLS { throw UsageError("ctl: --cacert is for an https URL") }
        var token: String?
        if let tokenFile {
            do throws(ControlError) {
                token = try SecretFile.read(tokenFile, what: "--token-file")
            } catch {
                throw UsageError("ctl \(error.message)")
            }
        }
        return HTTPClient(server: server, token: token, trustFile: trustFile)
    }

    static func checkMedia(_ words: [String]) throws {
        switch words[0] {
        case "upload":
            guard (2...3).contains(words.count) else { throw UsageError("ctl upload FILE [NAME]: a file, and the name to give it there") }
        default:
            guard words.count == 1 else { throw UsageError("ctl media takes no arguments") }
        }
    }

    func run(over http: HTTPClient) -> Int32 {
        do throws(HTTPClientError) {
            switch words[0] {
            case "upload":
                let name = words.count == 3 ? words[2] : URL(fileURLWithPath: words[1]).lastPathComponent
                return report(try http.send("PUT", "/media/" + PathSegment.encoded(name), body: .file(words[1])), as: "upload \(name)")
            case "media":
                let response = try http.send("GET", "/media")
                guard response.status == 200 else { return report(response, as: "media") }
                guard case .array(let files)? = try? JSONDecoder().decode(JSONValue.self, from: Data(response.body)) else {
                    Diagnostics.error("ctl media: \(http.server.text) answered what is not a JSON array")
                    return 1
                }
                for file in files { StandardStream.output.write(file.jsonText + "\n") }
                return 0
            default:
                let request = JSONValue.object(["command": .string(words[0]), "args": .array(words.dropFirst().map(JSONValue.string))])
                let response = try http.send("POST", "/command", body: .bytes(Array(request.jsonText.utf8)), contentType: "application/json")
                guard response.status == 200, let reply = try? JSONDecoder().decode([String: JSONValue].self, from: Data(response.body)) else {
                    return report(response, as: words[0])
                }
                StandardStream.output.write(Self.text(reply["result"] ?? .null) + "\n")
                return 0
            }
        } catch {
            Diagnostics.error("ctl: \(error)")
            return 1
        }
    }

    /// The answer's body on stdout for a success, on stderr with its status otherwise.
    private func report(_ response: HTTPClientResponse, as what: String) -> Int32 {
        guard (200...299).contains(response.status) else {
            Diagnostics.error("ctl \(what): \(response.status) \(response.text)")
            return 1
        }
        StandardStream.output.write(response.text + "\n")
        return 0
    }
}
