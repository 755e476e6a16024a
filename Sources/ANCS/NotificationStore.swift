// Fixed-capacity storage behind the consumer: notifications, app names and
// the request queue. Everything is allocated once in init; nothing here
// allocates afterwards.

import HAL
import Notifications

/// One stored notification's bookkeeping (its text lives in the arena).
struct Slot {
    var inUse = false
    var uid: UInt32 = 0
    var flags = EventFlags()
    var category = CategoryID.other
    var categoryCount: UInt8 = 0
    var sequence: UInt64 = 0  // arrival order (Added), for eviction and fetch order
    var lengths = InlineArray<7, UInt16>(repeating: 0)  // NotificationTextField order, then the kept app name
    var present = NotificationFields()  // attributes whose current value is stored
    var truncated = NotificationFields()
    var date: CivilTime? = nil
    var messageSize: Int? = nil
    var needsFetch = false  // the basic attributes are due (Added / Modified)
    var wantsMessage = false  // the message is due (Important, call, shown)
    var version: UInt32 = 0  // bumped by Modified: a reply to an older request does not clear the flags
    /// From an ended session (see PreviousSession.swift): shown under a
    /// UID of its own, never sent to the phone, not found by `index(of:)`.
    var retained = false

    var isPreExisting: Bool { flags.contains(.preExisting) }
    var hasWork: Bool { needsFetch || wantsMessage }
    var info: NotificationInfo {
        NotificationInfo(uid: NotificationUID(uid), flags: flags, category: category, categoryCount: categoryCount)
    }
}

final class NotificationStore {
    /// The text field after the six `NotificationTextField`s: the app's
    /// display name, copied in when the slot is retained (the per-session
    /// app-name cache is emptied with its session).
    static let retainedAppName = 6

    let capacity: Int
    let fieldCapacity: InlineArray<7, Int>
    let fieldOffset: InlineArray<7, Int>
    let stride: Int
    let slots: UnsafeMutableBufferPointer<Slot>
    let text: UnsafeMutableRawBufferPointer
    private(set) var count = 0
    private var nextSequence: UInt64 = 0

    init(capacity: Int, fieldCapacities: InlineArray<7, Int>) {
        self.capacity = capacity
        fieldCapacity = fieldCapacities
        var offsets = InlineArray<7, Int>(repeating: 0)
        var total = 0
        for i in 0..<7 {
            offsets[i] = total
            total += fieldCapacities[i]
        }
        fieldOffset = offsets
        stride = total
        slots = .allocate(capacity: max(1, capacity))
        slots.initialize(repeating: Slot())
        text = .allocate(byteCount: max(1, capacity * total), alignment: 8)
    }

    deinit {
        slots.deinitialize().deallocate()
        text.deallocate()
    }

    func removeAll() {
        for i in 0..<capacity { slots[i].inUse = false }
        count = 0
    }

    /// The slot of a notification of the current session (retained ones
    /// are not the phone's any more).
    func index(of uid: NotificationUID) -> Int? {
        var i = 0
        while i < capacity {
            if slots[i].inUse && !slots[i].retained && slots[i].uid == uid.rawValue { return i }
            i += 1
        }
        return nil
    }

    /// The slot shown under `uid`: the current session's, else a retained one.
    func displayIndex(of uid: NotificationUID) -> Int? {
        if let i = index(of: uid) { return i }
        var i = 0
        while i < capacity {
            if slots[i].inUse && slots[i].retained && slots[i].uid == uid.rawValue { return i }
            i += 1
        }
        return nil
    }

    /// Slots kept from an ended session.
    var retainedCount: Int {
        var n = 0
        var i = 0
        while i < capacity {
            if slots[i].inUse && slots[i].retained { n += 1 }
            i += 1
        }
        return n
    }

