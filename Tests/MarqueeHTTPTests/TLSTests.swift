import Foundation
import MarqueeHTTP
import MarqueeTestSupport
import Testing

extension HTTPServerSuite {
    /// MHD's own HTTPS, with a self-signed certificate made by openssl.
    @Suite struct TLSTests {
        /// A fresh self-signed certificate and key for CN=localhost, valid a day.
        static func certificate() throws -> (certificatePEM: String, keyPEM: String) {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("marquee-tls-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let key = directory.appendingPathComponent("key.pem").path, certificate = directory.appendingPathComponent("cert.pem").path
            let made = try Command.run("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-days", "1",
                                                   "-keyout", key, "-out", certificate], timeout: 30)
            guard made.status == 0 else { throw CommandError.failed("openssl req", made) }
            return (try String(contentsOfFile: certificate, encoding: .utf8), try String(contentsOfFile: key, encoding: .utf8))
        }

        @Test func curlOverTLSGetsTheAnswerAndPlainHTTPGetsNone() async throws {
            let tls = try await Blocking.run { try Self.certificate() }
            let server = try HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, tls: tls), handler: Routes())
            let secure = try await Blocking.run { try Curl.run("https://127.0.0.1:\(server.port)/status", ["-k"]) }
            #expect(secure.status == 200)
            #expect(secure.body == #"{"state":"playing"}"#)
            #expect(secure.headers["cache-control"] == "no-store")
            let plain = try await Blocking.run { try Curl.run("http://127.0.0.1:\(server.port)/status") }
            #expect(plain.exitStatus != 0)
            #expect(plain.status == 0 && plain.body.isEmpty)
            // Without -k curl must refuse the self-signed certificate: the server really speaks TLS.
            let unverified = try await Blocking.run { try Curl.run("https://127.0.0.1:\(server.port)/status") }
            #expect(unverified.exitStatus == 60)
        }

        @Test func aKeyGnuTLSCannotReadIsAnErrorWithMHDsReason() async throws {
            let tls = try await Blocking.run { try Self.certificate() }
            let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, tls: (tls.certificatePEM, "not a key"))
            let error = try #require(throws: HTTPServerError.self) { try HTTPServer(configuration: configuration, handler: Routes()) }
            #expect(error.call == "MHD_start_daemon")
            #expect(error.reason != "it gave no reason")
            #expect(error.description.hasPrefix("http 127.0.0.1:0: MHD_start_daemon: "))
        }
    }
}
