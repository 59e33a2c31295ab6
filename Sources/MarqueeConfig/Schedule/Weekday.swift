/// A day of the week as `[[schedule]] days` names it.
public enum Weekday: String, Sendable, CaseIterable, Comparable {
    case mon, tue, wed, thu, fri, sat, sun

    /// The weekday of a day counted from 1970-01-01, a Thursday (negative
    /// numbers count back from it).
    public init(dayNumber: Int) {
        self = Self.allCases[(dayNumber + 3).floorModulo(7)]
    }

    public static func < (a: Weekday, b: Weekday) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

extension Int {
    /// The remainder that has the divisor's sign (-1 mod 7 is 6), as calendar arithmetic needs.
    func floorModulo(_ divisor: Int) -> Int {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }

    /// Division rounded toward minus infinity (-1 / 86400 is -1, the day before the epoch).
    func floorDivided(by divisor: Int) -> Int {
        (self - floorModulo(divisor)) / divisor
    }
}
