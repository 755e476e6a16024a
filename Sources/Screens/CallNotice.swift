/// A line the call screen shows in place of its "Incoming call" heading
/// when the phone refused the wearer's answer (ANCS 0xA3, or the write
/// failed): the call stays on screen and its buttons still act.
public enum CallNotice: Sendable, Equatable {
    case couldNotAnswer
    case couldNotDecline

    /// What the panel shows.
    public var text: StaticString {
        switch self {
        case .couldNotAnswer: "Could not answer"
        case .couldNotDecline: "Could not decline"
        }
    }
}
