import ATTCodec
import GATT
import Gadgetbridge
import HAL
import Loop
import PhoneServices

/// A simulated Android phone running Gadgetbridge, on the other end of a
/// message link: the GATT client of the watch's Nordic UART, in
/// Gadgetbridge's connect order (its BangleJSDeviceSupport.java):
/// it finds the UART by its UUIDs, turns TX notifications on, asks for
/// ATT_MTU 131, sends the clock line (`setTime(...);E.setTimeZone(...)`) and
/// `is_gps_active`, then plays a script of `GB(...)` lines
/// (`AndroidPhoneEvent`). Lines go as Gadgetbridge writes them: ISO-8859-1
/// with its escapes, in Write Commands of 20 bytes until the watch has sent
/// a longer notification. The watch's TX notifications are read back into
/// lines (`replies`) and logged: `phone ← {"t":"notify","id":1,"n":"DISMISS"}`.
///
/// Its own GATT server is empty, as Gadgetbridge offers nothing the watch
/// looks for (no ANCS, AMS or Current Time). Everything it keeps is bounded:
/// the log and the replies keep their newest entries, a reply longer than
/// its buffer is dropped, a line longer than the watch's is not sent.
public final class SimulatedAndroidPhone {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    let lifetime = Lifetime()
    deinit { lifetime.end() }

    /// Log entries and reply lines kept (the oldest goes first).
    public static let logCapacity = 64
    public static let replyCapacity = 32
    /// The longest reply line read (the watch's are under 100 bytes).
    public static let replyLineCapacity = 512
    /// The MTU Gadgetbridge asks for, and its first chunk size.
    static let requestedMTU = 131
    static let firstChunkSize = 20

    public let bearer: ATTBearer
    let server: GATTServer
    /// The watch's own GATT client, reused: its discovery, routing and CCCD write.
    let client: GATTClient
    /// What the phone did and read, newest last.
    public private(set) var log: [String] = []
    /// The watch's lines on TX, without `\r\n`, newest last.
    public private(set) var replies: [String] = []
    /// Called after every log entry.
    public var logHandler: ((String) -> Void)?

    private let loop: EventLoop
    private let assembler = LineAssembler(capacity: SimulatedAndroidPhone.replyLineCapacity)
    private var rxHandle: UInt16 = 0
    /// Gadgetbridge's `mtuSize`: 20, grown to the longest notification seen.
    private var chunkSize = SimulatedAndroidPhone.firstChunkSize
    /// The clock line went out: lines can follow.
    private var ready = false
    private var script: [AndroidPhoneEvent] = []
    private var scriptIndex = 0
    /// The phone's local clock when it was set, and the zone (seconds east of UTC).
    private var clockLocal = CivilTime(year: 2024, month: 5, day: 1, hour: 12).secondsSinceEpoch
    private var clockSetAt: MonotonicInstant
    private var zoneSeconds: Int32 = 0
    /// The line being written, reused.
    private var line: [UInt8] = []

    public init(channel: PacketChannel, loop: EventLoop) {
        var configuration = ATTBearer.Configuration()
        configuration.localMTU = Self.requestedMTU
        // A whole notify line in 20-byte writes (at most 4 KB: about 205) may wait for the link.
        configuration.backlogCapacity = 256
        self.loop = loop
        clockSetAt = loop.now
        bearer = ATTBearer(channel: channel, loop: loop, configuration: configuration)
        server = GATTServer(security: nil)
        server.attach(to: bearer)
        client = GATTClient(bearer: bearer, watching: [GadgetbridgeSession.uartService])
        line.reserveCapacity(GadgetbridgeSession.Limits().lineCapacity)
        bearer.closeHandler = { [unowned(unsafe) self] _ in self.record("link closed") }
    }

    /// Connects as Gadgetbridge does: discovery, TX notifications, MTU, the clock line.
    /// (`GATTClient.start` would exchange the MTU first: its discovery is run alone.)
    public func start() throws(HALError) {
        try bearer.start()
        record("connected")
        GATTDiscovery(bearer: bearer, range: .all, uuids: client.watchedServices) { [lifetime, unowned(unsafe) self] result in
            if !lifetime.isOver { self.discovered(result) }
        }.start()
    }

    private func discovered(_ result: Result<[GATTService], GATTError>) {
        guard case .success(let services) = result, let uart = services.first,
            let rx = uart.characteristic(GadgetbridgeSession.uartRX), let tx = uart.characteristic(GadgetbridgeSession.uartTX)
        else { return record("no Nordic UART on the watch") }
        rxHandle = rx.valueHandle
        record("found the Nordic UART")
        client.subscribe(tx, handler: { [unowned(unsafe) self] value in self.notified(value) }) {
            [lifetime, unowned(unsafe) self] error in
            guard !lifetime.isOver else { return }
            guard error == nil else { return self.record("TX notifications refused") }
            self.record("TX notifications on")
            _ = try? self.bearer.exchangeMTU { [lifetime, unowned(unsafe) self] _ in
                if !lifetime.isOver { self.connected() }
            }
        }
    }