    /// The slot to evict for a newcomer, or nil if the newcomer should not be
    /// stored. Order: oldest retained (from an ended session), then oldest
    /// pre-existing non-call, then oldest live non-call (only for a live
    /// newcomer), then oldest of all (only for a live newcomer).
    func victim(forPreExisting newcomerIsPreExisting: Bool) -> Int? {
        var best: Int? = nil
        var bestRank = Int.max
        var bestSeq = UInt64.max
        var i = 0
        while i < capacity {
            let s = slots[i]
            if s.inUse {
                let rank: Int
                if s.retained {
                    rank = -1
                } else if s.isPreExisting && !s.category.isCall {
                    rank = 0
                } else if !s.category.isCall {
                    rank = 1
                } else {
                    rank = 2
                }
                if rank < bestRank || (rank == bestRank && s.sequence < bestSeq) {
                    best = i
                    bestRank = rank
                    bestSeq = s.sequence
                }
            }
            i += 1
        }
        if newcomerIsPreExisting && bestRank > 0 { return nil }
        return best
    }

    /// Takes a free slot (the caller evicted first if full).
    func insert(_ info: NotificationInfo) -> Int? {
        var i = 0
        while i < capacity {
            if !slots[i].inUse {
                var s = Slot()
                s.inUse = true
                s.uid = info.uid.rawValue
                s.flags = info.flags
                s.category = info.category
                s.categoryCount = info.categoryCount
                s.sequence = nextSequence
                nextSequence &+= 1
                slots[i] = s
                count += 1
                return i
            }
            i += 1
        }
        return nil
    }

    func remove(at i: Int) {
        guard slots[i].inUse else { return }
        slots[i].inUse = false
        count -= 1
    }

    func bytes(_ field: NotificationTextField, slot i: Int) -> UnsafeRawBufferPointer {
        bytes(field: field.rawValue, slot: i)
    }

    /// A text field by index (0-5: `NotificationTextField`; 6: `retainedAppName`).
    func bytes(field f: Int, slot i: Int) -> UnsafeRawBufferPointer {
        let start = text.baseAddress! + i * stride + fieldOffset[f]
        return UnsafeRawBufferPointer(start: start, count: Int(slots[i].lengths[f]))
    }

    /// Stores a value, cut to the field's capacity (never longer: the
    /// assembler already bounds values by the same capacities).
    func set(_ field: NotificationTextField, slot i: Int, from value: UnsafeRawBufferPointer) {
        set(field: field.rawValue, slot: i, from: value)
    }

    func set(field f: Int, slot i: Int, from value: UnsafeRawBufferPointer) {
        let n = min(value.count, fieldCapacity[f])
        if n > 0 {
            (text.baseAddress! + i * stride + fieldOffset[f]).copyMemory(from: value.baseAddress!, byteCount: n)
        }
        slots[i].lengths[f] = UInt16(n)
    }
}

/// App display names, per session, bounded, least recently used goes first.
final class AppNameCache {
    enum State: Equatable { case free, wanted, queued, requested, resolved, failed }

    struct Entry {
        var state = State.free
        var idLength = 0
        var nameLength = 0
        var lastUse: UInt64 = 0
        var truncated = false
    }

    let capacity: Int
    let idCapacity: Int
    let nameCapacity: Int
    let entries: UnsafeMutableBufferPointer<Entry>
    let storage: UnsafeMutableRawBufferPointer
    private var clock: UInt64 = 0

    init(capacity: Int, idCapacity: Int, nameCapacity: Int) {
        self.capacity = capacity
        self.idCapacity = idCapacity
        self.nameCapacity = nameCapacity
        entries = .allocate(capacity: max(1, capacity))
        entries.initialize(repeating: Entry())
        storage = .allocate(byteCount: max(1, capacity * (idCapacity + nameCapacity)), alignment: 8)
    }

    deinit {
        entries.deinitialize().deallocate()
        storage.deallocate()
    }

    func removeAll() {
        for i in 0..<capacity { entries[i] = Entry() }
    }

    func identifier(_ i: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(start: storage.baseAddress! + i * (idCapacity + nameCapacity), count: entries[i].idLength)
    }

