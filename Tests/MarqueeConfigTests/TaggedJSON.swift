import Foundation

/// toml-test's comparison of tagged JSON: same structure and types; floats
/// equal as numbers (nan equals nan); date-times equal when written alike
/// up to `T` or space, `Z` or `+00:00`, and trailing zeros in the fraction; everything else equal as text.
enum TaggedJSON {
    static func equal(_ expected: Any, _ actual: Any) -> Bool {
        switch (expected, actual) {
        case (let want as [String: Any], let have as [String: Any]):
            if let type = want["type"] as? String, let value = want["value"] as? String, want.count == 2 {
                guard let haveType = have["type"] as? String, let haveValue = have["value"] as? String, have.count == 2 else { return false }
                return type == haveType && scalarsEqual(type: type, value, haveValue)
            }
            return Set(want.keys) == Set(have.keys) && want.allSatisfy { key, value in equal(value, have[key]!) }
        case (let want as [Any], let have as [Any]):
            return want.count == have.count && zip(want, have).allSatisfy(equal)
        default:
            return false
        }
    }

    static func scalarsEqual(type: String, _ a: String, _ b: String) -> Bool {
        switch type {
        case "float":
            guard let x = number(a), let y = number(b) else { return false }
            return (x.isNaN && y.isNaN) || x == y
        case "integer":
            return Int64(a) != nil && Int64(a) == Int64(b)
        case "datetime", "datetime-local", "date-local", "time-local":
            return normalizedDateTime(a) == normalizedDateTime(b)
        default:
            return a == b
        }
    }

    static func number(_ text: String) -> Double? {
        switch text {
        case "inf", "+inf": .infinity
        case "-inf": -.infinity
        case "nan", "+nan", "-nan": .nan
        default: Double(text)
        }
    }

    /// One spelling per value: `T`, `Z` for a zero offset, the fraction
    /// without trailing zeros. (The decoder keeps offsets as written, so
    /// comparing instants across offsets is not needed.)
    static func normalizedDateTime(_ text: String) -> String {
        var value = text.uppercased().replacingOccurrences(of: " ", with: "T")
        if value.hasSuffix("+00:00") || value.hasSuffix("-00:00") { value = String(value.dropLast(6)) + "Z" }
        guard let dot = value.firstIndex(of: ".") else { return value }
        let digitsEnd = value[dot...].dropFirst().firstIndex { !$0.isNumber } ?? value.endIndex
        var fraction = String(value[value.index(after: dot)..<digitsEnd])
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let rest = String(value[digitsEnd...])
        return String(value[..<dot]) + (fraction.isEmpty ? "" : "." + fraction) + rest
    }
}
