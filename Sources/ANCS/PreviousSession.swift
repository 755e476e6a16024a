import HAL
import Notifications

// The previous session's notifications: kept when a session ends, shown as
// "from the previous session", reconciled with the next session's
// announcements. A short disconnect (or a re-subscription) does not wipe
// the list.
//
// - Kept: when a session ends by a disconnect or a re-subscription (or a
//   new one starts over an old one), every stored notification with
//   something to show (a title or an app) stays, except an incoming call (a
//   ringing call does not outlive its link). ANCS withdrawn (Service
//   Changed) or unsubscribed keeps nothing.
//   Its UID becomes the watch's own (`previousSessionUIDBase` + slot): the
//   phone's UIDs are void outside their session and the next session may
//   reuse them. Its app name is copied (the app-name cache goes with the
//   session); its actions are gone (nothing reaches the phone for it).
// - Reconciled: while the next session runs, a notification of it whose
//   AppIdentifier, Title and Date (when fetched) equal a kept one's replaces
//   it: the kept one is removed (`.reannounced(newUID)`), so nothing shows
//   twice.
// - Dropped: once the new session's pre-existing announcements have been
//   quiet for `reconcileSettle` and every one was fetched (or
//   `reconcileTimeout` after the session started, whatever the fetches do),
//   the kept ones nobody re-announced are removed (`.notReannounced`).
// - Bounded: kept notifications live in the store's own slots (no extra
//   memory beyond one app-name field per slot), are the first evicted when
//   the new session needs room, and stay while no new session comes.
extension NotificationConsumer {
    /// Kept notifications are shown under UIDs from here up (plus their slot).
    public static let previousSessionUIDBase: UInt32 = 0xFFFF_0000
    static let maximumStoreCapacity = 0xFFFF

    /// Notifications kept from the previous session (included in `notificationCount`).
    public var previousSessionCount: Int { store.retainedCount }

    /// Takes over what `old` (the previous link's consumer) kept from its
    /// session, and its health counters; call it before this consumer's
    /// session starts. The newest kept notifications come first when room
    /// is short. Allocation-free.
    public func adoptPreviousSession(from old: NotificationConsumer, now: MonotonicInstant) {
        guard old !== self else { return }
        health.carryOver(old.health)
        guard configuration.keepsPreviousSession else { return }
        // The oldest that do not fit are left behind.
        var skip = old.store.retainedCount - (store.capacity - store.count)
        var last: UInt64? = nil
        while true {
            // Oldest first, so sequence order (the list's order) is kept.
            var pick = -1
            var j = 0
            while j < old.store.capacity {
                let s = old.store.slots[j]
                if s.inUse && s.retained && (last.map { s.sequence > $0 } ?? true)
                    && (pick < 0 || s.sequence < old.store.slots[pick].sequence)
                {
                    pick = j
                }
                j += 1
            }
            guard pick >= 0 else { break }
            last = old.store.slots[pick].sequence
            if skip > 0 {
                skip -= 1
                continue
            }
            guard let k = store.insertCopy(of: old.store.slots[pick]) else { break }
            store.slots[k].uid = Self.previousSessionUIDBase | UInt32(k)
            var f = 0
            while f <= NotificationStore.retainedAppName {
                store.set(field: f, slot: k, from: old.store.bytes(field: f, slot: pick))
                f += 1
            }
            retries.reset(k)
        }
        if isSessionActive { startReconciliation(now: now) }
    }

    /// Marks every notification of the ending session as kept, or drops it.
    func retainSessionEntries() {
        var i = 0
        while i < store.capacity {
            defer { i += 1 }
            guard store.slots[i].inUse, !store.slots[i].retained else { continue }
            let s = store.slots[i]
            let showsSomething = s.present.contains(.title) || s.present.contains(.appIdentifier)
            if s.category == .incomingCall || !showsSomething {
                store.remove(at: i)
                retries.reset(i)
                continue
            }
            // The app name from this session's cache, while it is there.
            var name = UnsafeRawBufferPointer(start: nil, count: 0)
            if s.present.contains(.appIdentifier), !s.truncated.contains(.appIdentifier),
                let e = apps.find(store.bytes(.appIdentifier, slot: i)), apps.entries[e].state == .resolved
            {
                name = apps.name(e)
            }
            store.set(field: NotificationStore.retainedAppName, slot: i, from: name)
            store.slots[i].retained = true
            store.slots[i].uid = Self.previousSessionUIDBase | UInt32(i)
            store.slots[i].flags.remove([.positiveAction, .negativeAction])
            store.slots[i].needsFetch = false
            store.slots[i].wantsMessage = false
            retries.reset(i)
            statistics.previousSessionKept += 1
        }
    }

