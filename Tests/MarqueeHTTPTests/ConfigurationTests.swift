import MarqueeHTTP
import Testing

extension HTTPServerSuite {
    /// Listen addresses and the refusal to listen beyond loopback unprotected.
    @Suite struct ConfigurationTests {
        static let tls = (certificatePEM: "CERTIFICATE", keyPEM: "KEY")

        @Test func anyAddressNeedsATokenAndTLS() throws {
            let bare = try HTTPServerConfiguration(listen: "0.0.0.0:8080")
            #expect(!bare.isLoopback)
            #expect(bare.refusal() == "refusing to listen on 0.0.0.0:8080: an address other than loopback needs a token and TLS (a certificate and key)")
            let noToken = try HTTPServerConfiguration(listen: "0.0.0.0:8080", tls: Self.tls)
            #expect(noToken.refusal() == "refusing to listen on 0.0.0.0:8080: an address other than loopback needs a token")
            let emptyToken = try HTTPServerConfiguration(listen: "0.0.0.0:8080", token: "", tls: Self.tls)
            #expect(emptyToken.refusal() == noToken.refusal())
            let noTLS = try HTTPServerConfiguration(listen: "0.0.0.0:8080", token: "s3cret")
            #expect(noTLS.refusal() == "refusing to listen on 0.0.0.0:8080: an address other than loopback needs TLS (a certificate and key)")
            let both = try HTTPServerConfiguration(listen: "0.0.0.0:8080", token: "s3cret", tls: Self.tls)
            #expect(both.refusal() == nil)
            let everywhere = try HTTPServerConfiguration(listen: "[::]:8080")
            #expect(everywhere.refusal()?.hasPrefix("refusing to listen on [::]:8080: ") == true)
        }

        @Test func loopbackNeedsNeither() throws {
            for listen in ["127.0.0.1:8080", "127.3.2.1:80", "[::1]:8080", "[::ffff:127.0.0.1]:8080"] {
                let configuration = try HTTPServerConfiguration(listen: listen)
                #expect(configuration.isLoopback, "\(listen)")
                #expect(configuration.refusal() == nil, "\(listen)")
            }
            #expect(try !HTTPServerConfiguration(listen: "192.168.1.20:8080").isLoopback)
            #expect(try !HTTPServerConfiguration(listen: "[fd00::2]:8080").isLoopback)
        }

        @Test func goodListenAddressesParse() throws {
            let cases: [(String, String, UInt16)] = [("127.0.0.1:8080", "127.0.0.1", 8080), ("[::1]:8080", "::1", 8080),
                                                     ("0.0.0.0:80", "0.0.0.0", 80), ("[::]:0", "::", 0), ("10.0.0.1:65535", "10.0.0.1", 65535)]
            for (listen, host, port) in cases {
                let parsed = try HTTPServerConfiguration.parse(listen: listen)
                #expect(parsed.host == host && parsed.port == port, "\(listen)")
                #expect(try HTTPServerConfiguration(listen: listen).listenAddress == listen)
            }
        }

        @Test func badListenAddressesSayWhatIsWrong() {
            let cases: [(String, String)] = [
                ("8080", "expected HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080"),
                ("", "expected HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080"),
                ("localhost:8080", "'localhost' is not a numeric IPv4 address (names are not looked up; 127.0.0.1 is loopback)"),
                ("1.2.3:80", "'1.2.3' is not a numeric IPv4 address (names are not looked up; 127.0.0.1 is loopback)"),
                (":8080", "no host before the port (0.0.0.0 is every IPv4 address, [::] every address)"),
                ("::1:8080", "an IPv6 host goes in brackets, e.g. [::1]:8080"),
                ("[::1:8080", "an IPv6 host opened with '[' needs its ']', e.g. [::1]:8080"),
                ("[::1]8080", "expected ':' and a port after ']', e.g. [::1]:8080"),
                ("[127.0.0.1]:80", "'127.0.0.1' is not a numeric IPv6 address"),
                ("127.0.0.1:", "port '' is not a number from 0 to 65535"),
                ("127.0.0.1:65536", "port '65536' is not a number from 0 to 65535"),
                ("127.0.0.1:-1", "port '-1' is not a number from 0 to 65535"),
                ("127.0.0.1:http", "port 'http' is not a number from 0 to 65535"),
            ]
            for (listen, reason) in cases {
                #expect(throws: HTTPServerError(value: "listen address '\(listen)'", reason: reason)) {
                    try HTTPServerConfiguration.parse(listen: listen)
                }
            }
            let error = HTTPServerError(value: "listen address '8080'", reason: "expected HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080")
            #expect(error.description == "http: listen address '8080': expected HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080")
        }
    }
}
