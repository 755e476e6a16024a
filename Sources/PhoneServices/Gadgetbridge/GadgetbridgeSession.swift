import AMS
import ATTCodec
import GATT
import Gadgetbridge
import HAL
import Loop
import Notifications
import PhoneFeeds

/// Gadgetbridge (an Android phone's companion app) on one phone link: the
/// Nordic UART Service the watch publishes carries its lines. The phone's
/// writes on RX are put back together into lines (`LineAssembler`), read in
/// place (`JSONReader`) and handed on: notifications and calls to
/// `GadgetbridgeSource`, the player to `media`, the clock as `.phoneTime`;
/// the watch's replies go back as notifications on TX, cut to the link's MTU.
///
/// The first line that is Gadgetbridge's (a `GB(...)` message or its clock
/// line) makes this an Android link: `.gadgetbridgeStarted` tells the watch
/// to read this source instead of ANCS. Malformed or overlong lines are
/// dropped and reported (each reason once per link); nothing here traps on
/// what a phone writes. Steady state allocates nothing: buffers and
/// closures are made here once.
public final class GadgetbridgeSession {
    /// Why a line from the phone was dropped.
    public enum LineProblem: Equatable, Sendable, CustomStringConvertible {
        case malformed(JSONError)
        case notAMessage(GadgetbridgeMessage.DecodeError)
        /// Longer than the line buffer (`LineAssembler.capacity`).
        case overlong(limit: Int)

        var bit: UInt8 {
            switch self {
            case .malformed: 1
            case .notAMessage: 2
            case .overlong: 4
            }
        }

        public var description: String {
            switch self {
            case .malformed(let e): "not JSON (\(e))"
            case .notAMessage(.noType): "JSON without a message type"
            case .notAMessage(.noID): "a message without its id"
            case .overlong(let limit): "a line longer than \(limit) bytes"
            }
        }
    }

    /// The lines' limits (DESIGN.md: everything is bounded).
    public struct Limits: Sendable {
        /// The longest line kept. Gadgetbridge sends a notification whole in
        /// one line: its title and subject cut to 80 characters, body to 400,
        /// sender to 40; escaped (`\u0417` is 6 bytes) about 3.7 KB at most.
        public var lineCapacity = 4096
        /// Values (keys, strings, numbers, containers) one line may hold.
        public var maxValues = 128
        public var maxDepth = 8
        public init() {}
    }

    /// Nordic UART Service and its two characteristics (what Gadgetbridge looks for).
    public static let uartService = BluetoothUUID("6E400001-B5A3-F393-E0A9-E50E24DCCA9E")!
    /// Written by the phone.
    public static let uartRX = BluetoothUUID("6E400002-B5A3-F393-E0A9-E50E24DCCA9E")!
    /// Notified to the phone.
    public static let uartTX = BluetoothUUID("6E400003-B5A3-F393-E0A9-E50E24DCCA9E")!

    public let source: GadgetbridgeSource
    /// What the phone's player is doing (Gadgetbridge's `musicinfo` / `musicstate`).
    public private(set) var media = MediaState()
    /// The phone spoke Gadgetbridge on this link.
    public private(set) var isActive = false
    /// Lines read and handed on, and lines dropped (any reason).
    public private(set) var linesRead = 0
    public private(set) var linesDropped = 0

    private let assembler: LineAssembler
    private let reader: JSONReader
    private let loop: any EventLoop
    /// Where its events go (the owning session sets it once).
    var emit: (PhoneSession.Event) -> Void
    private unowned(unsafe) var server: GATTServer?
    private var txHandle: UInt16 = 0
    private let replyBuffer: UnsafeMutableRawBufferPointer
    /// `LineProblem.bit`s already reported on this link.
    private var reportedProblems: UInt8 = 0
    private var reportedReplyDropped = false
    private var firmware = "WristCore"
    /// The phone's zone offset in seconds (its clock line), for calendar times.
    private var zoneOffset: Int64 = 0

    init(capacity: Int, fieldCapacities: InlineArray<6, Int>, limits: Limits, loop: any EventLoop,
         emit: @escaping (PhoneSession.Event) -> Void) {
        source = GadgetbridgeSource(capacity: capacity, fieldCapacities: fieldCapacities)
        assembler = LineAssembler(capacity: limits.lineCapacity)
        reader = JSONReader(maxValues: limits.maxValues, maxDepth: limits.maxDepth, maxLength: limits.lineCapacity)
        replyBuffer = .allocate(byteCount: GadgetbridgeReply.maxLength, alignment: 1)
        self.loop = loop
        self.emit = emit
        source.events = { [unowned(unsafe) self] event in self.emit(.notification(event)) }
        source.send = { [unowned(unsafe) self] reply in self.send(reply) }
        source.canReply = { [unowned(unsafe) self] in self.canReply }
    }

    deinit { replyBuffer.deallocate() }

