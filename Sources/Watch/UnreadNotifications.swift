import Notifications

/// The notifications added live and not yet seen in the list: the status
/// bar's count. A set of UIDs with a fixed capacity (allocated once);
/// removals and evictions take their UID out, so the count follows the
/// store. Past capacity the oldest entry is dropped (the store evicts its
/// oldest notifications first too).
struct UnreadNotifications {
    private var uids: [UInt32]
    let capacity: Int

    init(capacity: Int) {
        precondition(capacity >= 1, "capacity must be positive")
        self.capacity = capacity
        uids = []
        uids.reserveCapacity(capacity)
    }

    var count: Int { uids.count }

    func contains(_ uid: NotificationID) -> Bool { uids.contains(uid.rawValue) }

    mutating func insert(_ uid: NotificationID) {
        guard !contains(uid) else { return }
        if uids.count == capacity { uids.remove(at: 0) }
        uids.append(uid.rawValue)
    }

    mutating func remove(_ uid: NotificationID) {
        if let i = uids.firstIndex(of: uid.rawValue) { uids.remove(at: i) }
    }

    mutating func removeAll() {
        uids.removeAll(keepingCapacity: true)
    }
}
