import HAL
import Notifications

// The consumer as a notification source: the watch reads its store through
// the neutral `NotificationSource` API (Notifications), never the ANCS types.

extension NotificationConsumer: NotificationSource {
    // MARK: reading the store

    /// Stored notifications.
    public var notificationCount: Int { store.count }

    /// A view of a stored notification (nil if not stored): one of this
    /// session, or one kept from the previous session under its own UID.
    public func notification(_ uid: NotificationUID) -> Notification? {
        guard let i = store.displayIndex(of: uid) else { return nil }
        return view(slot: i)
    }

    /// Visits the stored notifications, newest first (or oldest first).
    /// Allocation-free; do not mutate the consumer from `body`.
    public func forEachNotification(newestFirst: Bool = true, _ body: (Notification) -> Void) {
        var last: UInt64? = nil
        while true {
            var pick = -1
            var i = 0
            while i < store.capacity {
                let s = store.slots[i]
                if s.inUse {
                    let after = last.map { newestFirst ? s.sequence < $0 : s.sequence > $0 } ?? true
                    if after && (pick < 0 || (newestFirst ? s.sequence > store.slots[pick].sequence
                        : s.sequence < store.slots[pick].sequence)) {
                        pick = i
                    }
                }
                i += 1
            }
            guard pick >= 0 else { return }
            last = store.slots[pick].sequence
            body(view(slot: pick))
        }
    }

    /// The cached display name of an app, if fetched in this session.
    public func appDisplayName(forAppIdentifier id: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        guard let e = apps.find(id), apps.entries[e].state == .resolved else { return nil }
        return apps.name(e)
    }

    /// The neutral view of a slot's notification.
    func view(slot i: Int) -> Notification {
        let s = store.slots[i]
        return Notification(
            uid: NotificationUID(s.uid), flags: s.flags, category: s.category, categoryCount: s.categoryCount,
            isFromPreviousSession: s.retained, available: s.present, truncated: s.truncated, date: s.date,
            messageSize: s.messageSize, isFetchPending: s.hasWork,
            isAwaitingAppName: configuration.fetchAppNames && s.present.contains(.appIdentifier)
                && !s.truncated.contains(.appIdentifier) && appName(slot: i, s) == nil,
            storage: self, slot: i)
    }

    /// Whether `slot` still holds the notification `uid` (a view outlives its slot).
    private func holds(_ slot: Int, _ uid: NotificationUID) -> Bool {
        let s = store.slots[slot]
        return s.inUse && s.uid == uid.rawValue
    }

    public func text(_ field: NotificationField, slot: Int, uid: NotificationUID) -> UnsafeRawBufferPointer {
        guard holds(slot, uid) else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        return store.bytes(field, slot: slot)
    }

    /// The app's display name (for a notification from the previous
    /// session: the name it had then).
    public func appDisplayName(slot: Int, uid: NotificationUID) -> UnsafeRawBufferPointer? {
        guard holds(slot, uid) else { return nil }
        return appName(slot: slot, store.slots[slot])
    }

    private func appName(slot: Int, _ s: Slot) -> UnsafeRawBufferPointer? {
        guard s.present.contains(.appIdentifier) else { return nil }
        if s.retained {
            let name = store.bytes(field: NotificationStore.retainedAppName, slot: slot)
            return name.isEmpty ? nil : name
        }
        return appDisplayName(forAppIdentifier: store.bytes(.appIdentifier, slot: slot))
    }

    public func perform(_ action: NotificationAction, on uid: NotificationID, now: MonotonicInstant)
        throws(NotificationActionError)
    {
        try performAction(action, on: uid, now: now)
    }

    public func shown(_ uid: NotificationID, now: MonotonicInstant) {
        notificationShown(uid, now: now)
    }
}
