import MarqueeConfig
import MarqueeCore
import Testing

/// `[fleet]` (issue 40): a good section reads as written and back; each
/// mistake is an error at the value's line and column.
@Suite struct FleetConfigurationTests {
    @Test func aGoodSectionReadsAsWrittenAndBackAsItself() throws {
        let text = """
            [fleet]
            broker = "mqtts://broker.example.net"
            ca_file = "ca.pem"
            cert_file = "screen.pem"
            key_file = "screen.key"
            username = "lobby-1"
            password_file = "/etc/marquee/mqtt-password"
            id = "lobby-1"
            groups = ["lobby", "floor-2"]
            status_interval = 10
            """
        let fleet = try MarqueeConfiguration.parse(text).fleet
        #expect(fleet.address == BrokerAddress(host: "broker.example.net", port: 8883, tls: true))
        #expect(fleet.groups == ["lobby", "floor-2"] && fleet.id == "lobby-1" && fleet.statusInterval == 10)
        var configuration = MarqueeConfiguration()
        configuration.fleet = fleet
        #expect(try MarqueeConfiguration.parse(configuration.tomlText) == configuration)
        #expect(BrokerAddress("mqtt://[::1]:1884") == BrokerAddress(host: "::1", port: 1884, tls: false))
        #expect(BrokerAddress("mqtt://10.0.0.2")?.description == "mqtt://10.0.0.2:1883")
    }

    @Test(arguments: [
        ("broker = \"tcp://host:1883\"", "2:10: fleet.broker: expected \"mqtt://HOST[:PORT]\""),
        ("broker = \"mqtt://host:99999\"", "2:10: fleet.broker"),
        ("broker = \"mqtt://host\"\nca_file = \"ca.pem\"", "3:11: fleet.ca_file: TLS files need an mqtts:// broker"),
        ("broker = \"mqtts://host\"\ncert_file = \"a.pem\"", "3:13: fleet.cert_file: cert_file and key_file go together"),
        ("broker = \"mqtt://host\"\npassword_file = \"p\"", "3:17: fleet.password_file: needs username"),
        ("id = \"lobby/1\"", "2:6: fleet.id: 'lobby/1' cannot name a topic level"),
        ("groups = [\"a\", \"b#\"]", "2:10: fleet.groups: 'b#' cannot name a topic level"),
        ("status_interval = 0", "2:19: fleet.status_interval"),
        ("brokers = \"mqtt://host\"", "2:1: unknown key 'brokers' in [fleet]"),
    ])
    func aMistakeIsAnErrorAtItsPlace(line: String, expected: String) {
        do {
            _ = try MarqueeConfiguration.parse("[fleet]\n" + line, file: "f.toml")
            Issue.record("accepted: \(line)")
        } catch {
            #expect("\(error)".contains("f.toml:" + expected), "\(error)")
        }
    }
}
