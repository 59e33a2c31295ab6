import MarqueeControl
import MarqueeCore
import Testing

@Suite struct ControlCommandTests {
    @Test(arguments: [
        ("play", ControlCommand.play), ("pause", .pause), ("toggle", .toggle), ("stop", .stop),
        ("seek 12.5", .seek(.absolute(12.5))), ("seek +5", .seek(.relative(5))), ("seek -2.25", .seek(.relative(-2.25))),
        ("next", .next), ("prev", .previous), ("goto 3", .goTo(index: 3)),
        ("loop item", .loop(.item)), ("loop playlist", .loop(.playlist)), ("loop none", .loop(.none)),
        ("rate 0.5", .rate(0.5)), ("volume 0", .volume(0)), ("mute", .mute), ("unmute", .unmute),
        ("status", .status), ("reload", .reload), ("quit", .quit),
        ("screen off", .screen(on: false)), ("screen on", .screen(on: true)), ("SCREEN Off", .screen(on: false)),
        ("show-text Sale ends today", .showText("Sale ends today", seconds: 3)), ("show-text Doors at 9 10", .showText("Doors at 9", seconds: 10)),
        ("show-text 42", .showText("42", seconds: 3)), ("overlay logo off", .overlay(name: "logo", visible: false)),
        ("overlay clock ON", .overlay(name: "clock", visible: true)), ("captions off", .captions(.off)),
        ("captions On", .captions(.on)), ("captions DE", .captions(.language("de"))), ("captions eng", .captions(.language("eng"))),
    ])
    func everyCommandParsesAndPrintsBackTheSame(text: String, command: ControlCommand) throws {
        #expect(try ControlCommand(parsing: text) == command)
        #expect(try ControlCommand(parsing: command.description) == command)
    }

    @Test func spacingAndCaseAreForgiven() throws {
        #expect(try ControlCommand(parsing: "  SEEK\t+5  ") == .seek(.relative(5)))
        #expect(try ControlCommand(parsing: "Loop Item") == .loop(.item))
        #expect(try ControlCommand(parsing: "rate -0.5") == .rate(-0.5))
        #expect(try ControlCommand(parsing: "step") == .step(1))
        #expect(try ControlCommand(parsing: "step -3") == .step(-3))
        #expect(try ControlCommand(parsing: "step +2") == .step(2))
        #expect(ControlCommand.step(-3).description == "step -3" && ControlCommand.step(2).description == "step +2")
    }

    @Test(arguments: [
        ("", "empty command"),
        ("paws", "unknown command 'paws' (did you mean 'pause'?)"),
        ("xyzzy", "unknown command 'xyzzy'"),
        ("pause now", "pause takes no arguments"),
        ("seek", "usage: seek SECONDS | +SECONDS | -SECONDS"),
        ("seek ten", "seek: 'ten' is not SECONDS, +SECONDS or -SECONDS"),
        ("seek nan", "seek: 'nan' is not SECONDS, +SECONDS or -SECONDS"),
        ("seek -inf", "seek: '-inf' is not SECONDS, +SECONDS or -SECONDS"),
        ("goto 0", "goto: '0' is not a playlist position (1, 2, ...)"),
        ("loop forever", "loop: 'forever' is not item, playlist or none"),
        ("rate 0", "rate: '0' is not a rate from 0.0625 to 16, or -16 to -0.0625 backwards"),
        ("rate 17", "rate: '17' is not a rate from 0.0625 to 16, or -16 to -0.0625 backwards"),
        ("rate -17", "rate: '-17' is not a rate from 0.0625 to 16, or -16 to -0.0625 backwards"),
        ("step 0", "step: '0' is not a number of frames, +1 to +1000 or -1 to -1000"),
        ("step -1001", "step: '-1001' is not a number of frames, +1 to +1000 or -1 to -1000"),
        ("step one", "step: 'one' is not a number of frames, +1 to +1000 or -1 to -1000"),
        ("step 1 2", "usage: step [+N | -N] (frames, 1 to 1000; +1 alone)"),
        ("volume 1.5", "volume: '1.5' is not a volume from 0 to 1"),
        ("volume 0x1", "volume: '0x1' is not a volume from 0 to 1"),
        ("screen", "usage: screen on | off"),
        ("screen dim", "screen: 'dim' is not on or off"),
        ("screen off now", "usage: screen on | off"),
        ("screan off", "unknown command 'screan' (did you mean 'screen'?)"),
        ("show-text", "usage: show-text TEXT [SECONDS] (SECONDS from 0.1 to 3600, default 3)"),
        ("show-text hello 0", "usage: show-text TEXT [SECONDS] (SECONDS from 0.1 to 3600, default 3)"),
        ("overlay logo", "usage: overlay NAME on | off"),
        ("overlay logo blink", "overlay: 'blink' is not on or off"),
        ("captions", "usage: captions on | off | LANG"),
        ("captions german", "captions: 'german' is not on, off or a language code (\"de\", \"eng\")"),
    ])
    func badCommandsSayWhatIsWrong(text: String, message: String) {
        #expect(throws: ControlError(message)) { try ControlCommand(parsing: text) }
    }

