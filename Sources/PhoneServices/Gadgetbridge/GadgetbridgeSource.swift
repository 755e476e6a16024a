import Gadgetbridge
import HAL
import Notifications

/// The watch's notification source for an Android phone running
/// Gadgetbridge: a fixed store of what its `notify` lines post and of the
/// call its `call` lines ring, read in place by the watch like the ANCS
/// consumer's. Everything arrives in one line, so nothing is fetched later.
/// The buttons go back as `notify` / `call` replies (`send`).
///
/// Mapping (docs/android.md): the app's name (`src`) is both its identifier
/// and its display name (Android's package name is not sent); `title` is the
/// title, else the `sender`; `subject` is the subtitle; `body` the message.
/// A notification offers "Open" (on the phone) and "Dismiss"; a ringing call
/// "Answer" and "Decline". Its ID is Gadgetbridge's (a Java int, so 32 bits).
///
/// Storage is allocated once; posting, updating and removing allocate nothing.
public final class GadgetbridgeSource: NotificationSource {
    /// The texts kept per notification, in `NotificationField` order.
    static let fieldCount = 6

    struct Slot {
        var inUse = false
        var uid: UInt32 = 0
        /// The ID the phone gave it (what replies carry).
        var phoneID: Int64 = 0
        var category = NotificationCategory.other
        var flags = NotificationFlags()
        var sequence: UInt64 = 0
        var lengths = InlineArray<6, UInt16>(repeating: 0)
        var present = NotificationFields()
        var truncated = NotificationFields()
        /// The phone can answer it with a text (Gadgetbridge's REPLY).
        var canReply = false
    }

    public let capacity: Int
    /// Where the store's events go (the session sets it once).
    var events: (NotificationEvent) -> Void = { _ in }
    /// Writes a reply to the phone; false when it cannot go now.
    var send: (GadgetbridgeReply) -> Bool = { _ in false }
    /// Whether the phone listens for replies (subscribed to the UART's TX).
    var canReply: () -> Bool = { false }
    /// A session with the phone runs (replies can go).
    public private(set) var isInSession = false
    public private(set) var health = NotificationSourceHealth()

    private let fieldCapacity: InlineArray<6, Int>
    private let fieldOffset: InlineArray<6, Int>
    private let stride: Int
    private let slots: UnsafeMutableBufferPointer<Slot>
    private let text: UnsafeMutableRawBufferPointer
    private var nextSequence: UInt64 = 0
    /// The slot of the call ringing now, if any.
    private var callSlot: Int?

    /// - Parameters:
    ///   - capacity: notifications kept (the oldest goes for a newcomer).
    ///   - fieldCapacities: bytes kept per field, in `NotificationField` order.
    public init(capacity: Int, fieldCapacities: InlineArray<6, Int>) {
        self.capacity = max(1, capacity)
        fieldCapacity = fieldCapacities
        var offsets = InlineArray<6, Int>(repeating: 0)
        var total = 0
        for i in 0..<6 {
            offsets[i] = total
            total += max(0, fieldCapacities[i])
        }
        fieldOffset = offsets
        stride = total
        slots = .allocate(capacity: self.capacity)
        slots.initialize(repeating: Slot())
        text = .allocate(byteCount: max(1, self.capacity * total), alignment: 8)
    }

    deinit {
        slots.deinitialize().deallocate()
        text.deallocate()
    }

    // MARK: - What the phone says (from GadgetbridgeSession)

    /// The session started (the phone spoke Gadgetbridge on this link).
    func sessionStarted() {
        guard !isInSession else { return }
        isInSession = true
        // A line arrived: Gadgetbridge is there (it has no liveness checks
        // of its own, so no '?' beside the Bluetooth glyph for it).
        health.record(.subscribed, .ok)
        events(.sessionStarted)
    }

    /// The link went: no reply can go any more; the list stays shown.
    func sessionEnded() {
        guard isInSession else { return }
        isInSession = false
        health.record(.none, .unknown)
        events(.sessionEnded)
    }

    /// Takes over what an earlier link's store still shows: Gadgetbridge
    /// does not resend a notification, so after a dropped link the list and
    /// its buttons carry on with the same ids (a call that rang on the old
    /// link does not come over). Only into an empty store of the same shape;
    /// copies the fixed storage, allocates nothing.
    func adopt(from previous: GadgetbridgeSource) {
        guard previous !== self, previous.capacity == capacity, previous.stride == stride, notificationCount == 0 else { return }
        for i in 0..<capacity where previous.slots[i].inUse && i != previous.callSlot {
            slots[i] = previous.slots[i]
            let range = (i * stride)..<((i + 1) * stride)
            UnsafeMutableRawBufferPointer(rebasing: text[range]).copyMemory(from: UnsafeRawBufferPointer(rebasing: previous.text[range]))
        }
        nextSequence = previous.nextSequence
    }