    /// Where replies go: the watch's server and its TX characteristic.
    /// `firmware` is what the watch tells the phone it runs.
    func attach(server: GATTServer, txHandle: UInt16, firmware: String) {
        self.server = server
        self.txHandle = txHandle
        self.firmware = firmware
    }

    /// The phone turned TX notifications on or off. On: the watch says
    /// what it is, as a Bangle.js does on connecting (Gadgetbridge never asks).
    func subscriptionChanged(valueHandle: UInt16, configuration: UInt16) {
        guard valueHandle == txHandle, configuration & 1 != 0 else { return }
        send(.version(firmware))
    }

    /// Whether the phone subscribed to TX (replies can reach it).
    public var canReply: Bool { server.map { $0.clientConfiguration(of: txHandle) & 1 != 0 } ?? false }

    // MARK: - From the link

    /// A write on RX (a Write Request or Write Command): part of a line, or several.
    func received(_ bytes: UnsafeRawBufferPointer) {
        assembler.append(bytes, line: { line in self.line(line) }, overlong: { self.dropped(.overlong(limit: self.assembler.capacity)) })
    }

    /// The link closed: a half line goes, the source's session ends.
    func linkClosed() {
        assembler.reset()
        if isActive {
            source.sessionEnded()
            if media.hasPlayer {
                media.reset()
                emit(.media(.unavailable))
            }
        }
    }

    private func line(_ bytes: UnsafeRawBufferPointer) {
        switch GadgetbridgeLine(bytes) {
        case .empty, .other:
            // A Bangle.js's own JavaScript (Gadgetbridge's "Sync" of apps): not ours.
            return
        case .setTime(let utc, let zone):
            started()
            linesRead += 1
            phoneTime(utc: utc, zoneOffset: zone)
        case .message(let json):
            guard let message = decode(json) else { return }
            started()
            linesRead += 1
            handle(message)
        }
    }

    /// The message in `GB(...)`, or nil (dropped and reported).
    private func decode(_ json: UnsafeRawBufferPointer) -> GadgetbridgeMessage? {
        let value: JSONValue
        do throws(JSONError) {
            value = try reader.read(json)
        } catch {
            dropped(.malformed(error))
            return nil
        }
        do throws(GadgetbridgeMessage.DecodeError) {
            return try GadgetbridgeMessage(value)
        } catch {
            dropped(.notAMessage(error))
            return nil
        }
    }

    private func handle(_ message: GadgetbridgeMessage) {
        switch message {
        case .notify(let n): source.post(n)
        case .notifyRemoved(let id): source.withdraw(phoneID: id)
        case .call(let c): source.call(c)
        case .musicInfo(let m):
            media.title.set(m.track)
            media.artist.set(m.artist)
            media.album.set(m.album)
            media.durationMilliseconds = m.durationSeconds.map { $0 * 1000 }
            mediaChanged(.track)
        case .musicState(let m):
            media.playbackState = m.state == .play ? .playing : .paused
            media.playbackRateMilli = m.state == .play ? 1000 : 0
            if let p = m.positionSeconds {
                media.elapsedMilliseconds = p * 1000
                media.elapsedAt = loop.now
            }
            mediaChanged(.playback)
        case .find(let on): emit(.findWatch(on))
        case .vibrate(let count): emit(.buzz(count: count))
        case .weather(let w): emit(.weather(Self.report(w)))
        case .calendar(let c): emit(.calendarEvent(calendarEvent(c)))
        case .calendarRemoved(let ids):
            if let id = ids.integer { emit(.calendarEventRemoved(id: id)) }
            ids.forEachElement { if let id = $0.integer { emit(.calendarEventRemoved(id: id)) } }
        case .calendarSyncRequested: emit(.calendarSyncRequested)
        case .alarms(let list):
            var alarms = PhoneAlarms()
            list.forEachElement { a in
                alarms.append(PhoneAlarms.Alarm(
                    hour: Int(clamping: a["h"]?.integer ?? -1), minute: Int(clamping: a["m"]?.integer ?? -1),
                    weekdays: UInt8(truncatingIfNeeded: (a["rep"]?.integer ?? 0) & 0x7F), enabled: a["on"]?.bool ?? false))
            }
            emit(.alarms(alarms))
        case .unsupported(let type): emit(.gadgetbridgeUnsupported(type))
        }
    }

    private func started() {
        guard !isActive else { return }
        isActive = true
        emit(.gadgetbridgeStarted)
        source.sessionStarted()
        // Gadgetbridge sends a calendar event once; after a restart of the
        // watch (or another phone) it must learn which ones to send again.
        emit(.calendarSyncRequested)
    }

