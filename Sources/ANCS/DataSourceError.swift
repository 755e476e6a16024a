import TextFormat

/// What went wrong on the Data Source.
public enum DataSourceError: Error, Hashable, Sendable, CustomStringConvertible {
    // Stray data: bytes that do not start the response of the pending request.
    // The pending request is kept (its real answer may still come).
    /// Bytes arrived while no request was pending.
    case unexpectedData(firstByte: UInt8)
    /// The response echoes another command than the pending request's.
    case mismatchedCommand(expected: UInt8, received: UInt8)
    /// The response echoes another NotificationUID.
    case mismatchedUID(expected: NotificationUID, received: NotificationUID)
    /// The response echoes another AppIdentifier.
    case mismatchedAppIdentifier

    // Malformed response: the pending request is dropped.
    /// A Title / Subtitle / Message longer than the max length we sent
    /// (only when `Configuration.truncatesOverlongValues` is off).
    case attributeTooLong(id: UInt8, length: Int, limit: Int)
    /// The same requested attribute twice in one response.
    case duplicateAttribute(id: UInt8)
    /// An attribute we did not ask for, longer than the skip limit.
    case unrequestedAttributeTooLong(id: UInt8, length: Int)

    /// True for stray data (the pending request is still pending).
    public var isStrayData: Bool {
        switch self {
        case .unexpectedData, .mismatchedCommand, .mismatchedUID, .mismatchedAppIdentifier: true
        default: false
        }
    }

    public var description: String {
        switch self {
        case .unexpectedData(let b): NumberText.format("Data Source bytes with no request pending (first byte 0x%x)", Int64(b))
        case .mismatchedCommand(let e, let r): NumberText.format("Data Source response for command %d, expected %d", Int64(r), Int64(e))
        case .mismatchedUID(let e, let r): NumberText.format("Data Source response for UID %d, expected %d", Int64(r.rawValue), Int64(e.rawValue))
        case .mismatchedAppIdentifier: "Data Source response for another AppIdentifier"
        case .attributeTooLong(let id, let len, let limit):
            NumberText.format("attribute %d has %d bytes, max length is %d", Int64(id), Int64(len), Int64(limit))
        case .duplicateAttribute(let id): NumberText.format("attribute %d appears twice in one response", Int64(id))
        case .unrequestedAttributeTooLong(let id, let len): NumberText.format("unrequested attribute %d of %d bytes", Int64(id), Int64(len))
        }
    }
}
