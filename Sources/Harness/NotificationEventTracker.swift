import Notifications

/// Decides when the `events` stream reports a notification. The phone
/// announces one (Notification Source) before the watch has fetched its
/// attributes, so "added" and "modified" wait until the store has them: no
/// fetch pending and the app's name resolved (or not to be had), or the
/// fetch failed (then with what there is). The app's name is waited for a
/// while only (`reportFetched`: the phone may not know the app). A Message fetched later (when
/// the wearer opens a notification that is not Important) is reported as
/// "modified". "removed" goes at once.
///
/// Holds at most `capacity` announcements waiting for their attributes in
/// storage made once; one more reports the oldest with what it has.
struct NotificationEventTracker {
    struct Report: Equatable {
        var uid: NotificationID
        var change: HarnessJSON.NotificationChange
    }

    let capacity: Int
    /// Announced, not reported yet: the UID and whether it was an addition.
    private var waiting: [(uid: NotificationID, added: Bool)] = []

    init(capacity: Int = 32) {
        self.capacity = capacity
        waiting.reserveCapacity(capacity)
    }

    var waitingCount: Int { waiting.count }

    /// The reports `event` completes, in order, through `report`.
    mutating func handle(_ event: NotificationEvent, store: any NotificationSource, report: (Report) -> Void) {
        switch event {
        case .added(let info):
            announce(info.uid, added: true, report: report)
            check(info.uid, store: store, force: false, report: report)
        case .modified(let info):
            announce(info.uid, added: false, report: report)
            check(info.uid, store: store, force: false, report: report)
        case .contentArrived(let uid, let fields):
            if index(of: uid) != nil {
                check(uid, store: store, force: false, report: report)
            } else if fields.contains(.message) {
                report(Report(uid: uid, change: .modified))
            }
            // The app's name arrives once for all its notifications.
            if fields.contains(.appDisplayName) { checkAll(store: store, report: report) }
        case .fetchFailed(let uid):
            check(uid, store: store, force: true, report: report)
        case .removed(let uid, _):
            if let i = index(of: uid) { waiting.remove(at: i) }
            report(Report(uid: uid, change: .removed))
        case .sessionEnded:
            waiting.removeAll(keepingCapacity: true)
        default:
            break
        }
    }

    /// Reports every waiting notification whose own attributes are there
    /// (the app's name has not come: `HarnessServer` calls this a second
    /// after, as the watch's pop-up waits no longer either).
    mutating func reportFetched(store: any NotificationSource, report: (Report) -> Void) {
        checkAll(store: store, forceFetched: true, report: report)
    }

    /// Forgets what waits (the last subscriber left).
    mutating func reset() { waiting.removeAll(keepingCapacity: true) }

    private func index(of uid: NotificationID) -> Int? {
        waiting.firstIndex { $0.uid == uid }
    }

    private mutating func announce(_ uid: NotificationID, added: Bool, report: (Report) -> Void) {
        if index(of: uid) != nil { return }  // an addition modified before it was reported stays an addition
        if waiting.count == capacity {
            let oldest = waiting.removeFirst()
            report(Report(uid: oldest.uid, change: oldest.added ? .added : .modified))
        }
        waiting.append((uid, added))
    }

    private mutating func check(_ uid: NotificationID, store: any NotificationSource, force: Bool,
                                report: (Report) -> Void) {
        guard let i = index(of: uid) else { return }
        guard let n = store.notification(uid) else {
            waiting.remove(at: i)
            return
        }
        guard force || Self.isComplete(n, store: store) else { return }
        let added = waiting[i].added
        waiting.remove(at: i)
        report(Report(uid: uid, change: added ? .added : .modified))
    }

    /// Checks each waiting notification, oldest first; with `forceFetched`
    /// one whose own fetch is done is reported without its app's name.
    private mutating func checkAll(store: any NotificationSource, forceFetched: Bool = false,
                                   report: (Report) -> Void) {
        var i = 0
        while i < waiting.count {
            let before = waiting.count
            let uid = waiting[i].uid
            let force = forceFetched && store.notification(uid)?.isFetchPending == false
            check(uid, store: store, force: force, report: report)
            if waiting.count == before { i += 1 }
        }
    }

    /// Nothing left to fetch, and the app's name known (or not to be had).
    static func isComplete(_ n: Notification, store: any NotificationSource) -> Bool {
        !n.isFetchPending && !n.isAwaitingAppName
    }
}
