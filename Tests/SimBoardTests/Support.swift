import HAL

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

/// A line connection whose peer is the test: lines in, bytes out.
final class MemoryLineChannel: LineChannel {
    let pollDescriptor: Int32
    private(set) var isOpen = true
    var hasPendingOutput: Bool { false }
    var incoming: [String] = []
    var output: [UInt8] = []
    var text: String { String(decoding: output, as: UTF8.self) }

    init(fd: Int32) { pollDescriptor = fd }

    func readLines() -> LineReadResult {
        guard isOpen else { return .closed }
        defer { incoming.removeAll() }
        return .lines(incoming)
    }

    func write(_ bytes: [UInt8]) -> Bool {
        guard isOpen else { return false }
        output += bytes
        return true
    }

    func flush() -> Bool { isOpen }
    func close() { isOpen = false }
}

/// A listener the test hands connections to.
final class MemoryListener<Connection>: ConnectionListener {
    let path: String
    let pollDescriptor: Int32
    var pending: [Connection] = []
    private(set) var closed = false

    init(path: String, fd: Int32) {
        self.path = path
        pollDescriptor = fd
    }

    func accept() throws(HALError) -> Connection? {
        pending.isEmpty ? nil : pending.removeFirst()
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
