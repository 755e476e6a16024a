/// printf-style number text without Foundation's `String(format:)`: the
/// few shapes the demo and the CLI print.
public enum NumberText {
    /// `n` in decimal, zero-padded on the left to `width` ("%04d").
    public static func zeroPadded(_ n: Int, width: Int) -> String {
        let digits = String(n.magnitude)
        let pad = String(repeating: "0", count: max(0, width - digits.count - (n < 0 ? 1 : 0)))
        return (n < 0 ? "-" : "") + pad + digits
    }

    /// `x` rounded to `fractionDigits` decimals, space-padded on the left to
    /// `width` ("%5.1f"); halves round away from zero.
    public static func fixed(_ x: Double, fractionDigits: Int, width: Int = 0) -> String {
        var text: String
        if !x.isFinite {
            text = x.isNaN ? "nan" : (x < 0 ? "-inf" : "inf")
        } else {
            var scale: Double = 1
            for _ in 0..<fractionDigits { scale *= 10 }
            let scaled = (x.magnitude * scale).rounded(.toNearestOrAwayFromZero)
            if scaled >= 9.0e18 {
                text = String(x)  // beyond Int64: rare enough to print as Swift does
            } else {
                let units = UInt64(scaled)
                let divisor = UInt64(scale)
                text = String(units / divisor)
                if fractionDigits > 0 {
                    let fraction = String(units % divisor)
                    text += "." + String(repeating: "0", count: fractionDigits - fraction.count) + fraction
                }
                if x < 0 && units != 0 { text = "-" + text }
            }
        }
        return String(repeating: " ", count: max(0, width - text.count)) + text
    }
}
