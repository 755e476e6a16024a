/// Whole numbers read from text (board files, options, harness and script
/// commands, bond files, /proc): one non-generic routine. The standard
/// library's `Int(text)`, `UInt8(text, radix: 16)`, ... each compile a
/// specialisation of its generic parser per integer type and text type:
/// eleven of them were 8 KB of the Embedded daemon.
///
/// Each reads what the standard library's initialiser of the same type reads:
/// an optional "+" or "-", then one or more digits of `radix` (2...36;
/// letters in either case), nothing else (no spaces); nil otherwise, and nil
/// when the value does not fit.
public enum IntegerText {
    /// `Int(text, radix:)`.
    public static func int(_ text: Substring, radix: Int = 10) -> Int? {
        integer(text, radix: radix, in: Int64(Int.min)...Int64(Int.max)).map { Int($0) }
    }
    public static func int(_ text: String, radix: Int = 10) -> Int? { int(text[...], radix: radix) }

    /// The integer type whose values are `range` (0...255 for `UInt8(text)`):
    /// `UInt8(text)` is `integer(text, in: 0...255).map { UInt8($0) }`.
    public static func integer(_ text: Substring, radix: Int = 10, in range: ClosedRange<Int64>) -> Int64? {
        guard let (negative, magnitude) = parse(text, radix: radix) else { return nil }
        let value: Int64
        if negative {
            guard magnitude <= UInt64(Int64.max) + 1 else { return nil }
            value = 0 &- Int64(truncatingIfNeeded: magnitude)
        } else {
            guard magnitude <= UInt64(Int64.max) else { return nil }
            value = Int64(magnitude)
        }
        return range.contains(value) ? value : nil
    }
    public static func integer(_ text: String, radix: Int = 10, in range: ClosedRange<Int64>) -> Int64? {
        integer(text[...], radix: radix, in: range)
    }

    /// `UInt64(text, radix:)` (the one type `integer(_:in:)` cannot hold).
    public static func uint64(_ text: Substring, radix: Int = 10) -> UInt64? {
        guard let (negative, magnitude) = parse(text, radix: radix), !negative || magnitude == 0 else { return nil }
        return magnitude
    }
    public static func uint64(_ text: String, radix: Int = 10) -> UInt64? { uint64(text[...], radix: radix) }

    /// The sign and the magnitude; nil for no digits, a byte that is not a
    /// digit of `radix`, or a magnitude beyond UInt64.
    static func parse(_ text: Substring, radix: Int) -> (negative: Bool, magnitude: UInt64)? {
        var utf8 = text.utf8[...]
        let negative = utf8.first == UInt8(ascii: "-")
        if negative || utf8.first == UInt8(ascii: "+") { utf8 = utf8.dropFirst() }
        guard !utf8.isEmpty else { return nil }
        var magnitude: UInt64 = 0
        for byte in utf8 {
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte &- UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digit = byte &- UInt8(ascii: "a") &+ 10
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): digit = byte &- UInt8(ascii: "A") &+ 10
            default: return nil
            }
            guard Int(digit) < radix else { return nil }
            let (shifted, o1) = magnitude.multipliedReportingOverflow(by: UInt64(radix))
            let (sum, o2) = shifted.addingReportingOverflow(UInt64(digit))
            guard !o1, !o2 else { return nil }
            magnitude = sum
        }
        return (negative, magnitude)
    }
}
