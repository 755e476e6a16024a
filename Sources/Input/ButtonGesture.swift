/// What a person did with one button.
public enum ButtonGesture: Sendable, Equatable, CustomStringConvertible {
    /// Pressed and released, shorter than a long press (and, when the button
    /// recognises double presses, not followed by a second press in time).
    case press
    /// Held for the long-press time; reported while still held, once.
    case longPress
    /// Two presses, the second starting inside the double-press window.
    case doublePress

    /// The case name, as the logs show it.
    public var description: String {
        switch self {
        case .press: "press"
        case .longPress: "longPress"
        case .doublePress: "doublePress"
        }
    }
}
