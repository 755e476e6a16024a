import HAL

/// The source while no phone is connected: nothing stored, nothing sent.
public final class NoNotifications: NotificationSource {
    public init() {}

    public var notificationCount: Int { 0 }
    public func notification(_ uid: NotificationID) -> Notification? { nil }
    public func forEachNotification(newestFirst: Bool, _ body: (Notification) -> Void) {}
    public func appDisplayName(forAppIdentifier id: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? { nil }
    public var health: NotificationSourceHealth { NotificationSourceHealth() }
    public func perform(_ action: NotificationAction, on uid: NotificationID, now: MonotonicInstant)
        throws(NotificationActionError)
    {
        throw .noSession
    }
    public func shown(_ uid: NotificationID, now: MonotonicInstant) {}
    public func text(_ field: NotificationField, slot: Int, uid: NotificationID) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: nil, count: 0)
    }
    public func appDisplayName(slot: Int, uid: NotificationID) -> UnsafeRawBufferPointer? { nil }
}
