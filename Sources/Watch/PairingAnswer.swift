/// How a numeric-comparison pairing request was answered.
public enum PairingAnswer: Sendable, Equatable {
    /// The positive button: the passkeys match.
    case confirmed
    /// The negative button, or a newer request replaced this one.
    case rejected
    /// Nobody answered within `WatchSettings.pairingTimeout`.
    case timedOut

    /// What the pairing agent is told.
    public var accepts: Bool { self == .confirmed }
}

