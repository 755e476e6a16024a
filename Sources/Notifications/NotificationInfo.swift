/// What a source announces about a notification before its text arrives.
public struct NotificationInfo: Hashable, Sendable {
    public var uid: NotificationID
    public var flags: NotificationFlags
    public var category: NotificationCategory
    /// How many notifications of this category the phone holds (0: unknown).
    public var categoryCount: UInt8

    public init(uid: NotificationID, flags: NotificationFlags, category: NotificationCategory, categoryCount: UInt8) {
        self.uid = uid
        self.flags = flags
        self.category = category
        self.categoryCount = categoryCount
    }

    public var isPreExisting: Bool { flags.contains(.preExisting) }
    /// Whether it may alert (vibrate, light up): not Silent and never
    /// pre-existing. The rest of the decision is the watch's.
    public var shouldAlert: Bool { !flags.contains(.silent) && !flags.contains(.preExisting) }
}
