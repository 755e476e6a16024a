import Notifications

/// The settings file's `hideContent` rule (an app's, or a filter's): the
/// list, the detail and the pop-up show the app's name and "Notification"
/// instead of the title, subtitle and message of such notifications.
extension ScreenRenderer {
    static let hiddenTitle: StaticString = "Notification"

    /// Whether `n` hides its content (its rule says so).
    func hidesContent(of n: Notification) -> Bool {
        guard let hidesContent = contentHidden else { return false }
        return hidesContent(n)
    }

    /// What a text field of `n` shows: its bytes, or for a hidden
    /// notification "Notification" as the title and nothing else.
    func shownText(_ n: Notification, _ field: NotificationField) -> UnsafeRawBufferPointer {
        guard hidesContent(of: n) else { return n.bytes(field) }
        return field == .title ? Self.hiddenTitle.rawBytes : UnsafeRawBufferPointer(start: nil, count: 0)
    }
}
