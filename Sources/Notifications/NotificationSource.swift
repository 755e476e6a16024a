import HAL

/// A source of notifications: a phone protocol's adapter (ANCS today) with
/// its own store. The watch's model, screens and harness read only this;
/// a new phone protocol is a new conformance, not a change to them.
///
/// A source reports changes as `NotificationEvent`s through whoever owns
/// it (the phone session), after its store changed. Reads allocate nothing.
/// Not thread-safe: the run loop's thread only.
public protocol NotificationSource: NotificationText {
    /// Notifications stored now.
    var notificationCount: Int { get }
    /// A stored notification (nil if not stored).
    func notification(_ uid: NotificationID) -> Notification?
    /// Visits the stored notifications, newest first (or oldest first).
    /// Do not call the source from `body`.
    func forEachNotification(newestFirst: Bool, _ body: (Notification) -> Void)
    /// The cached display name of an app, by its identifier.
    func appDisplayName(forAppIdentifier id: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer?
    /// How sure the source is that notifications still arrive.
    var health: NotificationSourceHealth { get }
    /// Sends an action to the phone (reported later as `.actionSent` or
    /// `.actionFailed`), or says at once why it cannot.
    func perform(_ action: NotificationAction, on uid: NotificationID, now: MonotonicInstant)
        throws(NotificationActionError)
    /// The notification is on screen: fetch what it still lacks (its message).
    /// May come from inside the source's own event (a pop-up opening as its
    /// notification is added): record it then, and act once the event has
    /// returned, so a fetch not yet sent can ask for the message too.
    func shown(_ uid: NotificationID, now: MonotonicInstant)
    /// Whether the phone takes `request` for `uid` (false by default).
    func offers(_ request: NotificationRequest, on uid: NotificationID) -> Bool
}

extension NotificationSource {
    public func offers(_ request: NotificationRequest, on uid: NotificationID) -> Bool { false }
}
