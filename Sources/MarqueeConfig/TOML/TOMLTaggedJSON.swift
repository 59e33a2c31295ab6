import MarqueeCore

/// The JSON form of the toml-test suite: every scalar becomes
/// `{"type": "integer", "value": "42"}`, tables become objects and arrays
/// arrays. Used by `toml-decoder` and tests.
public enum TOMLTaggedJSON {
    public static func encode(_ table: TOMLTable) -> String {
        var output = ""
        write(table, to: &output)
        return output
    }

    private static func write(_ table: TOMLTable, to output: inout String) {
        output += "{"
        for (index, entry) in table.entries.enumerated() {
            if index > 0 { output += "," }
            output += JSONString.quoted(entry.key) + ":"
            write(entry.value, to: &output)
        }
        output += "}"
    }

    private static func write(_ value: TOMLValue, to output: inout String) {
        switch value.kind {
        case .table(let table):
            write(table, to: &output)
        case .array(let elements):
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                write(element, to: &output)
            }
            output += "]"
        case .string(let text): output += tagged("string", text)
        case .integer(let number): output += tagged("integer", String(number))
        case .float(let number): output += tagged("float", floatText(number))
        case .boolean(let flag): output += tagged("bool", flag ? "true" : "false")
        case .dateTime(let date, let time, let offset?):
            output += tagged("datetime", "\(date)T\(time)\(offsetText(offset))")
        case .dateTime(let date, let time, nil): output += tagged("datetime-local", "\(date)T\(time)")
        case .date(let date): output += tagged("date-local", date.description)
        case .time(let time): output += tagged("time-local", time.description)
        }
    }

    private static func tagged(_ type: String, _ value: String) -> String {
        "{\"type\":\"\(type)\",\"value\":\(JSONString.quoted(value))}"
    }

    static func floatText(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-inf" : "inf" }
        return "\(number)"
    }

    static func offsetText(_ minutes: Int) -> String {
        if minutes == 0 { return "Z" }
        let magnitude = abs(minutes)
        return (minutes < 0 ? "-" : "+") + pad(magnitude / 60, 2) + ":" + pad(magnitude % 60, 2)
    }
}
