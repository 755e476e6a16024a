/// What a person did with one button.
public enum ButtonGesture: Sendable, Equatable {
    /// Pressed and released, shorter than a long press (and, when the button
    /// recognises double presses, not followed by a second press in time).
    case press
    /// Held for the long-press time; reported while still held, once.
    case longPress
    /// Two presses, the second starting inside the double-press window.
    case doublePress
}
