/// A media string (artist, title, player name) in fixed storage: UTF-8,
/// at most `capacity` bytes, cut on a character boundary when longer.
/// Updating it never allocates.
public struct MediaText: Sendable, Equatable {
    public static let capacity = 128

    private var storage = InlineArray<128, UInt8>(repeating: 0)
    public private(set) var count = 0
    /// The phone sent more than fits (or flagged it truncated and the full
    /// value has not arrived yet).
    public var isTruncated = false

    public init() {}

    public init(_ text: String) {
        var copy = text
        copy.withUTF8 { set(UnsafeRawBufferPointer($0)) }
    }

    public var isEmpty: Bool { count == 0 }

    /// Replaces the text with `bytes` (UTF-8 from the phone). Bytes past the
    /// capacity are dropped on a UTF-8 boundary and mark the text truncated.
    public mutating func set(_ bytes: UnsafeRawBufferPointer) {
        var n = min(bytes.count, Self.capacity)
        if n < bytes.count {
            // Back off continuation bytes so no character is cut in half.
            while n > 0 && bytes[n] & 0xC0 == 0x80 { n -= 1 }
        }
        for i in 0..<n { storage[i] = bytes[i] }
        count = n
        isTruncated = n < bytes.count
    }

    public mutating func clear() {
        count = 0
        isTruncated = false
    }

    /// The UTF-8 bytes, valid for the closure's duration.
    public func withUTF8<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try withUnsafeBytes(of: storage) { try body(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
    }

    /// A copy as a String (allocates: for logs, tests and the harness).
    public var string: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    public static func == (a: MediaText, b: MediaText) -> Bool {
        a.count == b.count && a.isTruncated == b.isTruncated
            && a.withUTF8 { x in b.withUTF8 { y in x.elementsEqual(y) } }
    }
}