    private func phoneTime(utc: Int64, zoneOffset: Int32?) {
        // The watch keeps the phone's local time (as CTS gives it); Gadgetbridge's
        // zone offset already holds daylight saving time.
        if let zoneOffset { self.zoneOffset = Int64(zoneOffset) }
        let local = utc + Int64(zoneOffset ?? 0)
        let time = CurrentTime(CivilTime(secondsSinceEpoch: local))
        var zone: LocalTimeInformation? = nil
        if let zoneOffset { zone = LocalTimeInformation(timeZoneQuarterHours: Int8(clamping: zoneOffset / 900), dstQuarterHours: 0) }
        emit(.phoneTime(PhoneClock(time: time, receivedAt: loop.now, localTimeInformation: zone)))
    }

    /// Gadgetbridge's weather in the watch's units.
    private static func report(_ w: GadgetbridgeMessage.Weather) -> WeatherReport {
        var r = WeatherReport(temperature: w.temperatureKelvin.map(WeatherReport.celsius(kelvin:)) ?? 0)
        r.high = w.highKelvin.map(WeatherReport.celsius(kelvin:))
        r.low = w.lowKelvin.map(WeatherReport.celsius(kelvin:))
        r.humidity = w.humidity.map { Int(clamping: min(max($0, 0), 100)) }
        r.windKmh = w.windKmh.map { Int(clamping: min(max($0, 0), 999)) }
        r.windDirection = w.windDirection.map { Int(clamping: $0 % 360) }
        r.summary.set(w.text)
        r.location.set(w.location)
        return r
    }

    /// A calendar entry with its start on the watch's clock: the phone's
    /// zone applied (an all-day event keeps its UTC midnight, its date).
    private func calendarEvent(_ c: GadgetbridgeMessage.CalendarEntry) -> CalendarEvent {
        let start = min(max(c.start, 0), 253_402_300_799)  // 1970 ... 9999, like the clock line
        var e = CalendarEvent(
            id: c.id, start: c.allDay ? start : start + zoneOffset, durationSeconds: min(c.durationSeconds, 366 * 86_400),
            allDay: c.allDay)
        e.title.set(c.title)
        e.location.set(c.location)
        return e
    }

    /// Tells Gadgetbridge which calendar events the watch holds: it forgets
    /// the others and sends what is missing (`force_calendar_sync`).
    @discardableResult
    public func sendCalendarSync(_ agenda: Agenda) -> Bool {
        var ids = GadgetbridgeReply.CalendarIDs()
        agenda.forEachID { ids.append($0) }
        return send(.calendarSync(ids))
    }

    /// Tells Gadgetbridge the watch's battery (on connecting, and when it changes).
    @discardableResult
    public func sendBatteryStatus(_ reading: BatteryReading) -> Bool {
        send(.status(percent: reading.percent, charging: reading.charging, millivolts: reading.millivolts))
    }

    /// Rings the phone (Gadgetbridge's "find phone"), or stops it.
    @discardableResult
    public func findPhone(_ on: Bool) -> Bool { send(.findPhone(on)) }

    private func mediaChanged(_ change: MediaChange) {
        if !media.supportedCommandsKnown {
            // What Gadgetbridge's `music` reply carries.
            // Play, pause, toggle, next, previous, volume up and down: RemoteCommandID 0-6.
            media.supportedCommands = RemoteCommands(rawValue: 0x7F)
            media.supportedCommandsKnown = true
            emit(.media(.available))
        }
        emit(.media(.changed(change)))
    }

    private func dropped(_ problem: LineProblem) {
        linesDropped += 1
        guard reportedProblems & problem.bit == 0 else { return }
        reportedProblems |= problem.bit
        emit(.gadgetbridgeLineDropped(problem))
    }

    // MARK: - To the phone

    /// A Remote Command from the Now Playing screen, as Gadgetbridge's `music`.
    func sendRemoteCommand(_ id: RemoteCommandID) -> Bool {
        let command: GadgetbridgeReply.MusicCommand
        switch id {
        case .play: command = .play
        case .pause: command = .pause
        case .togglePlayPause: command = .playPause
        case .nextTrack: command = .next
        case .previousTrack: command = .previous
        case .volumeUp: command = .volumeUp
        case .volumeDown: command = .volumeDown
        default: return false
        }
        return send(.music(command))
    }

    /// Writes one reply line on TX, cut to the link's MTU; false when the
    /// phone is not subscribed or the link refused it (dropped, reported once).
    @discardableResult
    func send(_ reply: GadgetbridgeReply) -> Bool {
        guard let server, let bearer = server.bearer, canReply else { return false }
        let length = reply.encode(into: replyBuffer)
        let chunk = max(1, bearer.mtu - 3)
        var at = 0
        while at < length {
            let end = min(length, at + chunk)
            guard server.notify(valueHandle: txHandle, value: UnsafeRawBufferPointer(rebasing: replyBuffer[at..<end])) else {
                if !reportedReplyDropped { emit(.gadgetbridgeReplyDropped) }
                reportedReplyDropped = true
                return false
            }
            at = end
        }
        return true
    }
}