    /// `notify`: a new notification, or new text for one already kept.
    func post(_ n: GadgetbridgeMessage.Notify) {
        let title = n.title.count > 0 ? n.title : n.sender
        // Important: Android's priority is not sent, and Gadgetbridge's own
        // per-app filter already chose what reaches the wrist (a Bangle.js
        // buzzes for every one).
        let i = store(phoneID: n.id, category: .other, flags: [.important, .positiveAction, .negativeAction],
                      texts: (n.source, title, n.subject, n.body), labels: ("Open", "Dismiss"))
        slots[i].canReply = n.canReply
    }

    /// `call`: a call rings, or stops ringing.
    func call(_ c: GadgetbridgeMessage.Call) {
        switch c.command {
        case .incoming:
            let title = c.name.count > 0 ? c.name : c.number
            let subtitle = c.name.count > 0 ? c.number : UnsafeRawBufferPointer(start: nil, count: 0)
            let empty = UnsafeRawBufferPointer(start: nil, count: 0)
            if let i = callSlot { remove(slot: i, reason: .removedByPhone) }
            callSlot = store(phoneID: Self.callPhoneID, category: .incomingCall,
                             flags: [.important, .positiveAction, .negativeAction],
                             texts: (empty, title, subtitle, empty), labels: ("Answer", "Decline"))
        case .start, .end, .reject, .accept, .outgoing, .other:
            // Answered, ended or declined: it no longer rings.
            if let i = callSlot { remove(slot: i, reason: .removedByPhone) }
        }
    }

    /// `notify-`: the phone withdrew it.
    func withdraw(phoneID: Int64) {
        guard phoneID != Self.callPhoneID, let i = index(phoneID: phoneID) else { return }
        remove(slot: i, reason: .removedByPhone)
    }

    // MARK: - NotificationSource

    public var notificationCount: Int {
        var n = 0
        for i in 0..<capacity where slots[i].inUse { n += 1 }
        return n
    }

    public func notification(_ uid: NotificationID) -> Notification? {
        index(uid: uid.rawValue).map(view)
    }

    public func forEachNotification(newestFirst: Bool, _ body: (Notification) -> Void) {
        // Arrival order without sorting: visit by sequence, smallest (or largest) not yet visited.
        var bound: UInt64 = newestFirst ? .max : 0
        var first = true
        while true {
            var pick: Int? = nil
            for i in 0..<capacity where slots[i].inUse {
                let s = slots[i].sequence
                let after = first || (newestFirst ? s < bound : s > bound)
                guard after else { continue }
                if let p = pick {
                    if newestFirst ? s > slots[p].sequence : s < slots[p].sequence { pick = i }
                } else {
                    pick = i
                }
            }
            guard let p = pick else { return }
            first = false
            bound = slots[p].sequence
            body(view(p))
        }
    }

    public func appDisplayName(forAppIdentifier id: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        // Android sends the app's name only: it is its own display name.
        id.count > 0 ? id : nil
    }

    public func perform(_ action: NotificationAction, on uid: NotificationID, now: MonotonicInstant)
        throws(NotificationActionError)
    {
        // Not subscribed to TX: no reply can reach Gadgetbridge.
        guard isInSession, canReply() else { throw .noSession }
        guard let i = index(uid: uid.rawValue) else { throw .unknownNotification(uid) }
        guard slots[i].flags.contains(action.requiredFlag) else { throw .actionNotAvailable(uid, action) }
        let reply: GadgetbridgeReply =
            i == callSlot
            ? .call(action == .positive ? .accept : .reject)
            : .notification(id: slots[i].phoneID, action == .positive ? .open : .dismiss)
        guard send(reply) else { throw .queueFull }
        events(.actionSent(uid, action))
        // Dismissed, or declined: gone from the wrist now (the phone may
        // also withdraw it; that finds nothing).
        if action == .negative, index(uid: uid.rawValue) == i { remove(slot: i, reason: .removedByPhone) }
    }

    /// Gadgetbridge mutes any notification's app, and replies where the
    /// phone said it can (not to a call).
    public func offers(_ request: NotificationRequest, on uid: NotificationID) -> Bool {
        guard let i = index(uid: uid.rawValue), i != callSlot else { return false }
        return request == .muteApp || slots[i].canReply
    }

    /// Sends `request` (`text`: the reply's UTF-8); false when it is not
    /// offered or cannot go now.
    func send(_ request: NotificationRequest, on uid: NotificationID, text: UnsafeRawBufferPointer) -> Bool {
        guard isInSession, canReply(), offers(request, on: uid), let i = index(uid: uid.rawValue) else { return false }
        let id = slots[i].phoneID
        return send(request == .reply ? .reply(id: id, text: text) : .notification(id: id, .mute))
    }

    /// Everything came with the notification: nothing to fetch.
    public func shown(_ uid: NotificationID, now: MonotonicInstant) {}

