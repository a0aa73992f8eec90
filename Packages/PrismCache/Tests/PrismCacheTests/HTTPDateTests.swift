@_spi(PrismInternals) import PrismCache
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

    @Test("The obsolete RFC 850 and asctime forms parse too")
    func obsoleteForms() {
        #expect(HTTPDate.parse("Sunday, 06-Nov-94 08:49:37 GMT") == 784_111_777)
        #expect(HTTPDate.parse("Sun Nov  6 08:49:37 1994") == 784_111_777)
    }

    @Test(
        "Text that is not an HTTP date does not parse",
        arguments: ["", "yesterday", "Sun, 06 Nov 1994 25:49:37 GMT", "Sun, 06 Foo 1994 08:49:37 GMT"])
    func invalid(text: String) {
        #expect(HTTPDate.parse(text) == nil)
    }
}