    /// A session started with kept notifications: reconcile them.
    func startReconciliation(now: MonotonicInstant) {
        guard isSessionActive, store.retainedCount > 0 else { return }
        reconciling = true
        reconcileDeadline = now.advanced(by: configuration.reconcileTimeout)
        reconcileSettleAt = now.advanced(by: configuration.reconcileSettle)
    }

    /// A pre-existing notification was announced: the burst goes on.
    func preExistingAnnounced(now: MonotonicInstant) {
        guard reconciling else { return }
        reconcileSettleAt = now.advanced(by: configuration.reconcileSettle)
    }

    /// A notification that the phone may re-announce under `uid` finds a
    /// kept one under the same UID only if the phone uses the watch's range:
    /// the kept one gives way.
    func makeRoomForUID(_ uid: NotificationUID) {
        guard uid.rawValue >= Self.previousSessionUIDBase, let j = store.displayIndex(of: uid), store.slots[j].retained
        else { return }
        store.remove(at: j)
        retries.reset(j)
        statistics.previousSessionDropped += 1
        emit(.notificationRemoved(uid, .notReannounced))
    }

    /// The notification in slot `i` got its attributes: the kept one it is
    /// (same app, title and date) goes, replaced by it. A kept one without
    /// a title (restored from the history file of an app whose content is
    /// hidden: RestoredHistory.swift) is the one with the same app and date.
    func reconcile(slot i: Int) {
        guard reconciling, store.slots[i].inUse, !store.slots[i].retained,
            store.slots[i].present.contains(.appIdentifier)
        else { return }
        let app = store.bytes(.appIdentifier, slot: i)
        let title = store.slots[i].present.contains(.title) ? store.bytes(.title, slot: i) : nil
        var j = 0
        while j < store.capacity {
            let s = store.slots[j]
            let sameTitle =
                s.present.contains(.title)
                ? title.map { memoryEqual(store.bytes(.title, slot: j), $0) } ?? false
                : s.date != nil
            if s.inUse && s.retained && s.present.contains(.appIdentifier) && sameTitle
                && s.date == store.slots[i].date && memoryEqual(store.bytes(.appIdentifier, slot: j), app)
            {
                let old = NotificationUID(s.uid)
                store.remove(at: j)
                retries.reset(j)
                statistics.previousSessionReannounced += 1
                emit(.notificationRemoved(old, .reannounced(NotificationUID(store.slots[i].uid))))
                return
            }
            j += 1
        }
    }

    /// Ends reconciliation when the announcements have settled and were
    /// fetched, or at its deadline: the kept notifications nobody
    /// re-announced go.
    func checkReconciliation(now: MonotonicInstant) {
        guard reconciling else { return }
        if let settle = reconcileSettleAt, now >= settle { reconcileSettleAt = nil }
        guard now >= reconcileDeadline || (reconcileSettleAt == nil && !preExistingFetchPending) else { return }
        reconciling = false
        reconcileSettleAt = nil
        var j = 0
        while j < store.capacity {
            if store.slots[j].inUse && store.slots[j].retained {
                let uid = NotificationUID(store.slots[j].uid)
                store.remove(at: j)
                retries.reset(j)
                statistics.previousSessionDropped += 1
                emit(.notificationRemoved(uid, .notReannounced))
            }
            j += 1
        }
    }

    /// A pre-existing notification of this session still waits for the
    /// attributes reconciliation compares.
    private var preExistingFetchPending: Bool {
        var i = 0
        while i < store.capacity {
            let s = store.slots[i]
            if s.inUse && !s.retained && s.isPreExisting && s.needsFetch { return true }
            i += 1
        }
        return false
    }
}

extension NotificationStore {
    /// Takes a free slot for a copy of `source` (a new arrival number, its
    /// text set by the caller). nil when full.
    func insertCopy(of source: Slot) -> Int? {
        guard let i = insert(source.info) else { return nil }
        let sequence = slots[i].sequence
        slots[i] = source
        slots[i].sequence = sequence
        slots[i].inUse = true
        return i
    }
}
