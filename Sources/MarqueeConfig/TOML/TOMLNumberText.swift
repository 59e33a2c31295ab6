/// TOML integers and floats from their text: decimal with `_` between
/// digits, `0x`/`0o`/`0b` integers, exponents, `inf` and `nan`.
enum TOMLNumberText {
    static func parse(_ token: [Unicode.Scalar]) throws(TOMLTokenError) -> TOMLValue.Kind {
        var body = token[...]
        var negative = false
        let signed = body.first == "+" || body.first == "-"
        if signed { negative = body.removeFirst() == "-" }
        let text = String(String.UnicodeScalarView(body))
        switch text {
        case "inf": return .float(negative ? -.infinity : .infinity)
        case "nan": return .float(negative ? -.nan : .nan)
        default: break
        }
        if let radix = prefixedRadix(body) {
            guard !signed else { throw TOMLTokenError(reason: "a hexadecimal, octal or binary integer cannot have a sign") }
            let digits = try checkedDigits(body.dropFirst(2), radix: radix)
            guard let value = Int64(digits, radix: radix) else { throw TOMLTokenError(reason: "out of the 64-bit integer range") }
            return .integer(value)
        }
        guard let split = body.firstIndex(where: { $0 == "." || $0 == "e" || $0 == "E" }) else {
            let digits = try checkedDecimal(body)
            guard let value = Int64((negative ? "-" : "") + digits) else {
                throw TOMLTokenError(reason: "out of the 64-bit integer range")
            }
            return .integer(value)
        }
        var normalized = (negative ? "-" : "") + (try checkedDecimal(body[..<split]))
        var rest = body[split...]
        if rest.first == "." {
            rest.removeFirst()
            let end = rest.firstIndex { $0 == "e" || $0 == "E" } ?? rest.endIndex
            normalized += "." + (try checkedDigits(rest[..<end], radix: 10))
            rest = rest[end...]
        }
        if !rest.isEmpty {
            rest.removeFirst()  // e or E
            var exponentSign = ""
            if rest.first == "+" || rest.first == "-" { exponentSign = String(rest.removeFirst()) }
            normalized += "e" + exponentSign + (try checkedDigits(rest, radix: 10))
        }
        guard let value = Double(normalized) else { throw TOMLTokenError(reason: "not a number") }
        return .float(value)
    }

    private static func prefixedRadix(_ body: ArraySlice<Unicode.Scalar>) -> Int? {
        guard body.count >= 2, body.first == "0" else { return nil }
        switch body[body.startIndex + 1] {
        case "x": return 16
        case "o": return 8
        case "b": return 2
        default: return nil
        }
    }

    /// A decimal integer part: digits, no leading zero unless it is just "0".
    private static func checkedDecimal(_ scalars: ArraySlice<Unicode.Scalar>) throws(TOMLTokenError) -> String {
        let digits = try checkedDigits(scalars, radix: 10)
        if digits.count > 1, digits.hasPrefix("0") { throw TOMLTokenError(reason: "leading zeros are not allowed") }
        return digits
    }

    /// Digits of `radix`, each `_` between two digits; returns them without the `_`.
    private static func checkedDigits(_ scalars: ArraySlice<Unicode.Scalar>, radix: Int) throws(TOMLTokenError) -> String {
        guard !scalars.isEmpty else { throw TOMLTokenError(reason: "digits expected") }
        var digits = String.UnicodeScalarView()
        var previousWasDigit = false
        for scalar in scalars {
            if scalar == "_" {
                guard previousWasDigit else { throw TOMLTokenError(reason: "'_' must be between digits") }
                previousWasDigit = false
                continue
            }
            let valid = switch radix {
            case 16: scalar.isASCIIHexDigit
            case 8: ("0"..."7").contains(scalar)
            case 2: scalar == "0" || scalar == "1"
            default: scalar.isASCIIDigit
            }
            guard valid else { throw TOMLTokenError(reason: "unexpected '\(scalar)'") }
            digits.append(scalar)
            previousWasDigit = true
        }
        guard previousWasDigit else { throw TOMLTokenError(reason: "'_' must be between digits") }
        return String(digits)
    }
}
