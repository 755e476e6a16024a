/// Decimal text as AMS sends it ("1", "0.5", "32.456", "-1.0"), parsed by
/// hand into a fixed-point integer: no Double, no String, no allocation.
enum DecimalText {
    /// More integer digits than this is garbage, not a time or a rate
    /// (10^15 thousandths is 30 000 years).
    static let maximumIntegerDigits = 12

    /// The value of `text` times 10^`scale`, rounded half away from zero
    /// on the first dropped digit. Surrounding spaces are ignored; empty
    /// text is nil (AMS sends empty fields when it has nothing to say).
    static func parse(
        _ text: UnsafeRawBufferPointer, scale: Int, field: AMSValueField
    ) throws(AMSParseError) -> Int64? {
        var start = 0
        var end = text.count
        while start < end && text[start] == 0x20 { start += 1 }
        while end > start && text[end - 1] == 0x20 { end -= 1 }
        if start == end { return nil }
        var i = start
        var negative = false
        if text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+") {
            negative = text[i] == UInt8(ascii: "-")
            i += 1
        }
        var value: Int64 = 0
        var integerDigits = 0
        while i < end, let d = digit(text[i]) {
            if value == 0 && d == 0 {
                // Leading zeros add no magnitude.
            } else {
                integerDigits += 1
                if integerDigits > maximumIntegerDigits { throw .numberTooLong(field: field) }
            }
            value = value * 10 + Int64(d)
            i += 1
        }
        var sawDigit = i > start + (negative || text[start] == UInt8(ascii: "+") ? 1 : 0)
        var fractionDigits = 0
        var roundUp = false
        if i < end && text[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, let d = digit(text[i]) {
                sawDigit = true
                if fractionDigits < scale {
                    value = value * 10 + Int64(d)
                    fractionDigits += 1
                } else if fractionDigits == scale {
                    roundUp = d >= 5
                    fractionDigits += 1
                }
                i += 1
            }
        }
        guard sawDigit, i == end else { throw .notANumber(field: field) }
        for _ in min(fractionDigits, scale)..<scale { value *= 10 }
        if roundUp { value += 1 }
        return negative ? -value : value
    }

    @inline(__always)
    static func digit(_ c: UInt8) -> UInt8? {
        c >= 0x30 && c <= 0x39 ? c - 0x30 : nil
    }
}
