/// Why a Notification Source value could not be decoded.
public enum NotificationSourceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A Notification Source GATT notification is exactly 8 bytes.
    case wrongLength(Int)

    public var description: String {
        switch self {
        case .wrongLength(let n): "Notification Source value has \(n) bytes, expected 8"
        }
    }
}

/// One GATT notification of the Notification Source characteristic:
/// EventID, EventFlags, CategoryID, CategoryCount, NotificationUID (u32 LE).
public struct NotificationSourceEvent: Hashable, Sendable {
    public static let byteCount = 8

    public var eventID: EventID
    public var flags: EventFlags
    public var category: CategoryID
    public var categoryCount: UInt8
    public var uid: NotificationUID

    public init(
        eventID: EventID, flags: EventFlags, category: CategoryID,
        categoryCount: UInt8, uid: NotificationUID
    ) {
        self.eventID = eventID
        self.flags = flags
        self.category = category
        self.categoryCount = categoryCount
        self.uid = uid
    }

    /// Decodes exactly 8 bytes. Reserved EventID / CategoryID values decode to
    /// `.unknown(n)`; reserved flag bits are kept.
    public init(parsing bytes: UnsafeRawBufferPointer) throws(NotificationSourceError) {
        guard bytes.count == Self.byteCount else { throw .wrongLength(bytes.count) }
        eventID = EventID(rawValue: bytes[0])
        flags = EventFlags(rawValue: bytes[1])
        category = CategoryID(rawValue: bytes[2])
        categoryCount = bytes[3]
        uid = NotificationUID(readLE32(bytes, at: 4))
    }

    /// Convenience for tests and tools.
    public init(parsing bytes: [UInt8]) throws(NotificationSourceError) {
        let result = bytes.withUnsafeBytes { raw -> Result<Self, NotificationSourceError> in
            do throws(NotificationSourceError) { return .success(try Self(parsing: raw)) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    /// Writes the 8-byte wire form (the phone's side: simulator, tests).
    /// Returns the number of bytes written (8), or nil if `buffer` is too small.
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard buffer.count >= Self.byteCount else { return nil }
        buffer[0] = eventID.rawValue
        buffer[1] = flags.rawValue
        buffer[2] = category.rawValue
        buffer[3] = categoryCount
        writeLE32(uid.rawValue, to: buffer, at: 4)
        return Self.byteCount
    }

    /// The 8-byte wire form (allocates; for tests and tools).
    public var bytes: [UInt8] {
        var out = [UInt8](repeating: 0, count: Self.byteCount)
        _ = out.withUnsafeMutableBytes { encode(into: $0) }
        return out
    }
}

@inline(__always)
func readLE32(_ b: UnsafeRawBufferPointer, at i: Int) -> UInt32 {
    UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
}

@inline(__always)
func writeLE32(_ v: UInt32, to b: UnsafeMutableRawBufferPointer, at i: Int) {
    b[i] = UInt8(truncatingIfNeeded: v)
    b[i + 1] = UInt8(truncatingIfNeeded: v >> 8)
    b[i + 2] = UInt8(truncatingIfNeeded: v >> 16)
    b[i + 3] = UInt8(truncatingIfNeeded: v >> 24)
}

@inline(__always)
func writeLE16(_ v: UInt16, to b: UnsafeMutableRawBufferPointer, at i: Int) {
    b[i] = UInt8(truncatingIfNeeded: v)
    b[i + 1] = UInt8(truncatingIfNeeded: v >> 8)
}
