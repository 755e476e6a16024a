import HAL

/// A button of the simulated board (or a button pressed in software on a real
/// one): an input line whose edges are pushed by the harness or the demo
/// rather than read from a GPIO chip. Each push queues an edge stamped with
/// the loop's time and calls `edgesQueued`, so its owner (`WatchButtons`)
/// reads it through the same `ButtonLine` path as a GPIO line's edges.
///
/// Pushing allocates nothing: the queue keeps its capacity.
public final class SimulatedButtonLine: ButtonLine {
    public var pollDescriptor: Int32 { -1 }
    public var kernelDebounceActive: Bool { false }
    public var edgesQueued: (() -> Void)?
    /// True once released: pushes are refused.
    public private(set) var released = false

    private let now: () -> MonotonicInstant
    private var level = false
    private var queue: [LineEdge] = []
    private var head = 0
    /// Edges kept while nobody drains them; older ones are dropped.
    private let capacity = 16

    /// - Parameter now: the time to stamp edges with (the run loop's clock).
    public init(now: @escaping () -> MonotonicInstant) {
        self.now = now
        queue.reserveCapacity(capacity)
    }

    /// Changes the line's level now (true: pressed). False once released.
    @discardableResult
    public func push(active: Bool) -> Bool {
        guard !released else { return false }
        level = active
        if queue.count == capacity {
            // Nobody drains this line: forget what was read, else the oldest edge.
            queue.removeFirst(max(head, 1))
            head = 0
        }
        queue.append(LineEdge(active: active, timestamp: now()))
        edgesQueued?()
        return true
    }

    public func readEdge() throws(HALError) -> LineEdge? {
        guard head < queue.count else { return nil }
        let edge = queue[head]
        head += 1
        if head == queue.count {
            queue.removeAll(keepingCapacity: true)
            head = 0
        }
        return edge
    }

    public func isActive() throws(HALError) -> Bool { level }

    public func release() {
        released = true
        level = false
        queue.removeAll(keepingCapacity: true)
        head = 0
        edgesQueued = nil
    }
}
