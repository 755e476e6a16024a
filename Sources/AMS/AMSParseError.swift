/// Why bytes or text from the phone's AMS could not be decoded.
public enum AMSParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An Entity Update notification needs EntityID, AttributeID and flags (3 bytes).
    case entityUpdateTooShort(Int)
    /// A decimal field is not a number.
    case notANumber(field: AMSValueField)
    /// A decimal field has more digits than it can hold.
    case numberTooLong(field: AMSValueField)
    /// The value lies outside what the field allows (a volume above 1.0, a negative duration ...).
    case outOfRange(field: AMSValueField)
    /// PlaybackInfo has more than three comma-separated fields.
    case tooManyFields(Int)
    /// A PlaybackState that the specification does not define.
    case unknownPlaybackState(Int64)

    public var description: String {
        switch self {
        case .entityUpdateTooShort(let n): "Entity Update value has \(n) bytes, expected at least 3"
        case .notANumber(let f): "\(f): not a decimal number"
        case .numberTooLong(let f): "\(f): too many digits"
        case .outOfRange(let f): "\(f): out of range"
        case .tooManyFields(let n): "PlaybackInfo has \(n) fields, expected 3"
        case .unknownPlaybackState(let s): "state: \(s) is not a PlaybackState (0 paused, 1 playing, 2 rewinding, 3 fast forwarding)"
        }
    }
}

/// The decimal fields inside AMS values, named in errors.
public enum AMSValueField: String, Hashable, Sendable, CustomStringConvertible {
    /// PlaybackInfo's PlaybackState.
    case state
    /// PlaybackInfo's PlaybackRate.
    case rate
    /// PlaybackInfo's ElapsedTime.
    case elapsed
    case volume
    case duration

    public var description: String { rawValue }
}
