import ANCS
import Notifications
import GATT
import HAL
import Loop
import PhoneServices
import SimBoard
import Testing

/// One end of an in-memory message link: a send lands in the peer's inbox;
/// the peer's loop source is signalled by `ManualWorld.pump()`.
final class MemoryLinkEnd: PacketChannel {
    let pollDescriptor: Int32
    private(set) var isOpen = true
    weak var peer: MemoryLinkEnd?
    var inbox: [[UInt8]] = []
    /// The peer's close was reported to this end's reader.
    var closeDelivered = false

    init(fd: Int32) { pollDescriptor = fd }

    static func pair(_ fds: (Int32, Int32)) -> (MemoryLinkEnd, MemoryLinkEnd) {
        let a = MemoryLinkEnd(fd: fds.0), b = MemoryLinkEnd(fd: fds.1)
        a.peer = b
        b.peer = a
        return (a, b)
    }

    func send(_ message: UnsafeRawBufferPointer) throws(HALError) -> PacketSendResult {
        guard isOpen else { throw HALError(operation: "send", errno: 9, reason: "closed") }
        guard let peer, peer.isOpen else { throw HALError(operation: "send", errno: 32, reason: "peer closed") }
        peer.inbox.append(Array(message))
        return .sent
    }

    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HALError) -> PacketReceiveResult {
        guard isOpen else { return .closed }
        if !inbox.isEmpty {
            let m = inbox.removeFirst()
            for (i, b) in m.enumerated() { buffer[i] = b }
            return .packet(m.count)
        }
        return peer?.isOpen == true ? .wouldBlock : .closed
    }

    func close() { isOpen = false }
}

/// The watch's PhoneSession and a simulated iPhone on one `ManualLoop`,
/// joined by an in-memory link: time moves only when the test moves it,
/// from one timer deadline to the next, with every message in flight
/// delivered in between. A simulated week takes well under a second.
final class ManualWorld {
    let loop = ManualLoop(now: MonotonicInstant(nanoseconds: 1_000_000_000))
    private(set) var watchEnd: MemoryLinkEnd
    private(set) var phoneEnd: MemoryLinkEnd
    private(set) var session: PhoneSession
    private(set) var phone: SimulatedPhone
    /// Every session event, across links.
    var events: [PhoneSession.Event] = []
    /// Links the watch saw close.
    private(set) var linksClosed = 0
    private var nextFD: Int32 = 1000

    /// The daemon's consumer configuration (dates and subtitles fetched);
    /// health checks at their defaults.
    static func consumerConfiguration() -> NotificationConsumer.Configuration {
        var c = NotificationConsumer.Configuration()
        c.fetchDate = true
        c.fetchSubtitle = true
        return c
    }

    init(_ phoneConfiguration: SimulatedPhone.Configuration = .init(),
         bearer: ATTBearer.Configuration = .init()) throws {
        (watchEnd, phoneEnd) = MemoryLinkEnd.pair((nextFD, nextFD + 1))
        nextFD += 2
        session = PhoneSession(channel: watchEnd, loop: loop, security: nil, consumerConfiguration: Self.consumerConfiguration(),
                               bearerConfiguration: bearer)
        phone = SimulatedPhone(channel: phoneEnd, loop: loop, configuration: phoneConfiguration)
        try start()
    }

    private func start() throws {
        session.eventHandler = { [unowned self] e in
            self.events.append(e)
            if case .closed = e { self.linksClosed += 1 }
        }
        try phone.start()
        try session.start()
        pump()
    }

    /// The phone reconnects (a new link, the phone's notifications kept,
    /// as an iPhone does with a bonded watch); the new session takes over
    /// what the old one kept (as the watch model does).
    func reconnect(_ configure: (inout SimulatedPhone.Configuration) -> Void = { _ in }) throws {
        var c = phone.configuration
        c.preexisting = phone.provider.notifications
        configure(&c)
        let old = session
        (watchEnd, phoneEnd) = MemoryLinkEnd.pair((nextFD, nextFD + 1))
        nextFD += 2
        session = PhoneSession(channel: watchEnd, loop: loop, security: nil, consumerConfiguration: Self.consumerConfiguration())
        session.consumer.adoptPreviousSession(from: old.consumer, now: loop.now)
        phone = SimulatedPhone(channel: phoneEnd, loop: loop, configuration: c)
        try start()
    }

    /// Delivers every message in flight (and a closed link) until quiet.
    func pump() {
        var progressed = true
        var rounds = 0
        while progressed && rounds < 100_000 {
            progressed = false
            rounds += 1
            for end in [watchEnd, phoneEnd] where end.isOpen {
                let peerClosed = end.peer?.isOpen != true
                guard !end.inbox.isEmpty || (peerClosed && !end.closeDelivered) else { continue }
                if end.inbox.isEmpty { end.closeDelivered = true }
                if loop.signal(fd: end.pollDescriptor, .readable) {
                    progressed = true
                } else {
                    end.inbox.removeAll()  // nobody reads this end any more
                    end.closeDelivered = true
                }
            }
        }
        loop.runDeferred()
    }

    /// Moves time to `target`, stopping at every timer deadline on the way.
    func run(until target: MonotonicInstant) {
        pump()
        while let next = loop.nextDeadline, next <= target {
            loop.advance(to: next)
            pump()
        }
        loop.advance(to: target)
        pump()
    }

    func run(for d: Duration) { run(until: loop.now.advanced(by: d)) }

    var consumer: NotificationConsumer { session.consumer }

    /// The titles the watch stores (this session's and kept ones), newest first.
    var titles: [String] {
        var t: [String] = []
        consumer.forEachNotification { t.append($0.title ?? "") }
        return t
    }

    /// The phone's log since `mark` (an index into it).
    func phoneLog(since mark: Int) -> [String] { Array(phone.log[min(mark, phone.log.count)...]) }

    func resubscribingEvents() -> [ResubscribeReason] {
        events.compactMap { if case .ancsResubscribing(let r) = $0 { r } else { nil } }
    }
}
