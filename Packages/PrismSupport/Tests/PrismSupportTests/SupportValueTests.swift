import PrismSupport
import Testing

@Suite("Hexadecimal and durations")
struct SupportValueTests {
    @Test("bytes are two lowercase digits each, in order, and nothing is none")
    func hexadecimal() {
        #expect(Hexadecimal.lowercase([0x00, 0x0f, 0xa0, 0xff]) == "000fa0ff")
        #expect(Hexadecimal.lowercase([UInt8]()) == "")
        let every = Hexadecimal.lowercase((0...255).map { UInt8($0) })
        #expect(every.count == 512)
        #expect(every.hasPrefix("000102"))
        #expect(every.hasSuffix("fdfeff"))
    }

    @Test(
        "a duration in nanoseconds saturates instead of trapping",
        arguments: [
            (Duration.seconds(1), Int64(1_000_000_000)),
            (.milliseconds(-1_500), -1_500_000_000),
            (.nanoseconds(7), 7),
            (.zero, 0),
            (.seconds(Int64.max), .max),
            (.seconds(Int64.min), .min),
            (.seconds(9_223_372_036) + .milliseconds(900), .max),
            (.seconds(-9_223_372_036) - .milliseconds(900), .min),
        ])
    func nanoseconds(duration: Duration, nanoseconds: Int64) {
        #expect(DurationMath.nanoseconds(duration) == nanoseconds)
    }

    @Test("a duration in seconds as a Double keeps its fraction and its sign")
    func seconds() {
        #expect(DurationMath.seconds(Duration.milliseconds(1_500)) == 1.5)
        #expect(DurationMath.seconds(Duration.milliseconds(-250)) == -0.25)
        #expect(DurationMath.seconds(Duration.seconds(Int64.max)) == Double(Int64.max))
    }
}
