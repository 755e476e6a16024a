import HAL
import Notifications

// The list kept in the state directory (`NotificationHistory`), taken up at
// start: its entries become notifications "from the previous session"
// (PreviousSession.swift), so the next session keeps them, reconciles them
// with what the phone re-announces and drops the rest once its
// announcements settle, exactly as after a disconnect.
extension NotificationConsumer {
    /// Stores `entries` (a history file's, oldest first) as kept from a
    /// previous session: shown under the watch's own UIDs, no action or
    /// fetch for them. The newest come first when room is short; entries
    /// with nothing to show and calls are left out (as a session's end
    /// does). Call before a session starts (a consumer with no link, whose
    /// store the next link's consumer adopts). Returns how many were taken.
    @discardableResult
    public func restorePreviousSession(_ entries: [NotificationHistory.Entry]) -> Int {
        guard configuration.keepsPreviousSession, !isSessionActive else { return 0 }
        var wanted = 0
        for e in entries where Self.restorable(e) { wanted += 1 }
        var skip = max(0, wanted - (store.capacity - store.count))
        var taken = 0
        for e in entries where Self.restorable(e) {
            if skip > 0 {
                skip -= 1
                continue
            }
            let info = NotificationInfo(uid: NotificationUID(0), flags: e.flags, category: e.category, categoryCount: 0)
            guard let k = store.insert(info) else { break }
            store.slots[k].uid = Self.previousSessionUIDBase | UInt32(k)
            store.slots[k].retained = true
            store.slots[k].date = e.date
            if e.date != nil { store.slots[k].present.insert(.date) }
            restore(e.appIdentifier, .appIdentifier, slot: k)
            restore(e.title, .title, slot: k)
            restore(e.subtitle, .subtitle, slot: k)
            restore(e.message, .message, slot: k)
            e.appName?.withUnsafeBytes { store.set(field: NotificationStore.retainedAppName, slot: k, from: $0) }
            retries.reset(k)
            taken += 1
        }
        return taken
    }

    static func restorable(_ e: NotificationHistory.Entry) -> Bool {
        e.category != .incomingCall && (e.appIdentifier != nil || e.title != nil)
    }

    private func restore(_ value: [UInt8]?, _ field: NotificationTextField, slot k: Int) {
        guard let value else { return }
        let f = field.bit
        value.withUnsafeBytes { store.set(field, slot: k, from: $0) }
        store.slots[k].present.insert(f)
        if value.count > store.fieldCapacity[field.rawValue] { store.slots[k].truncated.insert(f) }
    }
}
