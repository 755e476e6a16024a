import HAL
import Loop

/// Sends mgmt commands one at a time over any packet transport (the kernel's
/// control socket, or one end of a socket pair in tests) and routes the
/// replies and events on the loop.
///
/// The kernel answers each command with Command Complete or Command Status
/// carrying its opcode; commands are queued and the head's answer completes
/// it. Everything else goes to `eventHandler`. A command without an answer
/// within `commandTimeout` completes with `.timeout`.
public final class ManagementClient {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
    public typealias Completion = (_ status: ManagementStatus, _ returnParameters: [UInt8]) -> Void

    private struct Pending {
        var opcode: ManagementOpcode
        var packet: [UInt8]
        var completion: Completion
    }

    public let transport: any PacketChannel
    private let loop: any EventLoop
    private var source: SourceID?
    private var queue: [Pending] = []
    private var headSent = false
    private var timer: TimerID!
    private let commandTimeout: Duration
    private var buffer = [UInt8](repeating: 0, count: 1024)

    /// Events that are not answers to our commands, with their controller index.
    public var eventHandler: ((UInt16, ManagementEvent) -> Void)?
    /// Called once when the transport closes or fails.
    public var closedHandler: ((HALError?) -> Void)?

    public init(transport: any PacketChannel, loop: any EventLoop, commandTimeout: Duration = .seconds(5)) throws(HALError) {
        self.transport = transport
        self.loop = loop
        self.commandTimeout = commandTimeout
        timer = loop.makeTimer { [unowned(unsafe) self] in self.headTimedOut() }
        source = try loop.addSource(fd: transport.pollDescriptor, events: .readable) { [unowned(unsafe) self] events in
            self.readable(events)
        }
    }

    deinit {
        lifetime.end()
        // Dropped without `close()`: its handlers must not outlive it.
        if let s = source { loop.removeSource(s) }
        loop.destroyTimer(timer)
    }

    public var pendingCount: Int { queue.count }

    /// Queues `command` for controller `index`; `completion` runs on the loop.
    public func send(_ command: some ManagementCommand, index: UInt16, completion: @escaping Completion) {
        queue.append(Pending(opcode: command.opcode, packet: command.encoded(index: index), completion: completion))
        if queue.count == 1 { sendHead() }
    }

    /// Shutdown: writes `command` at once, ahead of anything queued, then
    /// closes without waiting for its answer. The kernel runs an mgmt
    /// command's handler inside the write (hci_sock_sendmsg), so closing the
    /// socket right after does not undo it; only the answer is lost. Best
    /// effort: a failed write is not reported.
    public func closeAfterSending(_ command: some ManagementCommand, index: UInt16) {
        if source != nil, transport.isOpen { _ = try? transport.send(bytes: command.encoded(index: index)) }
        close()
    }

    public func close() {
        if let s = source { loop.removeSource(s) }
        source = nil
        loop.disarm(timer)
        transport.close()
        let failed = queue
        queue.removeAll()
        for p in failed { p.completion(.disconnected, []) }
    }

    private func sendHead() {
        guard let head = queue.first, !headSent else { return }
        do throws(HALError) {
            let result = try transport.send(bytes: head.packet)
            if result == .wouldBlock {
                // The control socket's send buffer is full: retry shortly.
                loop.schedule(after: .milliseconds(10)) { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.sendHead() } }
                return
            }
        } catch {
            complete(status: .failed, parameters: [])
            return
        }
        headSent = true
        loop.arm(timer, after: commandTimeout)
    }

    private func complete(status: ManagementStatus, parameters: [UInt8]) {
        guard !queue.isEmpty else { return }
        let head = queue.removeFirst()
        headSent = false
        loop.disarm(timer)
        head.completion(status, parameters)
        sendHead()
    }

    private func headTimedOut() {
        guard headSent else { return }
        complete(status: .timeout, parameters: [])
    }

    private func readable(_ events: IOEvents) {
        while source != nil {
            let result: PacketReceiveResult
            do throws(HALError) {
                result = try transport.receive(into: &buffer)
            } catch {
                closedHandler?(error)
                close()
                return
            }
            switch result {
            case .wouldBlock: return
            case .closed:
                closedHandler?(nil)
                close()
                return
            case .packet(let n):
                let decoded = buffer.withUnsafeBytes { ManagementEvent.decode(packet: UnsafeRawBufferPointer(rebasing: $0[0..<n])) }
                guard let (index, event) = decoded else { continue }
                dispatch(index: index, event: event)
            }
        }
    }

    private func dispatch(index: UInt16, event: ManagementEvent) {
        switch event {
        case .commandComplete(let opcode, let status, let parameters) where headSent && queue.first?.opcode.rawValue == opcode:
            complete(status: ManagementStatus(rawValue: status) ?? .failed, parameters: parameters)
        case .commandStatus(let opcode, let status) where headSent && queue.first?.opcode.rawValue == opcode:
            complete(status: ManagementStatus(rawValue: status) ?? .failed, parameters: [])
        case .commandComplete, .commandStatus:
            break  // an answer to another program's command on the same interface
        default:
            eventHandler?(index, event)
        }
    }
}
