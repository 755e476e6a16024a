/// The phone link, as the board's phone link reports it and the status
/// bar shows it (one type for both).
public enum PhoneLinkState: Sendable, Equatable, CustomStringConvertible {
    /// No link possible (Bluetooth stopped, failed or unavailable).
    case off
    /// Waiting for the phone (advertising, or a phone endpoint listening).
    case advertising
    /// Connected, not encrypted yet.
    case connected
    /// Connected and encrypted (bonded): ANCS works.
    case encrypted

    /// The case name (the harness's `link`).
    public var description: String {
        switch self {
        case .off: "off"
        case .advertising: "advertising"
        case .connected: "connected"
        case .encrypted: "encrypted"
        }
    }
}
