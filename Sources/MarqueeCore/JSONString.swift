/// JSON text for a string, for the JSON this project writes by hand (control
/// replies, status events, toml-decoder's output, TOML strings, whose
/// escapes are the same).
public enum JSONString {
    /// A JSON string literal with quotes, backslashes and control characters
    /// escaped; U+2028 and U+2029 too, which end a line in JavaScript.
    public static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                let digits = String(scalar.value, radix: 16)
                output += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output + "\""
    }
}