    private func connected() {
        record("mtu " + String(bearer.mtu))
        ready = true
        sendClock()
        // Gadgetbridge asks whether the watch wants the phone's GPS, on every connection.
        send(#"{"t":"is_gps_active"}"#)
        step()
    }

    // MARK: - script

    /// Plays `events` once connected (waits use the loop's timers); clock
    /// steps at its start set the clock line sent on connecting.
    public func run(_ events: [AndroidPhoneEvent]) {
        script = events
        scriptIndex = 0
        while scriptIndex < script.count, setClock(script[scriptIndex]) { scriptIndex += 1 }
        if ready {
            sendClock()
            step()
        }
    }

    private func step() {
        while scriptIndex < script.count {
            let event = script[scriptIndex]
            scriptIndex += 1
            switch event {
            case .wait(let d):
                loop.schedule(after: d) { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.step() } }
                return
            case .message(let json):
                send(json)
            case .time, .timeZone:
                _ = setClock(event)
                sendClock()
            }
        }
    }

    /// Takes a clock step (false: `event` is not one).
    private func setClock(_ event: AndroidPhoneEvent) -> Bool {
        switch event {
        case .time(let local):
            clockLocal = local
            clockSetAt = loop.now
        case .timeZone(let seconds):
            zoneSeconds = seconds
        default:
            return false
        }
        return true
    }

    // MARK: - to the watch

    /// Gadgetbridge's `transmitTime`: UTC seconds, then the zone in hours as Java prints a float.
    private func sendClock() {
        let utc = clockLocal + loop.now.duration(since: clockSetAt).components.seconds - Int64(zoneSeconds)
        let quarters = abs(Int(zoneSeconds)) / 900
        let fraction = quarters % 4 == 0 ? ".0" : quarters % 4 == 1 ? ".25" : quarters % 4 == 2 ? ".5" : ".75"
        let hours = (zoneSeconds < 0 ? "-" : "") + String(quarters / 4) + fraction
        let clock = "setTime(" + String(utc) + ");E.setTimeZone(" + hours + ");"
        record("phone → " + clock)
        line.removeAll(keepingCapacity: true)
        line.append(0x10)
        line += clock.utf8
        line += "(s=>s&&(s.timezone=".utf8
        line += hours.utf8
        line += ",require('Storage').write('setting.json',s)))(require('Storage').readJSON('setting.json',1))\n".utf8
        writeLine()
    }

    /// One `GB(...)` line: `json` written as Gadgetbridge's jsonToString writes text.
    private func send(_ json: String) {
        record("phone → " + json)
        line.removeAll(keepingCapacity: true)
        line.append(0x10)
        line += "GB(".utf8
        Self.appendLatin1(json, to: &line)
        line += ")\n".utf8
        writeLine()
    }

    /// `text` as Gadgetbridge puts a string on the UART: ISO-8859-1, with
    /// `\uNNNN` per UTF-16 unit past it and `\xNN` for the bytes that would
    /// start a UTF-8 sequence (its jsonToStringInternal; the `atob` form is not used).
    static func appendLatin1(_ text: String, to line: inout [UInt8]) {
        for unit in text.utf16 {
            if unit > 0xFF {
                line += "\\u".utf8
                line.append(hexDigit(unit >> 12))
                line.append(hexDigit(unit >> 8))
                line.append(hexDigit(unit >> 4))
                line.append(hexDigit(unit))
            } else if unit == 0x7F || unit == 0xAD || (unit >= 0xC2 && unit <= 0xF4) {
                line += "\\x".utf8
                line.append(hexDigit(unit >> 4))
                line.append(hexDigit(unit))
            } else {
                // ASCII, and the rest of Latin-1 as one raw byte.
                line.append(UInt8(unit))
            }
        }
    }

    private static func hexDigit(_ value: UInt16) -> UInt8 {
        let v = UInt8(value & 0xF)
        return v < 10 ? 0x30 + v : 0x57 + v
    }

    /// Writes `line` on RX in Write Commands of `chunkSize` bytes (cut anywhere, as Gadgetbridge does).
    private func writeLine() {
        guard line.count <= GadgetbridgeSession.Limits().lineCapacity else {
            return record("a line longer than the watch reads: not sent")
        }
        let chunk = max(1, min(chunkSize, bearer.mtu - 3))
        var at = 0
        while at < line.count {
            let end = min(at + chunk, line.count)
            let sent: Bool = line.withUnsafeBytes { bytes in
                (try? client.writeWithoutResponse(handle: rxHandle, value: UnsafeRawBufferPointer(rebasing: bytes[at..<end]))) != nil
            }
            guard sent else { return record("the link refused a write: the line is cut") }
            at = end
        }
    }

    // MARK: - from the watch

    private func notified(_ value: UnsafeRawBufferPointer) {
        // Gadgetbridge writes in chunks as long as the longest notification it has seen.
        if value.count > chunkSize { chunkSize = min(value.count, bearer.mtu - 3) }
        assembler.append(value, line: { bytes in self.replied(bytes) }, overlong: {
            self.record("phone ← a line too long: dropped")
        })
    }

    private func replied(_ bytes: UnsafeRawBufferPointer) {
        // Gadgetbridge drops the byte before \n, taking it for Espruino's \r.
        guard let last = bytes.last else { return }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes.dropLast()), as: UTF8.self)
        if last != 0x0D { record("phone ← a line without \\r\\n: Gadgetbridge loses its last byte") }
        if text.isEmpty { return }
        if replies.count == Self.replyCapacity { replies.removeFirst() }
        replies.append(text)
        record("phone ← " + text)
    }

    private func record(_ entry: String) {
        if log.count == Self.logCapacity { log.removeFirst() }
        log.append(entry)
        logHandler?(entry)
    }
}
