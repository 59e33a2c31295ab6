import MarqueeConfig
import Testing

/// What the conformance suite does not look at: where values are, and how
/// errors read.
@Suite struct TOMLParserTests {
    @Test func valuesAndKeysKnowWhereTheyWereWritten() throws {
        let table = try TOML.parse("""
            # comment
            [audio]
              volume = 0.5
            [[controls.gpio]]
            line = 3
            """)
        let audio = try #require(table["audio"]?.table)
        let volume = try #require(audio.entry("volume"))
        #expect(volume.keyLocation == SourceLocation(line: 3, column: 3))
        #expect(volume.value.location == SourceLocation(line: 3, column: 12))
        #expect(volume.value.number == 0.5)
        let buttons = try #require(table["controls"]?.table?["gpio"]?.array)
        #expect(buttons.count == 1)
        #expect(buttons[0].table?.entry("line")?.value.location == SourceLocation(line: 5, column: 8))
        #expect(buttons[0].table?["line"]?.integer == 3)
    }

    @Test func keysKeepTheirOrder() throws {
        let table = try TOML.parse("z = 1\na = 2\nm.x = 3\n")
        #expect(table.keys == ["z", "a", "m"])
    }

    @Test func anErrorNamesFileLineAndColumnAndPointsAtTheSpot() {
        #expect {
            _ = try TOML.parse("a = 1\nrate 1.5\n", file: "config.toml")
        } throws: { error in
            guard let error = error as? SourceError else { return false }
            let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false)
            return error.location == SourceLocation(line: 2, column: 6)
                && lines.count == 3
                && lines[0] == "config.toml:2:6: expected '=' after the key 'rate', found '1'"
                && lines[1] == "    2 | rate 1.5"
                && lines[2] == "      |      ^"
        }
    }

    @Test func theCaretFollowsTabsAndLongLinesAreCut() throws {
        let tabbed = SourceError(file: "f", location: SourceLocation(line: 1, column: 3), message: "m", sourceLine: "\t\tx")
        #expect(tabbed.description.hasSuffix("| \t\t^"))
        let long = String(repeating: "a", count: 500) + "!" + String(repeating: "b", count: 500)
        let cut = SourceError(file: "f", location: SourceLocation(line: 1, column: 501), message: "m", sourceLine: long)
        let lines = cut.description.split(separator: "\n").map(String.init)
        #expect(lines[1].count < 140)
        #expect(lines[1].contains("!"))
        // The caret sits under the "!".
        let caret = try #require(lines[2].firstIndex(of: "^"))
        let bang = try #require(lines[1].firstIndex(of: "!"))
        #expect(lines[2].distance(from: lines[2].startIndex, to: caret) == lines[1].distance(from: lines[1].startIndex, to: bang))
    }

    @Test(arguments: [
        ("a = 1\na = 2\n", 2, 1, "already defined at 1:5"),
        ("[t]\n[t]\n", 2, 2, "already defined"),
        ("a = [1, 2\n", 2, 1, "unterminated array"),
        ("s = \"abc\n", 1, 9, "line break is not allowed"),
        ("n = 0x\n", 1, 5, "digits expected"),
        ("d = 2023-02-29\n", 1, 5, "day 29 is out of range 1-28"),
        ("t = {a = 1,}\n", 1, 12, "trailing comma"),
        ("x = \"\\q\"\n", 1, 6, "invalid escape"),
    ])
    func errorsAreAtTheRightPlace(text: String, line: Int, column: Int, message: String) {
        do {
            _ = try TOML.parse(text)
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.location == SourceLocation(line: line, column: column), "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = "a = " + String(repeating: "[", count: 100_000)
        #expect(throws: SourceError.self) { try TOML.parse(text) }
        let inline = "a = " + String(repeating: "{b = ", count: 10_000)
        #expect(throws: SourceError.self) { try TOML.parse(inline) }
    }

    @Test func invalidUTF8IsReportedWhereItIs() {
        do {
            _ = try TOML.parse(utf8: Array("a = 1\nb = \"x".utf8) + [0xFF, 0x22, 0x0A], file: "bad.toml")
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.location == SourceLocation(line: 2, column: 7))
            #expect(error.message == "invalid UTF-8 byte sequence")
        }
    }

    @Test func taggedJSONSpellsEveryType() throws {
        let table = try TOML.parse("""
            s = "a\\"b"
            i = -9223372036854775808
            f = -inf
            b = true
            odt = 1979-05-27 07:32:00.500+01:30
            ldt = 1979-05-27T07:32:00
            ld = 1979-05-27
            lt = 07:32:00.123456789999
            """)
        let json = TOMLTaggedJSON.encode(table)
        for part in [
            #""s":{"type":"string","value":"a\"b"}"#, #""i":{"type":"integer","value":"-9223372036854775808"}"#,
            #""f":{"type":"float","value":"-inf"}"#, #""b":{"type":"bool","value":"true"}"#,
            #""odt":{"type":"datetime","value":"1979-05-27T07:32:00.5+01:30"}"#,
            #""ldt":{"type":"datetime-local","value":"1979-05-27T07:32:00"}"#,
            #""ld":{"type":"date-local","value":"1979-05-27"}"#,
            // Finer than nanoseconds is truncated, not rounded.
            #""lt":{"type":"time-local","value":"07:32:00.123456789"}"#,
        ] {
            #expect(json.contains(part), "\(part) not in \(json)")
        }
    }
}
