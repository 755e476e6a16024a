import BoardConfig
import Display
import Graphics
import HAL
import Log
import Loop
import SimBoard
import Testing

/// The simulated board's devices on a manual loop and in-memory sockets.
@Suite("Simulated board devices")
struct SimulatedBoardDevicesTests {
    static var logger: Logger {
        var l = Logger(label: "test")
        l.logLevel = .critical
        return l
    }

    final class Events {
        var log: [String] = []
        var connected: [(any PacketChannel, (any LinkSecurityControl)?)] = []
        var inUse = false

        var handlers: PhoneLinkHandlers {
            PhoneLinkHandlers(
                linkInUse: { self.inUse },
                connected: { channel, security in self.connected.append((channel, security)); self.log.append("connected") },
                disconnected: { self.log.append("disconnected") },
                stateChanged: { self.log.append("state \($0)") },
                pairingRequested: { passkey, _ in self.log.append("pairing \(passkey)") },
                pairingEnded: { self.log.append("pairing ended \($0)") },
                staleBond: { self.log.append("stale \($0)") })
        }
    }

    @Test("the panel, buttons and motor: an emulated panel fed raw messages, pushed buttons, a reporting motor")
    func devices() throws {
        let board = BoardLoader.builtInSimulated
        let devices = SimulatedBoardDevices(board: board, loop: ManualLoop(), sockets: MemorySockets(), logger: Self.logger)
        try devices.preflight()
        #expect(devices.hardwareNote == "simulated hardware" && devices.displayLocation == "the emulator")
        #expect(devices.panelImage() == nil, "nothing opened yet")

        let transport = try devices.openDisplay(board.display)
        #expect(devices.display?.emulator.panel == .ssd1306_128x64)
        try transport.write(.commands, [0x8D, 0x14, 0xAF, 0xA5])   // charge pump on, display on, all pixels on
        #expect(devices.panelImage()?.litCount == 128 * 64)

        let motor = try devices.openMotor(try #require(board.motor))
        try motor.setActive(true)
        #expect(devices.motorLine?.isActive == true)

        #expect(!devices.setButton(.positive, active: true), "not opened yet")
        let line = try devices.openButton(try #require(board.button(.positive)), debounce: .milliseconds(20))
        var queued = 0
        line.edgesQueued = { queued += 1 }
        #expect(devices.setButton(.positive, active: true))
        #expect(queued == 1)
        #expect(try line.readEdge()?.active == true)
    }

    @Test("without an endpoint the built-in iPhone connects over an in-process pair and starts talking")
    func builtInPhone() throws {
        let sockets = MemorySockets()
        let devices = SimulatedBoardDevices(
            board: BoardLoader.builtInSimulated, loop: ManualLoop(), sockets: sockets, logger: Self.logger,
            options: .init(phoneScript: []))
        let events = Events()
        try devices.startPhoneLink(events.handlers)
        #expect(events.log == ["connected"])
        let (watchEnd, phoneEnd) = try #require(sockets.pairs.first)
        #expect(watchEnd.name == "phone link" && phoneEnd.name == "simulated iPhone")
        #expect(events.connected.first?.0 === watchEnd && events.connected.first?.1 == nil)
        #expect(devices.builtInPhone != nil)
        #expect(!watchEnd.inbox.isEmpty, "the phone opened with an ATT request, like iOS")
    }

    @Test("with an endpoint: advertising, one phone at a time, closed on stop")
    func endpoint() throws {
        let sockets = MemorySockets()
        let loop = ManualLoop()
        let devices = SimulatedBoardDevices(
            board: BoardLoader.builtInSimulated, loop: loop, sockets: sockets, logger: Self.logger,
            options: .init(phoneEndpointPath: "/tmp/phone.sock"))
        let events = Events()
        try devices.startPhoneLink(events.handlers)
        #expect(events.log == ["state advertising"])
        let (listener, linkName) = try #require(sockets.packetListeners.first)
        #expect(listener.path == "/tmp/phone.sock" && linkName == "phone link")

        let (first, _) = MemoryPacketChannel.pair(names: ("a", "b"), fds: (1, 2))
        listener.pending.append(first)
        #expect(loop.signal(fd: listener.pollDescriptor, .readable))
        #expect(events.connected.count == 1 && first.isOpen)

        events.inUse = true
        let (second, _) = MemoryPacketChannel.pair(names: ("c", "d"), fds: (3, 4))
        listener.pending.append(second)
        loop.signal(fd: listener.pollDescriptor, .readable)
        #expect(events.connected.count == 1 && !second.isOpen, "a second phone is refused")

        devices.stopPhoneLink()
        #expect(listener.closed && loop.sourceCount == 0)
    }
}
