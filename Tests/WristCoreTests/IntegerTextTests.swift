import Testing
import TextFormat

/// IntegerText reads what the standard library's integer initialisers read
/// (the daemon uses it in their place: one parser, not one per type).
@Suite struct IntegerTextTests {
    static let inputs = [
        "", "0", "-0", "+0", "7", "+7", "-7", "42", "007", "-", "+", "--1", "+-1", " 1", "1 ", "1_000", "0x1F", "1F", "ff", "FF",
        "g", "z", "Z", "255", "256", "-128", "-129", "32767", "65535", "65536", "2147483647", "2147483648", "-2147483648",
        "4294967295", "4294967296", "9223372036854775807", "9223372036854775808", "-9223372036854775808",
        "-9223372036854775809", "18446744073709551615", "18446744073709551616", "ffffffffffffffff", "10000000000000000",
        "１", "é", "1.5", "1e3",
    ]

    @Test(arguments: inputs)
    func readsAsTheStandardLibraryDoes(_ text: String) {
        for radix in [10, 16, 2, 36] {
            #expect(IntegerText.int(text, radix: radix) == Int(text, radix: radix), "Int(\"\(text)\", radix: \(radix))")
            #expect(IntegerText.int(text[...], radix: radix) == Int(text[...], radix: radix))
            #expect(IntegerText.uint64(text, radix: radix) == UInt64(text, radix: radix), "UInt64(\"\(text)\", radix: \(radix))")
            #expect(IntegerText.integer(text, radix: radix, in: .min ... .max) == Int64(text, radix: radix))
            #expect(IntegerText.integer(text, radix: radix, in: 0...255).map { UInt8($0) } == UInt8(text, radix: radix))
            #expect(IntegerText.integer(text, radix: radix, in: -32768...32767).map { Int16($0) } == Int16(text, radix: radix))
            #expect(
                IntegerText.integer(text, radix: radix, in: Int64(Int32.min)...Int64(Int32.max)).map { Int32($0) } == Int32(text, radix: radix))
            #expect(IntegerText.integer(text, radix: radix, in: 0...Int64(UInt32.max)).map { UInt32($0) } == UInt32(text, radix: radix))
        }
    }
}
