import BoardConfig
import Foundation
import HAL
import LinuxHAL
import LinuxLoop
import Log
import PhoneServices
import Watch
import WristCore

/// The whole watch on the simulated board (as `WatchRig`), with an Android
/// phone running Gadgetbridge on the other end of the phone endpoint's
/// SEQPACKET link: it answers the watch's discovery as a phone without
/// services, subscribes to the UART's TX, sends Gadgetbridge's clock line,
/// and then writes `notify` lines in 20-byte Write Commands from
/// preallocated buffers (so the phone side adds no malloc while measured).
final class AndroidRig {
    let loop: EpollLoop
    let daemon: WatchDaemon
    let watch: WatchController
    let link: SeqPacketChannel
    private let path: String
    private var rxHandle: UInt16 = 0

    private(set) var motorOns = 0
    /// Lines the watch wrote on TX, and how many were DISMISS replies.
    private(set) var repliesReceived = 0
    private(set) var dismissals = 0
    /// The id of the next notification (fixed width: 7 digits).
    var nextID = 1_000_000

    private let pdu = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)
    private let incoming = UnsafeMutableRawBufferPointer.allocate(byteCount: 1024, alignment: 8)
    /// The notify line, with its id's digits at `idOffset` rewritten per notification.
    private var line: [UInt8]
    private let idOffset: Int

    init() throws {
        path = "/tmp/wristcore-bench-android-\(getpid()).sock"
        unlink(path)
        loop = try EpollLoop(clock: .manual(ManualClock()))
        var options = WatchDaemon.Options()
        options.phoneEndpoint = "unix:\(path)"
        options.settings.systemClock = { CivilTime(year: 2024, month: 5, day: 1, hour: 12, minute: 0, second: 0) }
        let logger = Logger(label: "bench", sink: .discarding, level: .info)
        daemon = WatchDaemon(board: BoardLoader.builtInSimulated, logger: logger, options: options, devices: .simulated)
        try daemon.start(on: loop)
        watch = daemon.watch!
        link = try SeqPacketChannel(adopting: UnixSocketListener.connect(path: path, kind: .seqPacket), name: "bench Android phone")
        unlink(path)
        let prefix = Array(#"\#u{10}GB({"t":"notify","id":"#.utf8)
        idOffset = prefix.count
        line = prefix + Array("1000000".utf8)
            + Array(#","src":"Signal","title":"Anna Appleseed","subject":"Lunch","body":"Are we still on for lunch tomorrow at 12:30? I booked the place by the river.","sender":"Anna"})"#.utf8)
            + [0x0A]
        settle()
        let session = watch.session!
        let uart = session.server.services.first { $0.uuid == GadgetbridgeSession.uartService }!
        rxHandle = uart.valueHandles[0]
        let cccd = uart.cccdHandles[1]
        reply([0x12, UInt8(cccd & 0xFF), UInt8(cccd >> 8), 0x01, 0x00])
        settle()
        Array("\u{10}setTime(1714564800);E.setTimeZone(2.0);\n".utf8).withUnsafeBytes { write($0) }
        settle()
        precondition(session.phoneKind == .android, "the watch did not take the link for Gadgetbridge's")
        watch.motor!.stateHandler = { [unowned self] on, _ in if on { self.motorOns += 1 } }
    }

    /// Answers the watch's requests (no services: Attribute Not Found) and reads its TX lines.
    private func servePhone() -> Bool {
        var served = false
        while true {
            guard case .packet(let n)? = try? link.receive(into: incoming) else { return served }
            served = true
            switch incoming[0] {
            case 0x02:
                reply([0x03, 23, 0])
            case 0x04, 0x06, 0x08, 0x10:
                reply([0x01, incoming[0], incoming[1], incoming[2], 0x0A])
            case 0x1B where n > 3:
                // A line's end; "DISMISS" has an 'I' after the first "n":"D".
                for k in 3..<n where incoming[k] == 0x0A { repliesReceived += 1 }
                if n > 10 && (3..<(n - 2)).contains(where: { incoming[$0] == 0x44 && incoming[$0 + 1] == 0x49 && incoming[$0 + 2] == 0x53 }) {
                    dismissals += 1
                }
            default:
                break
            }
        }
    }

    /// A PDU from a fixed-size array literal the compiler keeps on the stack.
    private func reply(_ bytes: [UInt8]) {
        for (i, b) in bytes.enumerated() { pdu[i] = b }
        _ = try? link.send(UnsafeRawBufferPointer(rebasing: pdu[0..<bytes.count]))
    }

    /// Writes `bytes` on RX in 20-byte Write Commands (Gadgetbridge's first chunk size).
    private func write(_ bytes: UnsafeRawBufferPointer) {
        var at = 0
        while at < bytes.count {
            let end = min(bytes.count, at + 20)
            pdu[0] = 0x52
            pdu[1] = UInt8(rxHandle & 0xFF)
            pdu[2] = UInt8(rxHandle >> 8)
            UnsafeMutableRawBufferPointer(rebasing: pdu[3..<(3 + end - at)]).copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[at..<end]))
            _ = try? link.send(UnsafeRawBufferPointer(rebasing: pdu[0..<(3 + end - at)]))
            at = end
        }
    }

    func settle() {
        var idle = 0
        var rounds = 0
        while idle < 2 {
            let events = (try? loop.runOnce(timeout: .zero)) ?? 0
            let served = servePhone()
            idle = events == 0 && !served ? idle + 1 : 0
            rounds += 1
            precondition(rounds < 1_000, "the link never went quiet")
        }
    }

    func wait(_ d: Duration) {
        loop.advanceClock(by: d)
        settle()
    }

    /// Gadgetbridge posts a notification (a new id each time).
    func notificationArrives() {
        var id = nextID
        nextID += 1
        for k in stride(from: idOffset + 6, through: idOffset, by: -1) {
            line[k] = UInt8(ascii: "0") + UInt8(id % 10)
            id /= 10
        }
        line.withUnsafeBytes { write($0) }
        settle()
    }

    func press(_ role: ButtonRole) {
        let closed = daemon.setButton(role, active: true)
        wait(.milliseconds(80))
        let opened = daemon.setButton(role, active: false)
        wait(.milliseconds(30))
        precondition(closed && opened, "the simulated board has no \(role) button")
    }

    /// The Android story: a message arrives in one line, buzzes, pops up and
    /// is flushed; the wearer dismisses it (DISMISS goes back to Gadgetbridge).
    func notificationThenDismiss() {
        notificationArrives()
        wait(.milliseconds(300))
        wait(.milliseconds(600))
        press(.negative)
    }
}
