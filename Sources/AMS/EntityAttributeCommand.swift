/// The Entity Attribute write: EntityID, AttributeID. After it the watch
/// reads Entity Attribute for the attribute's whole value (Read Blob past
/// ATT_MTU − 1 bytes). Used for values the Entity Update cut short.
public struct EntityAttributeCommand: Hashable, Sendable {
    public static let byteCount = 2

    public var entityIDRaw: UInt8
    public var attributeIDRaw: UInt8

    public init(entity: UInt8, attribute: UInt8) {
        entityIDRaw = entity
        attributeIDRaw = attribute
    }

    /// Writes the 2 bytes; nil if `buffer` is too small.
    public func encode(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        guard buffer.count >= Self.byteCount else { return nil }
        buffer[0] = entityIDRaw
        buffer[1] = attributeIDRaw
        return Self.byteCount
    }

    /// Decodes exactly 2 bytes (the phone's side); nil otherwise.
    public init?(parsing bytes: UnsafeRawBufferPointer) {
        guard bytes.count == Self.byteCount else { return nil }
        entityIDRaw = bytes[0]
        attributeIDRaw = bytes[1]
    }

    /// The wire form (allocates; for tests and tools).
    public var bytes: [UInt8] { [entityIDRaw, attributeIDRaw] }
}
