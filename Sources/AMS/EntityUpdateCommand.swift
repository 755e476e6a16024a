/// The Entity Update registration written by the watch: EntityID followed
/// by the AttributeIDs it wants notified. Writing it again for the same
/// entity replaces the earlier registration.
///
/// The spec's example, Track with artist, album, title and duration:
/// `02 00 01 02 03`.
public enum EntityUpdateCommand {
    /// Player: name, playback info, volume.
    public static let playerAttributes: [UInt8] = PlayerAttributeID.allCases.map { $0.rawValue }
    /// Track: artist, album, title, duration.
    public static let trackAttributes: [UInt8] = TrackAttributeID.allCases.map { $0.rawValue }

    /// Writes EntityID and the attribute IDs into `buffer`; nil when it
    /// does not fit, or when there are no attributes (the phone answers an
    /// empty registration with Invalid Command).
    public static func encode(
        entity: EntityID, attributes: UnsafeRawBufferPointer, into buffer: UnsafeMutableRawBufferPointer
    ) -> Int? {
        guard !attributes.isEmpty, buffer.count >= 1 + attributes.count else { return nil }
        buffer[0] = entity.rawValue
        for i in 0..<attributes.count { buffer[1 + i] = attributes[i] }
        return 1 + attributes.count
    }

    /// The wire form (allocates; for set-up, tests and tools).
    public static func bytes(entity: EntityID, attributes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 1 + attributes.count)
        let n = out.withUnsafeMutableBytes { buf in
            attributes.withUnsafeBytes { encode(entity: entity, attributes: $0, into: buf) }
        }
        return n == nil ? [] : out
    }

    /// The registration for the Player entity's attributes the watch shows.
    public static var player: [UInt8] { bytes(entity: .player, attributes: playerAttributes) }
    /// The registration for the Track entity's attributes the watch shows.
    public static var track: [UInt8] { bytes(entity: .track, attributes: trackAttributes) }
}