    @Test func screenCommandsComeAsJSONToo() throws {
        let off = try #require(try ControlRequest.parse(#"{"command": "screen", "args": ["off"], "id": 3}"#, format: .json))
        #expect(off == ControlRequest(id: .integer(3), command: .screen(on: false)))
        #expect(throws: ControlRequest.Failure(id: .integer(4), error: ControlError("usage: screen on | off"))) {
            try ControlRequest.parse(#"{"command": "screen", "id": 4}"#, format: .json)
        }
    }

    @Test func jsonRequestsCarryTheirIdAndArguments() throws {
        let request = try #require(try ControlRequest.parse(#"{"command": "seek", "args": ["+5"], "id": 7}"#, format: .json))
        #expect(request == ControlRequest(id: .integer(7), command: .seek(.relative(5))))
        let numeric = try #require(try ControlRequest.parse(#"{"command":"rate","args":[1.5],"id":"a"}"#, format: .json))
        #expect(numeric == ControlRequest(id: .string("a"), command: .rate(1.5)))
        let bare = try #require(try ControlRequest.parse(#"{"command":"goto","args":[2]}"#, format: .json))
        #expect(bare == ControlRequest(id: nil, command: .goTo(index: 2)))
    }

    @Test(arguments: [
        (#"{"command":"seek","id":9}"#, JSONValue?.some(.integer(9)), "usage: seek SECONDS | +SECONDS | -SECONDS"),
        (#"{"command":"paws","id":"p"}"#, .some(.string("p")), "unknown command 'paws' (did you mean 'pause'?)"),
        (#"{"command":3,"id":1}"#, .some(.integer(1)), "'command' must be a string, e.g. \"pause\""),
        (#"{"command":"pause","id":1,"x":2}"#, .some(.integer(1)), "unknown field 'x' (fields: command, args, id)"),
        (#"{"command":"seek","args":"+5","id":1}"#, .some(.integer(1)), "'args' must be an array, e.g. [\"+5\"]"),
        (#"{"command":"seek","args":[true],"id":1}"#, .some(.integer(1)), "'args' must hold strings or numbers"),
        (#"{"command":"pause","id":[1]}"#, nil, "'id' must be a number, a string or null"),
        (#"{"command":"pause""#, nil, "malformed JSON: expected an object like {\"command\": \"pause\", \"id\": 1}"),
        (#"["pause"]"#, nil, "malformed JSON: expected an object like {\"command\": \"pause\", \"id\": 1}"),
        ("pause", nil, "malformed JSON: expected an object like {\"command\": \"pause\", \"id\": 1}"),
    ])
    func badJSONIsAnsweredWithTheIdWhenThereIsOne(line: String, id: JSONValue?, message: String) {
        #expect(throws: ControlRequest.Failure(id: id, error: ControlError(message))) {
            try ControlRequest.parse(line, format: .json)
        }
    }

    @Test func deepJSONIsRefusedBeforeDecoding() {
        let line = #"{"command":"pause","id":"# + String(repeating: "[", count: 2000) + String(repeating: "]", count: 2000) + "}"
        #expect(throws: ControlRequest.Failure(id: nil, error: ControlError("malformed JSON: nested too deep"))) {
            try ControlRequest.parse(line, format: .json)
        }
    }

    @Test func blankLinesAndCommentsNeedNoReply() throws {
        #expect(try ControlRequest.parse("   ", format: .text) == nil)
        #expect(try ControlRequest.parse("# a note", format: .json) == nil)
    }

    @Test func repliesInBothFormats() {
        let ok = ControlReply(id: .integer(7), outcome: .success(.done(nil)))
        #expect(ok.line(.text) == "ok")
        #expect(ok.line(.json) == #"{"id":7,"result":"ok"}"#)
        let failed = ControlReply(id: .string("x\"y"), outcome: .failure(ControlError("goto: no item 9")))
        #expect(failed.line(.text) == "error: goto: no item 9")
        #expect(failed.line(.json) == #"{"id":"x\"y","error":"goto: no item 9"}"#)
        let status = PlaybackStatus(state: .paused, index: 1, count: 3, source: "/m/a b.mp4", time: 12.3456, duration: nil,
                                    rate: 1, volume: 0.5, muted: false, loop: .item)
        let reply = ControlReply(id: nil, outcome: .success(.status(status)))
        #expect(reply.line(.text) == "ok state=paused item=2/3 time=12.346 duration=- rate=1 volume=0.5 muted=false loop=item screen=on source=/m/a b.mp4")
        #expect(reply.line(.json) == #"{"id":null,"result":{"bufferEmpty":false,"duration":null,"item":2,"items":3,"#
            + #""likelyToKeepUp":true,"loop":"item","muted":false,"rate":1,"screen":"on","#
            + #""source":"/m/a b.mp4","stalls":0,"state":"paused","time":12.346,"volume":0.5,"waiting":null}}"#)
        var stalled = status
        (stalled.state, stalled.waiting, stalled.bufferEmpty, stalled.likelyToKeepUp, stalled.stalls) = (.playing, "toMinimizeStalls", true, false, 2)
        let waiting = ControlReply(id: nil, outcome: .success(.status(stalled))).line(.text)
        #expect(waiting == "ok state=playing item=2/3 time=12.346 duration=- rate=1 volume=0.5 muted=false loop=item screen=on waiting=toMinimizeStalls source=/m/a b.mp4")
    }
}
