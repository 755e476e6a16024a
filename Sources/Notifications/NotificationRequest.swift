/// What the wearer can ask of a notification besides its two actions, where
/// its phone's companion supports it (Gadgetbridge does; ANCS has neither):
/// the source says which it offers (`NotificationSource.offers`), the phone
/// session sends them.
public enum NotificationRequest: UInt8, Hashable, Sendable, CustomStringConvertible {
    /// Reply with a short text (a canned reply from the settings file).
    case reply
    /// Mute the notification's app on the phone.
    case muteApp

    public var description: String { self == .reply ? "reply" : "mute app" }
}
