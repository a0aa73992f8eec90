import PrismSupport
import Testing

@Suite("HTTP dates")
struct HTTPDateTests {
    @Test(
        "Seconds since 1970 format as IMF-fixdate",
        arguments: [
            (Int64(0), "Thu, 01 Jan 1970 00:00:00 GMT"),
            (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
            (1_704_067_200, "Mon, 01 Jan 2024 00:00:00 GMT"),
            (1_709_251_199, "Thu, 29 Feb 2024 23:59:59 GMT"),
            (4_102_444_800, "Fri, 01 Jan 2100 00:00:00 GMT"),
        ])
    func format(seconds: Int64, text: String) {
        #expect(HTTPDate.format(seconds) == text)
        #expect(HTTPDate.parse(text) == seconds)
    }

    @Test("Seconds since 1970 format as ISO 8601 in UTC, before 1970 too")
    func iso8601() {
        #expect(HTTPDate.formatISO8601(784_111_777) == "1994-11-06T08:49:37Z")
        #expect(HTTPDate.formatISO8601(1_709_251_199) == "2024-02-29T23:59:59Z")
        #expect(HTTPDate.formatISO8601(-1) == "1969-12-31T23:59:59Z")
    }

    @Test("The obsolete RFC 850 and asctime forms parse too")
    func obsoleteForms() {
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
    }

    @Test("Weekday, month and GMT read in any case; a two-digit RFC 850 year is never over 50 years ahead")
    func lenientWhereHarmless() {
        let expected = HTTPDate.parse("Thu, 18 Aug 2050 02:01:18 GMT")
        #expect(expected != nil)
        for text in [
            "THU, 18 Aug 2050 02:01:18 GMT", "Thu, 18 AUG 2050 02:01:18 GMT", "Thu, 18 Aug 2050 02:01:18 gMT",
            "Thursday, 18-Aug-50 02:01:18 GMT", "thursday, 18-aug-50 02:01:18 gmt",
        ] {
            #expect(HTTPDate.parse(text) == expected, "\(text)")
        }
        #expect(HTTPDate.parse("Thu Aug 18 02:01:18 2050") == expected)
        // 99 would be 2099, more than 50 years ahead: 1999.
        #expect(HTTPDate.parse("Friday, 31-Dec-99 23:59:59 GMT") == 946_684_799)
    }

    @Test(
        "Text that is not an HTTP date does not parse, however close",
        arguments: [
            "", "yesterday", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT",
            "Thu, 18 Aug 2050 02:01:18 UTC", "Thu, 18 Aug 2050 02:01:18 AEST", "Thu, 18 Aug 50 02:01:18 GMT",
            "Thu 18 Aug 2050 02:01:18 GMT", "Thu, 18  Aug  2050 02:01:18 GMT", "Thu, 18-Aug-2050 02:01:18 GMT",
            "Thu, 18 Aug 2050 02.01.18 GMT", "Thu, 18 Aug 2050 2:01:18 GMT", "Thu, 8 Aug 2050 02:01:18 GMT",
            " Thu, 18 Aug 2050 02:01:18 GMT", "Thu, 18 Aug 2050 02:01:18 GMT ", "Thx, 18 Aug 2050 02:01:18 GMT",
            "Thu, 18 Aug 2050 02:60:18 GMT", "Thu, 32 Aug 2050 02:01:18 GMT", "Thu Aug 8 02:01:18 2050",
            "Thu Aug  8 02:01:18 50", "Thurs, 18-Aug-50 02:01:18 GMT", "Thursday, 18-Aug-2050 02:01:18 GMT",
            "Thursday, 18 Aug 50 02:01:18 GMT", "Thu, +8 Aug 2050 02:01:18 GMT",
            // Days the month does not have (found by make fuzz: they were read as a day of the next month).
            "Mon, 29 Feb 2100 12:00:00 GMT", "Thu, 31 Apr 2050 02:01:18 GMT", "Mon, 30 Feb 2024 00:00:00 GMT",
            "Sun Feb 29 08:49:37 1900",
        ])
    func invalid(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }

    // Found by `make fuzz` (http-date): format wrote years before 1000 with fewer than four digits
    // and years past 9999 with five, which parse (rightly) refuses, and trapped on Int64.min.
    @Test("Every second formats as an IMF-fixdate with a four-digit year that parses back; others as the nearest end")
    func formatsEveryYearWithFourDigits() {
        #expect(HTTPDate.format(-50_195_816_544) == "Fri, 11 May 0379 21:37:36 GMT")
        #expect(HTTPDate.parse("Fri, 11 May 0379 21:37:36 GMT") == -50_195_816_544)
        #expect(HTTPDate.format(HTTPDate.representable.lowerBound) == "Sat, 01 Jan 0000 00:00:00 GMT")
        #expect(HTTPDate.format(HTTPDate.representable.upperBound) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.format(.max) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDate.format(.min) == "Sat, 01 Jan 0000 00:00:00 GMT")
        #expect(HTTPDate.formatISO8601(-50_195_816_544) == "0379-05-11T21:37:36Z")
        for seconds in stride(
            from: HTTPDate.representable.lowerBound, to: HTTPDate.representable.upperBound, by: 86_399 * 997)
        {
            #expect(HTTPDate.parse(HTTPDate.format(seconds)) == seconds, "\(HTTPDate.format(seconds))")
        }
    }

    @Test(
        "A leap day is read in leap years only; a leap second is the next second, but on the last day an HTTP date can say"
    )
    func leapDaysAndSeconds() {
        #expect(HTTPDate.parse("Tue, 29 Feb 2000 00:00:00 GMT") == 951_782_400)
        #expect(HTTPDate.parse("Thu, 29 Feb 2024 00:00:00 GMT") == 1_709_164_800)
        #expect(HTTPDate.parse("Sat, 31 Dec 2016 23:59:60 GMT") == 1_483_228_800)
        #expect(HTTPDate.parse("Fri, 31 Dec 9999 23:59:60 GMT") == HTTPDate.representable.upperBound)
    }
}
