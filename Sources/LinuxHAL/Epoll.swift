import CLinux
import HAL

/// An owned epoll instance. The run loop is its only user.
public struct Epoll: ~Copyable {
    private let fd: FileDescriptor
    /// Preallocated buffer the kernel fills with ready events: no allocation per wait.
    private let events: UnsafeMutableRawPointer
    private let eventSize: Int
    public let capacity: Int

    /// One ready descriptor from `wait`: the readiness bits and the 64-bit token given at `add`.
    public struct Ready {
        public var events: UInt32
        public var token: UInt64
    }

    public static var readable: UInt32 { EPOLLIN.rawValue }
    public static var writable: UInt32 { EPOLLOUT.rawValue }
    public static var hangUp: UInt32 { EPOLLHUP.rawValue | EPOLLRDHUP.rawValue }
    public static var error: UInt32 { EPOLLERR.rawValue }

    public init(capacity: Int = 64) throws(HALError) {
        let raw = epoll_create1(Int32(EPOLL_CLOEXEC))
        if raw < 0 { throw Errno.current.halError("epoll_create1") }
        fd = FileDescriptor(adopting: raw)
        eventSize = wc_epoll_event_size()
        self.capacity = capacity
        events = UnsafeMutableRawPointer.allocate(byteCount: eventSize * capacity, alignment: 8)
    }

    deinit { events.deallocate() }

    public func add(_ target: Int32, events mask: UInt32, token: UInt64) throws(HALError) {
        try control(EPOLL_CTL_ADD, target, mask, token, "epoll_ctl(ADD, fd \(target))")
    }

    public func modify(_ target: Int32, events mask: UInt32, token: UInt64) throws(HALError) {
        try control(EPOLL_CTL_MOD, target, mask, token, "epoll_ctl(MOD, fd \(target))")
    }

    /// Removes `target`; a descriptor that was already closed (EBADF/ENOENT) is not an error,
    /// since the kernel dropped it from the set when it was closed.
    public func remove(_ target: Int32) {
        var ev = epoll_event()
        _ = epoll_ctl(fd.rawValue, EPOLL_CTL_DEL, target, &ev)
    }

    private func control(_ op: Int32, _ target: Int32, _ mask: UInt32, _ token: UInt64, _ what: @autoclosure () -> String) throws(HALError) {
        var ev = epoll_event()
        wc_epoll_event_set(&ev, mask, token)
        if epoll_ctl(fd.rawValue, op, target, &ev) != 0 { throw Errno.current.halError(what()) }
    }

    /// Waits for readiness; `timeoutMilliseconds` -1 waits forever. Returns the number of
    /// ready entries, readable with `ready(at:)`. EINTR returns 0.
    public func wait(timeoutMilliseconds: Int32) throws(HALError) -> Int {
        let n = epoll_wait(fd.rawValue, events.assumingMemoryBound(to: epoll_event.self), Int32(capacity), timeoutMilliseconds)
        if n < 0 {
            let e = Errno.current
            if e == .interrupted { return 0 }
            throw e.halError("epoll_wait")
        }
        return Int(n)
    }

    public func ready(at index: Int) -> Ready {
        let p = (events + index * eventSize).assumingMemoryBound(to: epoll_event.self)
        return Ready(events: wc_epoll_event_events(p), token: wc_epoll_event_data(p))
    }
}
