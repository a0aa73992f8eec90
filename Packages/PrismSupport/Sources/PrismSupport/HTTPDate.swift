#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// HTTP dates (RFC 9110 §5.6.7): formats the IMF-fixdate form, parses it and the two obsolete forms.
///
/// Pure arithmetic on seconds since 1970 in UTC, so that it is fast, thread-safe and independent of
/// the machine's locale and time zone. The one implementation Prism has: the cache and PrismHTTP
/// read `Date`, `Expires`, `Last-Modified` and `Retry-After` with it, and the test server writes
/// and reads `Last-Modified` with it.
public enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The seconds an HTTP date can say, whose year has four digits: from 0000-01-01T00:00:00Z to
    /// 9999-12-31T23:59:59Z. ``format(_:)`` writes a time outside as the nearest end; ``parse(_:)``
    /// returns a time inside.
    public static let representable: ClosedRange<Int64> = -62_167_219_200...253_402_300_799

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for `seconds` since 1970-01-01T00:00:00Z (clamped to
    /// ``representable``: the year of an HTTP date has four digits).
    public static func format(_ seconds: Int64) -> String {
        let seconds = min(max(seconds, representable.lowerBound), representable.upperBound)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        // 1970-01-01 was a Thursday.
        let weekday = Int(((days % 7) + 11) % 7)
        return "\(weekdays[weekday]), \(pad(day)) \(months[month - 1]) \(padYear(year)) "
            + "\(pad(secondOfDay / 3600)):\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60)) GMT"
    }

    /// `1994-11-06T08:49:37Z` (ISO 8601, UTC) for `seconds` since 1970-01-01T00:00:00Z: the same
    /// calendar, for a file or a header comment that names when it was written (clamped to
    /// ``representable`` too).
    public static func formatISO8601(_ seconds: Int64) -> String {
        let seconds = min(max(seconds, representable.lowerBound), representable.upperBound)
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        return "\(padYear(year))-\(pad(month))-\(pad(day))T"
            + "\(pad(secondOfDay / 3600)):\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60))Z"
    }

    /// Seconds since 1970 for an IMF-fixdate, RFC 850 or asctime date; nil when `string` is none
    /// of them.
    ///
    /// Each form is read by its exact layout (RFC 9110 §5.6.7), so that a malformed date is
    /// invalid rather than guessed at: single spaces where the grammar has them, a comma after
    /// the weekday (two spaces before a one-digit day in asctime), two-digit day and time fields,
    /// a four-digit year (two in RFC 850), `GMT`. Weekday, month and `GMT` are read in any case.
    /// An RFC 850 year that would be more than 50 years ahead is in the past century. A day the
    /// month does not have (`30 Feb`) makes the date invalid; a leap second (`23:59:60`) is the
    /// second after `23:59:59`, except on 9999-12-31, the last second an HTTP date can say.
    public static func parse(_ string: String) -> Int64? {
        let bytes = Array(string.utf8)
        switch bytes.count {
        case 29:
            // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
            guard weekday(bytes[0..<3], names: weekdays) != nil, bytes[3] == comma, bytes[4] == space,
                let day = number(bytes[5..<7]), bytes[7] == space, let month = month(bytes[8..<11]),
                bytes[11] == space, let year = number(bytes[12..<16]), bytes[16] == space,
                let time = time(bytes[17..<25]), bytes[25] == space, isGMT(bytes[26..<29])
            else { return nil }
            return make(year: year, month: month, day: day, time: time)
        case 24:
            // asctime: Sun Nov  6 08:49:37 1994
            guard weekday(bytes[0..<3], names: weekdays) != nil, bytes[3] == space, let month = month(bytes[4..<7]),
                bytes[7] == space, let day = bytes[8] == space ? number(bytes[9..<10]) : number(bytes[8..<10]),
                bytes[10] == space, let time = time(bytes[11..<19]), bytes[19] == space,
                let year = number(bytes[20..<24])
            else { return nil }
            return make(year: year, month: month, day: day, time: time)
        default:
            // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
            guard let at = bytes.firstIndex(of: comma), weekday(bytes[0..<at], names: longWeekdays) != nil,
                bytes.count == at + 24, bytes[at + 1] == space, let day = number(bytes[(at + 2)..<(at + 4)]),
                bytes[at + 4] == dash, let month = month(bytes[(at + 5)..<(at + 8)]),
                bytes[at + 8] == dash, let shortYear = number(bytes[(at + 9)..<(at + 11)]),
                bytes[at + 11] == space, let time = time(bytes[(at + 12)..<(at + 20)]),
                bytes[at + 20] == space, isGMT(bytes[(at + 21)..<(at + 24)])
            else { return nil }
            return make(year: fullYear(shortYear), month: month, day: day, time: time)
        }
    }

    private static let space = UInt8(ascii: " ")
    private static let comma = UInt8(ascii: ",")
    private static let dash = UInt8(ascii: "-")
    private static let longWeekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]

    /// The year of a two-digit RFC 850 year: this century's, unless that is more than 50 years
    /// ahead (RFC 9110 §5.6.7).
    private static func fullYear(_ shortYear: Int) -> Int {
        let now = Int64(Date().timeIntervalSince1970)
        let currentYear = civil(fromDays: now / 86_400).year
        let year = currentYear - currentYear % 100 + shortYear
        return year > currentYear + 50 ? year - 100 : year
    }

    /// The digits of `bytes` as a number; nil when any is not a digit.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return bytes.isEmpty ? nil : value
    }

    /// Whether `bytes` spell `name`, ASCII letters in any case.
    private static func spells(_ bytes: ArraySlice<UInt8>, _ name: String) -> Bool {
        bytes.count == name.utf8.count && zip(bytes, name.utf8).allSatisfy { $0 | 0x20 == $1 | 0x20 }
    }

    private static func weekday(_ bytes: ArraySlice<UInt8>, names: [String]) -> Int? {
        names.firstIndex { spells(bytes, $0) }
    }

    /// The month (1-12) `bytes` name.
    private static func month(_ bytes: ArraySlice<UInt8>) -> Int? {
        months.firstIndex { spells(bytes, $0) }.map { $0 + 1 }
    }

    private static func isGMT(_ bytes: ArraySlice<UInt8>) -> Bool {
        spells(bytes, "GMT")
    }

    /// `HH:MM:SS`, two digits each, as seconds of the day; nil when out of range.
    private static func time(_ bytes: ArraySlice<UInt8>) -> Int? {
        let start = bytes.startIndex
        guard bytes.count == 8, bytes[start + 2] == UInt8(ascii: ":"), bytes[start + 5] == UInt8(ascii: ":"),
            let hour = number(bytes[start..<(start + 2)]), let minute = number(bytes[(start + 3)..<(start + 5)]),
            let second = number(bytes[(start + 6)..<(start + 8)]), hour < 24, minute < 60, second <= 60
        else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    private static func make(year: Int, month: Int, day: Int, time: Int) -> Int64? {
        guard day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        let seconds = daysFromCivil(year: year, month: month, day: day) * 86_400 + Int64(time)
        return min(seconds, representable.upperBound)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    private static func padYear(_ year: Int) -> String {
        let digits = String(year)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let shiftedYear = Int64(month <= 2 ? year - 1 : year)
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = Int64((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1)
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The proleptic Gregorian date of a day count since 1970-01-01 (Howard Hinnant's algorithm).
    private static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthPrime = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * monthPrime + 2) / 5 + 1)
        let month = Int(monthPrime < 10 ? monthPrime + 3 : monthPrime - 9)
        let year = Int(yearOfEra + era * 400) + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}
