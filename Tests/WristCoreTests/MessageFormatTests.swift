import Testing
import TextFormat

/// NumberText.format: the printf subset the descriptions use.
@Suite struct MessageFormatTests {
    @Test func conversions() {
        #expect(NumberText.format("no numbers") == "no numbers")
        #expect(NumberText.format("%d and %d", 42, -7) == "42 and -7")
        #expect(NumberText.format("0x%x 0x%X 0x%02X", 0xAB, 0xAB, 0x5) == "0xab 0xAB 0x05")
        #expect(NumberText.format("%04d-%02d-%02dT%02d:%02d:%02d", 2026, 1, 2, 3, 4, 5) == "2026-01-02T03:04:05")
        #expect(NumberText.format("%04d|%02d", -5, 123) == "-0005|123")
        #expect(NumberText.format("%012X", 0xABC) == "000000000ABC")
        #expect(NumberText.format("100%% %d", 1) == "100% 1")
        #expect(NumberText.format("%d", Int64.min) == "-9223372036854775808")
        #expect(NumberText.format("%d", Int64(UInt32.max)) == "4294967295")
        #expect(NumberText.format("é %d ü", 3) == "é 3 ü")
    }

    /// What each number conversion printed before it was NumberText.format.
    @Test(arguments: [0, 1, 9, 10, 15, 16, 255, 4095, 65535])
    func asInterpolationPrinted(_ v: Int) {
        #expect(NumberText.format("%d", Int64(v)) == "\(v)")
        #expect(NumberText.format("%x", Int64(v)) == String(v, radix: 16))
        let upper = String(v, radix: 16, uppercase: true)
        #expect(NumberText.format("%04X", Int64(v)) == String(repeating: "0", count: max(0, 4 - upper.count)) + upper)
    }
}