    public func text(_ field: NotificationField, slot: Int, uid: NotificationID) -> UnsafeRawBufferPointer {
        guard slot >= 0, slot < capacity, slots[slot].inUse, slots[slot].uid == uid.rawValue else {
            return UnsafeRawBufferPointer(start: nil, count: 0)
        }
        let f = field.rawValue
        let start = slot * stride + fieldOffset[f]
        return UnsafeRawBufferPointer(rebasing: text[start..<(start + Int(slots[slot].lengths[f]))])
    }

    public func appDisplayName(slot: Int, uid: NotificationID) -> UnsafeRawBufferPointer? {
        let name = text(.appIdentifier, slot: slot, uid: uid)
        return name.count > 0 ? name : nil
    }

    // MARK: - The store

    /// The call's phone ID: calls carry none (no Java int is this large).
    static let callPhoneID: Int64 = 1 << 40

    @discardableResult
    private func store(
        phoneID: Int64, category: NotificationCategory, flags: NotificationFlags,
        texts: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer, UnsafeRawBufferPointer),
        labels: (StaticString, StaticString)
    ) -> Int {
        let existing = phoneID == Self.callPhoneID ? nil : index(phoneID: phoneID)
        let i: Int
        if let existing {
            i = existing
        } else {
            i = freeSlot() ?? evict()
            slots[i] = Slot()
            slots[i].inUse = true
            slots[i].phoneID = phoneID
            slots[i].uid = uid(for: phoneID)
        }
        slots[i].category = category
        slots[i].flags = flags
        slots[i].sequence = nextSequence
        nextSequence += 1
        slots[i].present = []
        slots[i].truncated = []
        put(texts.0, .appIdentifier, i)
        put(texts.1, .title, i)
        put(texts.2, .subtitle, i)
        put(texts.3, .message, i)
        put(UnsafeRawBufferPointer(start: labels.0.utf8Start, count: labels.0.utf8CodeUnitCount), .positiveActionLabel, i)
        put(UnsafeRawBufferPointer(start: labels.1.utf8Start, count: labels.1.utf8CodeUnitCount), .negativeActionLabel, i)
        let uid = NotificationID(slots[i].uid)
        let info = NotificationInfo(uid: uid, flags: flags, category: category, categoryCount: 0)
        events(existing == nil ? .added(info) : .modified(info))
        events(.contentArrived(uid, slots[i].present))
        return i
    }

    /// Copies `bytes` into the field (cut at its capacity, on a UTF-8 boundary).
    private func put(_ bytes: UnsafeRawBufferPointer, _ field: NotificationField, _ i: Int) {
        let f = field.rawValue
        var n = min(bytes.count, fieldCapacity[f])
        if n < bytes.count {
            while n > 0 && bytes[n] & 0xC0 == 0x80 { n -= 1 }  // not inside a character
            slots[i].truncated.insert(field.bit)
        }
        let start = i * stride + fieldOffset[f]
        if n > 0 { UnsafeMutableRawBufferPointer(rebasing: text[start..<(start + n)]).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[0..<n])) }
        slots[i].lengths[f] = UInt16(n)
        if bytes.count > 0 { slots[i].present.insert(field.bit) }
    }

    private func remove(slot i: Int, reason: RemovalReason) {
        guard slots[i].inUse else { return }
        slots[i].inUse = false
        if callSlot == i { callSlot = nil }
        events(.removed(NotificationID(slots[i].uid), reason))
    }

    private func freeSlot() -> Int? {
        for i in 0..<capacity where !slots[i].inUse { return i }
        return nil
    }

    /// The oldest notification that is not the ringing call (the oldest of all
    /// when only the call is kept) makes room.
    private func evict() -> Int {
        var victim = 0
        var oldest = UInt64.max
        for i in 0..<capacity where slots[i].inUse && i != callSlot && slots[i].sequence < oldest {
            victim = i
            oldest = slots[i].sequence
        }
        if oldest == .max, let c = callSlot { victim = c }
        remove(slot: victim, reason: .evicted)
        return victim
    }

    /// The watch's ID: the phone's (32 bits); the call takes one no stored
    /// notification has.
    private func uid(for phoneID: Int64) -> UInt32 {
        if phoneID != Self.callPhoneID { return UInt32(truncatingIfNeeded: phoneID) }
        var candidate = UInt32.max
        while index(uid: candidate) != nil { candidate -= 1 }
        return candidate
    }

    private func index(uid: UInt32) -> Int? {
        for i in 0..<capacity where slots[i].inUse && slots[i].uid == uid { return i }
        return nil
    }

    private func index(phoneID: Int64) -> Int? {
        for i in 0..<capacity where slots[i].inUse && slots[i].phoneID == phoneID { return i }
        return nil
    }

    private func view(_ i: Int) -> Notification {
        let s = slots[i]
        return Notification(
            uid: NotificationID(s.uid), flags: s.flags, category: s.category, categoryCount: 0, available: s.present,
            truncated: s.truncated, storage: self, slot: i)
    }
}
