import FoundationEssentials
import Marquee
import MarqueeApp

/// `marquee info`: what each input holds, as a table or JSON. A bad input gets
/// one line on stderr and the rest are still reported.
struct InfoCommand: Subcommand {
    static let name = "info"
    static let operands = "FILE_OR_URL..."
    static let options = [
        OptionSpec("--json", .diagnostics, "one JSON array of every input instead of tables"),
        OptionSpec("--timeout", "SECONDS", default: "5", .input, "give up on an input that has not opened by then"),
        RTSPTransportFlag.option,
    ] + DeinterlaceFlags.options
    static let summary = "Describe container, duration and tracks of each input; exit 1 if any failed."

    let inputs: [String]
    let json: Bool
    let timeout: Double
    /// How `play` with the same flags would deinterlace, for what the report says it applies.
    let deinterlacing: Deinterlacing
    let rtspTransport: RTSPTransport

    init(parsing parser: inout ArgumentParser) throws {
        json = parser.flag("--json")
        timeout = try parser.option("--timeout", as: Double.self) ?? 5
        deinterlacing = try DeinterlaceFlags.parse(&parser)
        rtspTransport = try RTSPTransportFlag.parse(&parser)
        inputs = try parser.positional()
        guard !inputs.isEmpty else { throw UsageError("info needs at least one file or URL") }
        guard timeout > 0 else { throw UsageError("--timeout must be positive") }
    }

    func run() async -> Int32 {
        var reports: [InfoReport] = []
        for input in inputs {
            let report = await InfoReport.probe(input, timeout: timeout, rtspTransport: rtspTransport,
                                                  deinterlacing: deinterlacing)
            if let error = report.error { Diagnostics.error(error) }
            if !json, report.error == nil { print(report.table) }
            reports.append(report)
        }
        if json { print(InfoReport.json(reports)) }
        return reports.contains { $0.error != nil } ? 1 : 0
    }
}