    func name(_ i: Int) -> UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(
            start: storage.baseAddress! + i * (idCapacity + nameCapacity) + idCapacity, count: entries[i].nameLength)
    }

    func find(_ id: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        while i < capacity {
            if entries[i].state != .free && entries[i].idLength == id.count {
                if id.count == 0 || memoryEqual(identifier(i), id) { return i }
            }
            i += 1
        }
        return nil
    }

    func touch(_ i: Int) {
        clock &+= 1
        entries[i].lastUse = clock
    }

    /// Adds an entry in state `.wanted`, evicting the least recently used
    /// entry that is not in flight. nil if the identifier does not fit or
    /// every entry is in flight.
    func add(_ id: UnsafeRawBufferPointer) -> Int? {
        guard id.count <= idCapacity, capacity > 0 else { return nil }
        var pick: Int? = nil
        var oldest = UInt64.max
        var i = 0
        while i < capacity {
            let e = entries[i]
            if e.state == .free { pick = i; break }
            if e.state != .requested && e.state != .queued && e.lastUse < oldest {
                pick = i
                oldest = e.lastUse
            }
            i += 1
        }
        guard let slot = pick else { return nil }
        if id.count > 0 {
            (storage.baseAddress! + slot * (idCapacity + nameCapacity)).copyMemory(from: id.baseAddress!, byteCount: id.count)
        }
        entries[slot] = Entry(state: .wanted, idLength: id.count, nameLength: 0, lastUse: 0, truncated: false)
        touch(slot)
        return slot
    }

    func setName(_ i: Int, _ value: UnsafeRawBufferPointer, truncated: Bool) {
        let n = min(value.count, nameCapacity)
        if n > 0 {
            (storage.baseAddress! + i * (idCapacity + nameCapacity) + idCapacity)
                .copyMemory(from: value.baseAddress!, byteCount: n)
        }
        entries[i].nameLength = n
        entries[i].truncated = truncated
        entries[i].state = .resolved
    }
}

func memoryEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    var i = 0
    while i < a.count {
        if a[i] != b[i] { return false }
        i += 1
    }
    return true
}

/// One unit of Control Point work.
struct Work: Equatable {
    enum Kind: Equatable { case notification, app, action, probe }
    var kind: Kind
    var uid: UInt32 = 0
    var action: ActionID = .positive
    var appEntry: Int = 0
}

/// The bounded, de-duplicated request queue: actions first, then requests in
/// arrival order. (Pre-existing notifications never enter it: they are
/// fetched from the store when the queue is empty.)
final class RequestQueue {
    let capacity: Int
    private let items: UnsafeMutableBufferPointer<Work>
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        items = .allocate(capacity: max(1, capacity))
        items.initialize(repeating: Work(kind: .probe))
    }

    deinit { items.deinitialize().deallocate() }

    var isFull: Bool { count >= capacity }
    var isEmpty: Bool { count == 0 }

    subscript(i: Int) -> Work { items[i] }

    func contains(_ w: Work) -> Bool {
        var i = 0
        while i < count {
            if items[i] == w { return true }
            i += 1
        }
        return false
    }

    /// Appends unless present or full. Returns false when full.
    func append(_ w: Work) -> Bool {
        if contains(w) { return true }
        guard count < capacity else { return false }
        items[count] = w
        count += 1
        return true
    }

    /// Inserts after the actions already queued (keeps actions in order).
    func insertAfterActions(_ w: Work) -> Bool {
        if let i = firstIndex(of: w) { remove(at: i) }
        guard count < capacity else { return false }
        var at = 0
        while at < count && items[at].kind == .action { at += 1 }
        var j = count
        while j > at {
            items[j] = items[j - 1]
            j -= 1
        }
        items[at] = w
        count += 1
        return true
    }

    func firstIndex(of w: Work) -> Int? {
        var i = 0
        while i < count {
            if items[i] == w { return i }
            i += 1
        }
        return nil
    }

    func remove(at i: Int) {
        var j = i
        while j + 1 < count {
            items[j] = items[j + 1]
            j += 1
        }
        count -= 1
    }

    func removeAll(where predicate: (Work) -> Bool) {
        var w = 0
        var r = 0
        while r < count {
            if !predicate(items[r]) {
                items[w] = items[r]
                w += 1
            }
            r += 1
        }
        count = w
    }

    /// Removes the last non-action entry (to make room for an action).
    func dropLastNonAction() -> Work? {
        var i = count - 1
        while i >= 0 {
            if items[i].kind != .action {
                let w = items[i]
                remove(at: i)
                return w
            }
            i -= 1
        }
        return nil
    }

    func popFirst() -> Work? {
        guard count > 0 else { return nil }
        let w = items[0]
        remove(at: 0)
        return w
    }

    func removeAll() { count = 0 }
}
