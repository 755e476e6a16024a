import HAL

/// Every timer of a loop: slots with generations, and a binary min-heap of the
/// armed ones ordered by (deadline, arming sequence). Pure data structure: it
/// knows nothing of descriptors; the loop arms one timerfd at `earliestDeadline`.
///
/// Steady state allocates nothing: slots, the heap and the free list only grow
/// (amortised) when more timers exist at once than ever before.
package struct TimerQueue {
    private struct Slot {
        var handler: (() -> Void)?
        var generation: UInt32 = 0
        var deadline: MonotonicInstant = .zero
        /// Repeat interval in ns, 0 for one-shot.
        var interval: UInt64 = 0
        var sequence: UInt64 = 0
        /// Position in `heap`, -1 when disarmed.
        var heapIndex: Int = -1
        /// One-shot timers made by `schedule(after:)` free themselves after firing.
        var destroyAfterFiring = false
    }

    private var slots: [Slot] = []
    private var freeSlots: [UInt32] = []
    private var heap: [UInt32] = []
    private var nextSequence: UInt64 = 0

    package init(reserve: Int = 64) {
        slots.reserveCapacity(reserve)
        freeSlots.reserveCapacity(reserve)
        heap.reserveCapacity(reserve)
    }

    /// Number of live timers (armed or not).
    package private(set) var liveCount = 0
    /// Number of armed timers.
    package var armedCount: Int { heap.count }

    package var earliestDeadline: MonotonicInstant? { heap.first.map { slots[Int($0)].deadline } }

    package mutating func make(_ handler: @escaping () -> Void, destroyAfterFiring: Bool = false) -> TimerID {
        let index: UInt32
        if let free = freeSlots.popLast() {
            index = free
        } else {
            index = UInt32(slots.count)
            slots.append(Slot())
        }
        slots[Int(index)].handler = handler
        slots[Int(index)].destroyAfterFiring = destroyAfterFiring
        liveCount += 1
        return TimerID(index: index, generation: slots[Int(index)].generation)
    }

    package func isLive(_ id: TimerID) -> Bool {
        Int(id.index) < slots.count && slots[Int(id.index)].generation == id.generation
            && slots[Int(id.index)].handler != nil
    }

    package func isArmed(_ id: TimerID) -> Bool { isLive(id) && slots[Int(id.index)].heapIndex >= 0 }

    package func deadline(of id: TimerID) -> MonotonicInstant? { isArmed(id) ? slots[Int(id.index)].deadline : nil }

    package mutating func arm(_ id: TimerID, at deadline: MonotonicInstant, repeating: Duration?) {
        guard isLive(id) else { return }
        let i = Int(id.index)
        let interval = repeating.map { UInt64(max($0.nanosecondsClamped, 1)) } ?? 0
        slots[i].deadline = deadline
        slots[i].interval = interval
        slots[i].sequence = nextSequence
        nextSequence &+= 1
        if slots[i].heapIndex >= 0 {
            let h = slots[i].heapIndex
            siftUp(h)
            siftDown(slots[i].heapIndex)
        } else {
            heap.append(id.index)
            slots[i].heapIndex = heap.count - 1
            siftUp(heap.count - 1)
        }
    }

    package mutating func disarm(_ id: TimerID) {
        guard isLive(id) else { return }
        removeFromHeap(Int(id.index))
    }

    package mutating func destroy(_ id: TimerID) {
        guard isLive(id) else { return }
        free(Int(id.index))
    }

    /// Pops the earliest timer due at `now`, re-arming a repeating one at its next
    /// period boundary (deadline + k·interval > now, so it never drifts and never
    /// fires in a burst after a stall). Returns its handler, or nil when none is due.
    package mutating func popDue(now: MonotonicInstant) -> (() -> Void)? {
        guard let top = heap.first else { return nil }
        let i = Int(top)
        guard slots[i].deadline <= now else { return nil }
        let handler = slots[i].handler
        if slots[i].interval > 0 {
            let interval = slots[i].interval
            let late = now.nanoseconds - slots[i].deadline.nanoseconds
            let periods = late / interval + 1
            slots[i].deadline = MonotonicInstant(nanoseconds: slots[i].deadline.nanoseconds &+ periods &* interval)
            slots[i].sequence = nextSequence
            nextSequence &+= 1
            siftDown(0)
        } else if slots[i].destroyAfterFiring {
            free(i)
        } else {
            removeFromHeap(i)
        }
        return handler
    }

    // MARK: - slots and heap

    private mutating func free(_ i: Int) {
        removeFromHeap(i)
        slots[i].handler = nil
        slots[i].generation &+= 1
        freeSlots.append(UInt32(i))
        liveCount -= 1
    }

    private mutating func removeFromHeap(_ i: Int) {
        let h = slots[i].heapIndex
        guard h >= 0 else { return }
        slots[i].heapIndex = -1
        let last = heap.removeLast()
        if h < heap.count {
            heap[h] = last
            slots[Int(last)].heapIndex = h
            siftUp(h)
            siftDown(slots[Int(last)].heapIndex)
        }
    }

    private func earlier(_ a: UInt32, _ b: UInt32) -> Bool {
        let da = slots[Int(a)].deadline, db = slots[Int(b)].deadline
        return da != db ? da < db : slots[Int(a)].sequence < slots[Int(b)].sequence
    }

    private mutating func swapAt(_ a: Int, _ b: Int) {
        heap.swapAt(a, b)
        slots[Int(heap[a])].heapIndex = a
        slots[Int(heap[b])].heapIndex = b
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard earlier(heap[child], heap[parent]) else { return }
            swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        let n = heap.count
        while true {
            let left = 2 * parent + 1
            guard left < n else { return }
            var best = left
            if left + 1 < n && earlier(heap[left + 1], heap[left]) { best = left + 1 }
            guard earlier(heap[best], heap[parent]) else { return }
            swapAt(best, parent)
            parent = best
        }
    }
}
