import Foundation
import OrderedCollections

/// The typed value tree every validated listing is made of. Templates read it (through `MustacheParent`
/// in Rendering) and the JSON encoder writes it, so both see the same data in the same key order.
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case decimal(FixedDecimal)
    case string(String)
    case date(CalendarDate)
    /// HTML produced by the site itself (rendered Markdown); templates insert it unescaped.
    case html(String)
    case list([Value])
    // Boxed: in place its 24 bytes made every value 32 bytes wide; boxed, the widest payload is a string's 16, and a
    // value takes 24 (`ValueLayoutTests`). Most values are scalars; objects are few and often shared.
    indirect case object(OrderedDictionary<String, Value>)

    public subscript(key: String) -> Value? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    public var stringValue: String? {
        switch self {
        case .string(let text), .html(let text): return text
        default: return nil
        }
    }

    public var objectValue: OrderedDictionary<String, Value>? {
        if case .object(let fields) = self { return fields }
        return nil
    }

    public var listValue: [Value]? {
        if case .list(let items) = self { return items }
        return nil
    }

    /// The text a template shows for a scalar; empty for lists, objects and null.
    public var text: String {
        switch self {
        case .null, .list, .object: return ""
        case .bool(let flag): return flag ? "true" : "false"
        case .int(let number): return String(number)
        case .decimal(let number): return number.description
        case .string(let text), .html(let text): return text
        case .date(let date): return date.description
        }
    }
}

/// The largest magnitude of a number a listing may hold or a derived field may compute: 2^53 − 1, the largest
/// whole number that JSON readers such as JavaScript hold exactly. A decimal's count of units (18.50 at scale 2
/// is 1850) has the same limit. Below it no arithmetic on one value can overflow; sums check as they add.
public enum NumberLimit {
    public static let magnitude: Int64 = 9_007_199_254_740_991

    public static func holds(_ number: Int64) -> Bool { number.magnitude <= UInt64(magnitude) }

    /// For messages: "±9007199254740991", and at scale 2 "±90071992547409.91".
    public static func text(scale: Int = 0) -> String {
        "±" + FixedDecimal(units: magnitude, scale: scale).description
    }
}

extension Value {
    /// A schema bound (a Double) as a JSON number: whole numbers as ints, others with up to 6 fraction digits.
    /// Bounds are checked to lie within `NumberLimit` when read, so their units fit.
    public static func number(_ value: Double) -> Value {
        let limit = Double(NumberLimit.magnitude)
        if value == value.rounded(), abs(value) <= limit { return .int(Int64(value)) }
        var scale = 6
        while scale > 0, abs(value) * pow(10, Double(scale)) > limit { scale -= 1 }
        let units = (value * pow(10, Double(scale))).rounded(.toNearestOrAwayFromZero)
        return .decimal(FixedDecimal(units: Int64(max(-limit, min(limit, units))), scale: scale))
    }
}

/// A decimal number held exactly as an integer count of `1/10^scale` units, so 18.50 stays 18.50.
public struct FixedDecimal: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let units: Int64
    public let scale: Int

    public init(units: Int64, scale: Int) {
        self.units = units
        self.scale = scale
    }

    /// Parses `-12`, `12.5`, `+0.125` and rounds half away from zero to `scale` fraction digits.
    /// Returns nil for anything else (exponents, spaces, NaN, and numbers whose units do not fit an Int64;
    /// those past `NumberLimit` are the validator's to refuse).
    public init?(parsing text: Substring, scale: Int) {
        var digits = text.utf8[...]
        var negative = false
        if let sign = digits.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
            negative = sign == UInt8(ascii: "-")
            digits = digits.dropFirst()
        }
        var whole: Int64 = 0
        var fraction: Int64 = 0
        var fractionDigits = 0
        var roundUp = false
        var seenDigit = false
        var seenPoint = false
        for byte in digits {
            if byte == UInt8(ascii: ".") {
                if seenPoint { return nil }
                seenPoint = true
                continue
            }
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let digit = Int64(byte - UInt8(ascii: "0"))
            seenDigit = true
            if !seenPoint {
                guard whole <= (Int64.max - digit) / 10 else { return nil }
                whole = whole * 10 + digit
            } else if fractionDigits < scale {
                fraction = fraction * 10 + digit
                fractionDigits += 1
            } else if fractionDigits == scale {
                roundUp = digit >= 5
                fractionDigits += 1
            }
        }
        guard seenDigit else { return nil }
        for _ in min(fractionDigits, scale)..<scale { fraction *= 10 }
        let (scaled, overflow) = whole.multipliedReportingOverflow(by: FixedDecimal.power(scale))
        let (sum, sumOverflow) = scaled.addingReportingOverflow(fraction + (roundUp ? 1 : 0))
        guard !overflow, !sumOverflow else { return nil }
        let units = negative ? -sum : sum
        self.init(units: units, scale: scale)
    }

    static func power(_ exponent: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    public var doubleValue: Double { Double(units) / Double(FixedDecimal.power(scale)) }

    /// Always `scale` fraction digits: 18.5 with scale 2 is "18.50".
    public var description: String {
        let divisor = FixedDecimal.power(scale)
        let magnitude = units.magnitude
        let whole = magnitude / UInt64(divisor)
        let sign = units < 0 ? "-" : ""
        guard scale > 0 else { return sign + String(whole) }
        let fraction = String(magnitude % UInt64(divisor))
        return sign + String(whole) + "." + String(repeating: "0", count: scale - fraction.count) + fraction
    }

    public static func < (a: FixedDecimal, b: FixedDecimal) -> Bool {
        a.doubleValue < b.doubleValue
    }
}

/// A calendar date (ISO 8601 `YYYY-MM-DD`), with no time zone to drift across.
public struct CalendarDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    // Held in six bytes rather than three `Int`s: a date is one of the values every listing holds (`Value`),
    // and the widest payload decides the size of them all.
    private let storedYear: Int32
    private let storedMonth: UInt8
    private let storedDay: UInt8

    public var year: Int { Int(storedYear) }
    public var month: Int { Int(storedMonth) }
    public var day: Int { Int(storedDay) }

    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...CalendarDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.init(checkedYear: year, month: month, day: day)
    }

    private init(checkedYear year: Int, month: Int, day: Int) {
        storedYear = Int32(year)
        storedMonth = UInt8(month)
        storedDay = UInt8(day)
    }

    /// Accepts exactly `YYYY-MM-DD` naming a real day.
    public init?(parsing text: Substring) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// Days since 1970-01-01 (negative before it), for date arithmetic.
    public var dayNumber: Int {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Any day within about 2 billion years of 1970 (the year is held as an `Int32`).
    public init(dayNumber: Int) {
        // Howard Hinnant's civil_from_days.
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        self.init(checkedYear: yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month: month, day: dayOfYear - (153 * monthIndex + 2) / 5 + 1)
    }

    public func adding(days: Int) -> CalendarDate { CalendarDate(dayNumber: dayNumber + days) }

    /// The day it is in `zone` at `instant`: today, by default, where the site is (`SiteConfig.timeZone`).
    public static func day(in zone: TimeZone, at instant: Date = Date()) -> CalendarDate {
        let seconds = Int(instant.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: instant)
        return CalendarDate(dayNumber: seconds >= 0 ? seconds / 86_400 : (seconds + 1) / 86_400 - 1)
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (a: CalendarDate, b: CalendarDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }
}
