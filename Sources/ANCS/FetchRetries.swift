import HAL
import Notifications

/// Bounded retries of failed Get Notification Attributes fetches, one entry
/// per store slot (allocated once in init).
///
/// A fetch that timed out or failed (other than 0xA2, the UID is gone) is
/// tried again after `delays[0]`, then `delays[1]`, ...; when they are used
/// up the consumer gives up until the notification is modified or opened.
/// While an entry waits, its slot's fetch flags stay set but the slot is not
/// picked; `nextDeadline` includes the earliest wait.
///
/// An entry belongs to the notification that was in its slot when it was
/// written (the slot's arrival `sequence`), so a slot reused by a newer
/// notification starts with no failures.
final class FetchRetries {
    struct Entry {
        var sequence: UInt64 = .max
        var failures = 0
        var due: MonotonicInstant? = nil
    }

    let delays: [Duration]
    private let entries: UnsafeMutableBufferPointer<Entry>
    /// Entries with a `due` time: `nextDeadline` scans only when there are some.
    private var waiting = 0

    init(slots: Int, delays: [Duration]) {
        self.delays = delays
        entries = .allocate(capacity: max(1, slots))
        entries.initialize(repeating: Entry())
    }

    deinit { entries.deinitialize().deallocate() }

    func removeAll() {
        for i in 0..<entries.count { entries[i] = Entry() }
        waiting = 0
    }

    /// Forgets the failures of the notification in slot `i` (it changed, or
    /// the wearer opened it): it may be fetched at once.
    func reset(_ i: Int) {
        if entries[i].due != nil { waiting -= 1 }
        entries[i] = Entry()
    }

    /// A fetch for the notification in slot `i` (arrival `sequence`) failed
    /// at `now`. Returns true when a retry is scheduled, false when the
    /// retries are used up.
    func failed(_ i: Int, sequence: UInt64, now: MonotonicInstant) -> Bool {
        if entries[i].sequence != sequence { reset(i) }
        entries[i].sequence = sequence
        let k = entries[i].failures
        guard k < delays.count else { return false }
        entries[i].failures = k + 1
        if entries[i].due == nil { waiting += 1 }
        entries[i].due = now.advanced(by: delays[k])
        return true
    }

    /// The notification in slot `i` (arrival `sequence`) waits for its retry.
    func isWaiting(_ i: Int, sequence: UInt64) -> Bool {
        entries[i].due != nil && entries[i].sequence == sequence
    }

    /// Failed attempts so far for the notification in slot `i`.
    func failures(_ i: Int, sequence: UInt64) -> Int {
        entries[i].sequence == sequence ? entries[i].failures : 0
    }

    /// The earliest retry time, if any.
    var nextDue: MonotonicInstant? {
        guard waiting > 0 else { return nil }
        var d: MonotonicInstant? = nil
        var i = 0
        while i < entries.count {
            if let due = entries[i].due, d == nil || due < d! { d = due }
            i += 1
        }
        return d
    }

    /// Ends every wait that is due at `now`; returns whether any ended.
    @discardableResult
    func release(now: MonotonicInstant) -> Bool {
        guard waiting > 0 else { return false }
        var any = false
        var i = 0
        while i < entries.count {
            if let due = entries[i].due, due <= now {
                entries[i].due = nil
                waiting -= 1
                any = true
            }
            i += 1
        }
        return any
    }
}
