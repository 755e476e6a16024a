import HAL

/// One stored notification, read in place, whichever source it came from.
/// Text comes as the stored UTF-8 bytes (valid until its source is next
/// called); the `String` accessors copy and are meant for UI code and tests.
/// Building one allocates nothing.
public struct Notification {
    public var uid: NotificationID
    public var flags: NotificationFlags
    public var category: NotificationCategory
    public var categoryCount: UInt8
    /// Kept from an ended session until the next one reconciles it: its ID
    /// is the watch's own, no action or fetch reaches the phone for it.
    public var isFromPreviousSession: Bool
    /// The parts stored so far.
    public var available: NotificationFields
    /// Parts the phone sent longer than the source keeps.
    public var truncated: NotificationFields
    /// When the phone says it was posted (local time, as the phone keeps it).
    public var date: CivilTime?
    /// The phone's full length of the message, if it said.
    public var messageSize: Int?
    /// The source still has to fetch some of it (text, the message).
    public var isFetchPending: Bool
    /// The app's display name is still to come.
    public var isAwaitingAppName: Bool
    /// Reads the text (the source, or its storage).
    let storage: any NotificationText
    /// Where the source keeps it (its storage's own index).
    let slot: Int

    public init(
        uid: NotificationID, flags: NotificationFlags, category: NotificationCategory, categoryCount: UInt8,
        isFromPreviousSession: Bool = false, available: NotificationFields, truncated: NotificationFields = [],
        date: CivilTime? = nil, messageSize: Int? = nil, isFetchPending: Bool = false, isAwaitingAppName: Bool = false,
        storage: any NotificationText, slot: Int
    ) {
        self.uid = uid
        self.flags = flags
        self.category = category
        self.categoryCount = categoryCount
        self.isFromPreviousSession = isFromPreviousSession
        self.available = available
        self.truncated = truncated
        self.date = date
        self.messageSize = messageSize
        self.isFetchPending = isFetchPending
        self.isAwaitingAppName = isAwaitingAppName
        self.storage = storage
        self.slot = slot
    }

    public var info: NotificationInfo {
        NotificationInfo(uid: uid, flags: flags, category: category, categoryCount: categoryCount)
    }
    public var isPreExisting: Bool { flags.contains(.preExisting) }

    /// The phone has more message than is stored: its size is larger than
    /// the stored bytes, or the value was cut. False when no message is
    /// stored, or when its size is unknown and nothing was cut.
    public var hasMoreMessage: Bool {
        guard available.contains(.message) else { return false }
        if truncated.contains(.message) { return true }
        guard let size = messageSize else { return false }
        return size > bytes(.message).count
    }

    /// The stored UTF-8 bytes of a text field (empty if not stored).
    public func bytes(_ field: NotificationField) -> UnsafeRawBufferPointer {
        storage.text(field, slot: slot, uid: uid)
    }

    /// The app's display name bytes, once known.
    public var appDisplayNameBytes: UnsafeRawBufferPointer? {
        guard available.contains(.appIdentifier) else { return nil }
        return storage.appDisplayName(slot: slot, uid: uid)
    }

    /// Whether the field is stored (its bytes may still be empty).
    public func has(_ field: NotificationField) -> Bool { available.contains(field.bit) }

    /// The field as a String (allocates; invalid UTF-8 is shown as U+FFFD,
    /// the stored bytes are unchanged). nil if not stored.
    public func string(_ field: NotificationField) -> String? {
        guard has(field) else { return nil }
        return String(decoding: bytes(field), as: UTF8.self)
    }

    public var appIdentifier: String? { string(.appIdentifier) }
    public var title: String? { string(.title) }
    public var subtitle: String? { string(.subtitle) }
    public var message: String? { string(.message) }
    public var positiveActionLabel: String? { string(.positiveActionLabel) }
    public var negativeActionLabel: String? { string(.negativeActionLabel) }
    public var appDisplayName: String? { appDisplayNameBytes.map { String(decoding: $0, as: UTF8.self) } }
}

/// Where a `Notification` reads its text: the source's storage. A stale
/// view (its slot reused since) reads nothing.
public protocol NotificationText: AnyObject {
    func text(_ field: NotificationField, slot: Int, uid: NotificationID) -> UnsafeRawBufferPointer
    func appDisplayName(slot: Int, uid: NotificationID) -> UnsafeRawBufferPointer?
}
