import HAL
import Log

// In-memory stand-ins for the sockets LinuxHAL gives the simulated board, so
// SimBoard is tested with no descriptor at all (and no LinuxHAL in the build).

/// One end of an in-memory message link: a send lands in the peer's inbox.
final class MemoryPacketChannel: PacketChannel {
    let pollDescriptor: Int32
    let name: String
    private(set) var isOpen = true
    weak var peer: MemoryPacketChannel?
    var inbox: [[UInt8]] = []

    init(fd: Int32, name: String) {
        pollDescriptor = fd
        self.name = name
    }

    static func pair(names: (String, String), fds: (Int32, Int32)) -> (MemoryPacketChannel, MemoryPacketChannel) {
        let a = MemoryPacketChannel(fd: fds.0, name: names.0), b = MemoryPacketChannel(fd: fds.1, name: names.1)
        a.peer = b
        b.peer = a
        return (a, b)
    }

    func send(_ message: UnsafeRawBufferPointer) throws(HALError) -> PacketSendResult {
        guard isOpen else { throw HALError(operation: "send on \(name)", errno: 9, reason: "closed") }
        peer?.inbox.append(Array(message))
        return .sent
    }

    func receive(into buffer: UnsafeMutableRawBufferPointer) throws(HALError) -> PacketReceiveResult {
        guard isOpen else { return .closed }
        guard !inbox.isEmpty else { return peer?.isOpen == false ? .closed : .wouldBlock }
        let m = inbox.removeFirst()
        for (i, b) in m.enumerated() { buffer[i] = b }
        return .packet(m.count)
    }

    func close() { isOpen = false }
}

/// A line connection whose peer is the test: lines in, bytes out. While
/// `peerReads` is false the bytes stay queued, like a client that never reads.
final class MemoryLineChannel: LineChannel {
    let pollDescriptor: Int32
    private(set) var isOpen = true
    var incoming: [String] = []
    var output: [UInt8] = []
    private(set) var queued: [UInt8] = []
    /// The most that was ever queued at once.
    private(set) var mostQueued = 0
    var peerReads = true
    var text: String { String(decoding: output, as: UTF8.self) }
    var queuedOutputCount: Int { queued.count }

    init(fd: Int32) { pollDescriptor = fd }

    func readLines() -> LineReadResult {
        guard isOpen else { return .closed }
        defer { incoming.removeAll() }
        return .lines(incoming)
    }

    func write(_ bytes: [UInt8]) -> Bool {
        guard isOpen else { return false }
        queued += bytes
        mostQueued = max(mostQueued, queued.count)
        return flush()
    }

    func flush() -> Bool {
        guard isOpen else { return false }
        if peerReads {
            output += queued
            queued.removeAll()
        }
        return true
    }

    func close() {
        isOpen = false
        queued.removeAll()
    }
}

/// A listener the test hands connections to.
final class MemoryListener<Connection>: ConnectionListener {
    let path: String
    let pollDescriptor: Int32
    var pending: [Connection] = []
    /// Thrown by `accept` while set (EMFILE at the descriptor limit).
    var failure: HALError?
    private(set) var acceptCalls = 0
    private(set) var closed = false

    init(path: String, fd: Int32) {
        self.path = path
        pollDescriptor = fd
    }

    func accept() throws(HALError) -> Connection? {
        acceptCalls += 1
        if let failure { throw failure }
        return pending.isEmpty ? nil : pending.removeFirst()
    }

    func close() { closed = true }
}

/// `LocalSockets` in memory: remembers what it made.
final class MemorySockets: LocalSockets {
    private(set) var lineListeners: [MemoryListener<any LineChannel>] = []
    private(set) var packetListeners: [(listener: MemoryListener<any PacketChannel>, linkName: String)] = []
    private(set) var pairs: [(MemoryPacketChannel, MemoryPacketChannel)] = []
    private var nextFD: Int32 = 100

    func fd() -> Int32 {
        nextFD += 1
        return nextFD
    }

    func listenForLines(at path: String) throws(HALError) -> any ConnectionListener<any LineChannel> {
        let l = MemoryListener<any LineChannel>(path: path, fd: fd())
        lineListeners.append(l)
        return l
    }

    func listenForPackets(at path: String, linkName: String) throws(HALError) -> any ConnectionListener<any PacketChannel> {
        let l = MemoryListener<any PacketChannel>(path: path, fd: fd())
        packetListeners.append((l, linkName))
        return l
    }

    func packetPair(names: (String, String)) throws(HALError) -> (any PacketChannel, any PacketChannel) {
        let pair = MemoryPacketChannel.pair(names: names, fds: (fd(), fd()))
        pairs.append(pair)
        return pair
    }
}

/// Keeps what is logged, for tests that count log lines.
final class LogBox: @unchecked Sendable {
    var lines: [String] = []
}

extension Logger {
    /// A logger whose lines land in `box` ("level: message"), every level.
    static func capturing(_ box: LogBox) -> Logger {
        Logger(label: "test", sink: LogSink { level, _, message in box.lines.append("\(level): \(message)") })
    }
}
