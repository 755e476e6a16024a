/// Case changed for A-Z only, for words the program knows (commands, flags,
/// panel names, hex prefixes, enum raw values): each word these are compared
/// with is ASCII. `String.lowercased()` / `uppercased()` map all of Unicode,
/// which links the standard library's case-mapping tables into the Embedded
/// daemon (about 15 KB); bytes outside A-Z / a-z are kept as they are.
extension StringProtocol {
    /// A-Z as a-z.
    public func asciiLowercased() -> String { ASCIICase.map(utf8, from: 0x41, to: 0x61) }
    /// a-z as A-Z.
    public func asciiUppercased() -> String { ASCIICase.map(utf8, from: 0x61, to: 0x41) }
}

enum ASCIICase {
    /// The bytes with the 26 letters from `from` ("A" or "a") moved to `to`.
    static func map(_ utf8: some Collection<UInt8>, from: UInt8, to: UInt8) -> String {
        var bytes = Array(utf8)
        for i in bytes.indices where bytes[i] &- from < 26 {
            bytes[i] = bytes[i] &- from &+ to
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
