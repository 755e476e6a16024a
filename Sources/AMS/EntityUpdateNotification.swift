/// One Entity Update notification: EntityID, AttributeID, EntityUpdateFlags,
/// then the value (UTF-8, possibly cut to fit the notification; the rest of
/// the PDU). The value points into the caller's bytes: valid only while
/// they are. Unknown entity and attribute IDs are kept (a newer phone may
/// send them; the client ignores what it does not know).
public struct EntityUpdateNotification {
    public static let headerCount = 3

    public var entityIDRaw: UInt8
    public var attributeIDRaw: UInt8
    public var flags: EntityUpdateFlags
    public var value: UnsafeRawBufferPointer

    /// Decodes at least 3 bytes; an empty value is valid (the attribute is empty).
    public init(parsing bytes: UnsafeRawBufferPointer) throws(AMSParseError) {
        guard bytes.count >= Self.headerCount else { throw .entityUpdateTooShort(bytes.count) }
        entityIDRaw = bytes[0]
        attributeIDRaw = bytes[1]
        flags = EntityUpdateFlags(rawValue: bytes[2])
        value = UnsafeRawBufferPointer(rebasing: bytes[Self.headerCount...])
    }

    /// The entity, nil for an ID the specification does not define.
    public var entityID: EntityID? { EntityID(rawValue: entityIDRaw) }
    public var isTruncated: Bool { flags.contains(.truncated) }

    /// Writes the wire form (the phone's side: simulator, tests): header and
    /// as much of `value` as fits in `buffer`, with the truncated flag set
    /// when it did not all fit. Returns the byte count, nil if not even the
    /// header fits.
    public static func encode(
        entity: UInt8, attribute: UInt8, flags: EntityUpdateFlags = [], value: UnsafeRawBufferPointer,
        into buffer: UnsafeMutableRawBufferPointer
    ) -> Int? {
        guard buffer.count >= headerCount else { return nil }
        let n = min(value.count, buffer.count - headerCount)
        var f = flags
        if n < value.count { f.insert(.truncated) }
        buffer[0] = entity
        buffer[1] = attribute
        buffer[2] = f.rawValue
        for i in 0..<n { buffer[headerCount + i] = value[i] }
        return headerCount + n
    }
}
