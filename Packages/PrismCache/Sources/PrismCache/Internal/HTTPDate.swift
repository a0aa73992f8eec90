/// HTTP dates (RFC 9110 §5.6.7): formats the IMF-fixdate form, parses it and the two obsolete forms.
///
/// Pure arithmetic on seconds since 1970 in UTC, so that it is fast, thread-safe and independent of
/// the machine's locale and time zone. The one implementation Prism has: PrismHTTP reads
/// `Retry-After` dates with it and the test server writes and reads `Last-Modified` with it
/// (`@_spi(PrismInternals)`: not a stable API).
@_spi(PrismInternals)
public enum HTTPDate {
    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for `seconds` since 1970-01-01T00:00:00Z.
    public static func format(_ seconds: Int64) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = Int(seconds - days * 86_400)
        let (year, month, day) = civil(fromDays: days)
        // 1970-01-01 was a Thursday.
        let weekday = Int(((days % 7) + 11) % 7)
        return "\(weekdays[weekday]), \(pad(day)) \(months[month - 1]) \(year) "
            + "\(pad(secondOfDay / 3600)):\(pad(secondOfDay / 60 % 60)):\(pad(secondOfDay % 60)) GMT"
    }

    /// Seconds since 1970 for an IMF-fixdate, RFC 850 or asctime date; nil when `string` is none of them.
    public static func parse(_ string: String) -> Int64? {
        let words = string.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
        if words.count == 6, words[5] == "GMT", let day = Int(words[1]), let year = Int(words[3]) {
            return make(year: year, monthName: words[2], day: day, time: words[4])
        }
        // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
        if words.count == 4, words[3] == "GMT" {
            let parts = words[1].split(separator: "-").map(String.init)
            if parts.count == 3, let day = Int(parts[0]), let shortYear = Int(parts[2]) {
                let year = shortYear < 70 ? 2000 + shortYear : (shortYear < 100 ? 1900 + shortYear : shortYear)
                return make(year: year, monthName: parts[1], day: day, time: words[2])
            }
        }
        // asctime: Sun Nov  6 08:49:37 1994
        if words.count == 5, let day = Int(words[2]), let year = Int(words[4]) {
            return make(year: year, monthName: words[1], day: day, time: words[3])
        }
        return nil
    }

    private static func make(year: Int, monthName: String, day: Int, time: String) -> Int64? {
        guard let monthIndex = months.firstIndex(of: monthName), (1...31).contains(day) else { return nil }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0..<24).contains(clock[0]), (0..<60).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let days = daysFromCivil(year: year, month: monthIndex + 1, day: day)
        return days * 86_400 + Int64(clock[0] * 3600 + clock[1] * 60 + clock[2])
    }

    private static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
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
