import HAL

/// Apps the wearer muted from the wrist (a notification's menu: "Mute 1
/// hour", "Mute until tomorrow", "Mute always"): each acts as the settings
/// file's `"mute": true` for that app until it ends or is undone on the
/// "Muted apps" screen. A fixed table: the identifiers and names live in
/// buffers reserved once, so muting, matching and undoing allocate nothing.
/// Expired entries are dropped when the table is read (no timer: with the
/// display off a mute costs no wake-up).
public struct AppMutes: Sendable {
    /// The most apps muted at once; a mute past it replaces the one that
    /// ends first ("always" last).
    public static let capacity = 16
    /// The longest AppIdentifier kept, and the longest display name, in bytes.
    public static let identifierCapacity = 128
    public static let nameCapacity = 32

    public struct Entry: Sendable {
        fileprivate var identifier = [UInt8]()
        fileprivate var name = [UInt8]()
        /// When it ends (nil: always).
        public fileprivate(set) var until: MonotonicInstant?
        fileprivate var inUse = false
    }

    private var slots: [Entry]

    public init() {
        slots = (0..<Self.capacity).map { _ in
            var e = Entry()
            e.identifier.reserveCapacity(Self.identifierCapacity)
            e.name.reserveCapacity(Self.nameCapacity)
            return e
        }
    }

    /// Mutes `identifier` (shown as `name`) until `until` (nil: always),
    /// replacing its earlier mute. False for an empty identifier.
    @discardableResult
    public mutating func mute(_ identifier: UnsafeRawBufferPointer, name: UnsafeRawBufferPointer, until: MonotonicInstant?,
                              now: MonotonicInstant) -> Bool {
        guard !identifier.isEmpty, identifier.count <= Self.identifierCapacity else { return false }
        dropExpired(now: now)
        let slot = index(of: identifier) ?? freeSlot() ?? endingFirst()
        slots[slot].identifier.removeAll(keepingCapacity: true)
        slots[slot].identifier.append(contentsOf: identifier)
        slots[slot].name.removeAll(keepingCapacity: true)
        slots[slot].name.append(contentsOf: name.prefix(Self.nameCapacity))
        slots[slot].until = until
        slots[slot].inUse = true
        return true
    }

    /// Whether `identifier` is muted at `now`. Allocation-free.
    public func isMuted(_ identifier: UnsafeRawBufferPointer, now: MonotonicInstant) -> Bool {
        guard let i = index(of: identifier) else { return false }
        return slots[i].until.map { now < $0 } ?? true
    }

    /// Whether any app is muted at `now` (a decision waits for the app then).
    public func any(now: MonotonicInstant) -> Bool {
        slots.contains { $0.inUse && ($0.until.map { now < $0 } ?? true) }
    }

    /// The mutes in force at `now`, in slot order (the screen's order).
    public func count(now: MonotonicInstant) -> Int {
        var n = 0
        forEach(now: now) { _, _, _ in n += 1 }
        return n
    }

    /// Calls `body` with each mute in force: its identifier, name, and end.
    public func forEach(now: MonotonicInstant, _ body: (UnsafeRawBufferPointer, UnsafeRawBufferPointer, MonotonicInstant?) -> Void) {
        for slot in slots where slot.inUse && (slot.until.map { now < $0 } ?? true) {
            slot.identifier.withUnsafeBytes { id in slot.name.withUnsafeBytes { name in body(id, name, slot.until) } }
        }
    }

    /// Undoes the `index`th mute in force (the screen's row). False when there is none.
    @discardableResult
    public mutating func unmute(at index: Int, now: MonotonicInstant) -> Bool {
        var n = 0
        for i in slots.indices where slots[i].inUse && (slots[i].until.map { now < $0 } ?? true) {
            if n == index {
                slots[i].inUse = false
                return true
            }
            n += 1
        }
        return false
    }

    /// Forgets every mute (the wearer's `forget`, tests).
    public mutating func removeAll() {
        for i in slots.indices { slots[i].inUse = false }
    }

    private mutating func dropExpired(now: MonotonicInstant) {
        for i in slots.indices where slots[i].inUse {
            if let until = slots[i].until, now >= until { slots[i].inUse = false }
        }
    }

    private func index(of identifier: UnsafeRawBufferPointer) -> Int? {
        guard !identifier.isEmpty else { return nil }
        var i = 0
        while i < slots.count {
            if slots[i].inUse && slots[i].identifier.count == identifier.count {
                var j = 0
                while j < identifier.count && slots[i].identifier[j] == identifier[j] { j += 1 }
                if j == identifier.count { return i }
            }
            i += 1
        }
        return nil
    }

    private func freeSlot() -> Int? { slots.firstIndex { !$0.inUse } }

    /// The timed mute that ends first, else the first "always".
    private func endingFirst() -> Int {
        var pick = 0
        for i in slots.indices {
            switch (slots[i].until, slots[pick].until) {
            case (let a?, let b?): if a < b { pick = i }
            case (.some, nil): pick = i
            default: break
            }
        }
        return pick
    }
}
