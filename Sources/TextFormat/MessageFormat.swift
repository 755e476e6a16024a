/// Messages with numbers in them (error descriptions, decoded records),
/// filled in printf-style by one function: each `"\(n)"` interpolation
/// compiles to a run of appends of its own, a few hundred bytes a message in
/// the Embedded daemon, where a call of this is a few instructions.
extension NumberText {
    /// `template` with its conversions replaced by the values, in order:
    /// "%d" decimal, "%x" / "%X" hex in lower / upper case, each with an
    /// optional width the digits are zero-padded to ("%02X", "%04d"; a minus
    /// sign goes before the padded digits); "%%" is a "%". Int64, so a
    /// UInt32 (a notification UID) fits on 32-bit ARM too.
    public static func format(
        _ template: StaticString, _ v0: Int64 = 0, _ v1: Int64 = 0, _ v2: Int64 = 0, _ v3: Int64 = 0, _ v4: Int64 = 0, _ v5: Int64 = 0
    ) -> String {
        let t = UnsafeBufferPointer(start: template.utf8Start, count: template.utf8CodeUnitCount)
        var out: [UInt8] = []
        out.reserveCapacity(t.count + 16)
        var i = 0
        var next = 0
        while i < t.count {
            let byte = t[i]
            i += 1
            guard byte == UInt8(ascii: "%"), i < t.count else { out.append(byte); continue }
            if t[i] == UInt8(ascii: "%") { out.append(byte); i += 1; continue }
            var width = 0
            while i < t.count, t[i] &- UInt8(ascii: "0") < 10 { width = width * 10 + Int(t[i] &- UInt8(ascii: "0")); i += 1 }
            guard i < t.count else { break }
            let conversion = t[i]
            i += 1
            let v = next == 0 ? v0 : next == 1 ? v1 : next == 2 ? v2 : next == 3 ? v3 : next == 4 ? v4 : v5
            next += 1
            if v < 0 { out.append(UInt8(ascii: "-")) }
            let hex = conversion == UInt8(ascii: "x") || conversion == UInt8(ascii: "X")
            let digits = String(v.magnitude, radix: hex ? 16 : 10, uppercase: conversion == UInt8(ascii: "X")).utf8
            if digits.count < width { out.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count)) }
            out.append(contentsOf: digits)
        }
        return String(decoding: out, as: UTF8.self)
    }
}
