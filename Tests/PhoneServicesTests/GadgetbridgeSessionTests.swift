import AMS
import ATTCodec
import GATT
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import Notifications
import PhoneFeeds
import PhoneServices
import Testing

/// An Android phone running Gadgetbridge, scripted in raw ATT PDUs over a
/// SEQPACKET socket pair against the watch's PhoneSession on the real event
/// loop. It answers the watch's own discovery as a phone with no services
/// (no ANCS), and writes its lines on the UART's RX in 20-byte Write
/// Commands, as Gadgetbridge does at first (docs/android.md).
final class AndroidPhone {
    let loop: EpollLoop
    let phone: SeqPacketChannel
    let session: PhoneSession
    var events: [PhoneSession.Event] = []
    /// TX notifications the watch sent, joined (the phone reads them as lines).
    var received: [UInt8] = []
    let rx: UInt16, tx: UInt16, cccd: UInt16

    init(mtu: UInt16 = 23) throws {
        loop = try EpollLoop()
        let (w, p) = try SeqPacketChannel.pair()
        phone = p
        session = PhoneSession(channel: w, loop: loop, security: nil, firmwareRevision: "WristCore 9.9")
        session.ancsAbsenceGrace = .milliseconds(100)
        let uart = session.server.services.first { $0.uuid == GadgetbridgeSession.uartService }!
        (rx, tx, cccd) = (uart.valueHandles[0], uart.valueHandles[1], uart.cccdHandles[1])
        self.mtu = mtu
        session.eventHandler = { [unowned self] e in self.events.append(e) }
        try session.start()
        pump()
    }

    private let mtu: UInt16

    /// Runs the loop a little, answering the watch's requests.
    func pump(_ rounds: Int = 4) {
        for _ in 0..<rounds {
            _ = try? loop.runUntil(timeout: .milliseconds(5)) { false }
            var buffer = [UInt8](repeating: 0, count: 600)
            while true {
                let result = buffer.withUnsafeMutableBytes { try? phone.receive(into: $0) }
                guard case .packet(let n)? = result else { break }
                answer(Array(buffer[..<n]))
            }
        }
        _ = try? loop.runUntil(timeout: .milliseconds(5)) { false }
    }

    private func answer(_ pdu: [UInt8]) {
        let handle = pdu.count >= 3 ? [pdu[1], pdu[2]] : [0, 0]
        switch pdu[0] {
        case 0x02: send([0x03, UInt8(mtu & 0xFF), UInt8(mtu >> 8)])
        case 0x04, 0x06, 0x08, 0x10: send([0x01, pdu[0]] + handle + [0x0A])  // nothing here: no ANCS
        case 0x1B: received += pdu[3...]
        default: break
        }
    }

    func send(_ pdu: [UInt8]) {
        _ = pdu.withUnsafeBytes { try? phone.send($0) }
    }

    /// Subscribes to TX (a Write Request on its CCCD).
    func subscribe() {
        send([0x12, UInt8(cccd & 0xFF), UInt8(cccd >> 8), 0x01, 0x00])
        pump()
    }

    /// Writes `bytes` on RX in Write Commands of `chunk` bytes.
    func write(_ bytes: [UInt8], chunk: Int = 20) {
        var at = 0
        while at < bytes.count {
            let end = min(bytes.count, at + chunk)
            send([0x52, UInt8(rx & 0xFF), UInt8(rx >> 8)] + bytes[at..<end])
            at = end
        }
        pump()
    }

    func write(line: String, chunk: Int = 20) { write(Array(line.utf8), chunk: chunk) }

    /// What the watch wrote back, as lines (each must end in \r\n).
    var lines: [String] {
        // Bytes, not Characters: Swift reads "\r\n" as one Character.
        received.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
    }

    var notificationEvents: [NotificationEvent] {
        events.compactMap { if case .notification(let e) = $0 { e } else { nil } }
    }

    func text(_ uid: UInt32, _ field: NotificationField) -> String? {
        session.notifications.notification(NotificationID(uid)).map { String(decoding: $0.bytes(field), as: UTF8.self) }
    }
}

@Suite("Gadgetbridge over the UART (a scripted Android phone)")
struct GadgetbridgeSessionTests {
    static let prelude = "\u{10}setTime(1735732800);E.setTimeZone(1.0);(s=>s&&(s.timezone=1.0,require('Storage').write('setting.json',s)))(require('Storage').readJSON('setting.json',1))\n"

    @Test func subscribingGetsTheVersionAndTheClockLineMakesItAnAndroidLink() throws {
        let p = try AndroidPhone()
        #expect(p.session.phoneKind == .unknown)
        p.subscribe()
        #expect(p.lines == ["{\"t\":\"ver\",\"fw\":\"WristCore 9.9\",\"hw\":\"WristCore\"}\r"])
        p.write(line: Self.prelude)
        #expect(p.session.phoneKind == .android)
        #expect(p.events.contains { if case .gadgetbridgeStarted = $0 { true } else { false } })
        let clock = p.events.compactMap { if case .phoneTime(let c) = $0 { c } else { nil } }.first
        // 2025-01-01 12:00 UTC, one hour east: 13:00 local.
        #expect(clock?.time.description == "2025-01-01 13:00:00")
        #expect(clock?.localTimeInformation?.utcOffsetSeconds == 3600)
        #expect(p.notificationEvents == [.sessionStarted])
        // No "the phone offers no ANCS" hint for an Android phone, even after the grace.
        _ = try? p.loop.runUntil(timeout: .milliseconds(200)) { false }
        #expect(!p.events.contains { if case .ancsUnavailable = $0 { true } else { false } })
    }

    @Test func aNotificationArrivesInTwentyByteWritesAndIsDismissedFromTheWatch() throws {
        let p = try AndroidPhone()
        p.subscribe()
        p.write(line: Self.prelude)
        // Gadgetbridge's bytes for title "René", body "Café at 5?\nOK" (docs/android.md).
        p.write(line: #"\#u{10}GB({"t":"notify","id":1234,"src":"WhatsApp","title":"Ren\xe9","subject":"","body":"Caf\xe9 at 5?\nOK","sender":"Ren\xe9","tel":"+441234567890"})"# + "\n")
        let uid = NotificationID(1234)
        #expect(p.notificationEvents.suffix(2) == [
            .added(NotificationInfo(uid: uid, flags: [.important, .positiveAction, .negativeAction], category: .other, categoryCount: 0)),
            .contentArrived(uid, [.appIdentifier, .title, .message, .positiveActionLabel, .negativeActionLabel]),
        ])
        #expect(p.text(1234, .title) == "René")
        #expect(p.text(1234, .message) == "Café at 5?\nOK")
        #expect(p.text(1234, .appIdentifier) == "WhatsApp")
        #expect(p.session.notifications.notification(uid)?.appDisplayName == "WhatsApp")
        #expect(p.text(1234, .negativeActionLabel) == "Dismiss")

        try p.session.performAction(.negative, on: uid)
        p.pump()
        #expect(p.lines.last == "{\"t\":\"notify\",\"id\":1234,\"n\":\"DISMISS\"}\r")
        #expect(p.session.notifications.notificationCount == 0)
        #expect(p.notificationEvents.suffix(2) == [.actionSent(uid, .negative), .removed(uid, .removedByPhone)])
    }

    @Test func weatherAndCalendarArriveInTheWatchUnitsAndTheCalendarIsReconciled() throws {
        let p = try AndroidPhone()
        p.subscribe()
        p.write(line: Self.prelude)
        // On starting, the watch is asked for its calendar ids (the controller answers from its agenda).
        #expect(p.events.contains { if case .calendarSyncRequested = $0 { true } else { false } })
        var agenda = Agenda()
        var kept = CalendarEvent(id: 41, start: 0, durationSeconds: 0, allDay: false)
        kept.title = MediaText("kept")
        agenda.insert(kept, now: nil)
        p.session.gadgetbridge.sendCalendarSync(agenda)
        p.pump()
        #expect(p.lines.last == "{\"t\":\"force_calendar_sync\",\"ids\":[41]}\r")

        p.write(line: #"\#u{10}GB({"t":"weather","temp":288,"hi":291,"lo":282,"hum":72,"rain":20,"uv":3,"code":802,"txt":"scattered clouds","wind":12.5,"wdir":230,"loc":"Berlin"})"# + "\n")
        let weather = p.events.compactMap { if case .weather(let w) = $0 { w } else { nil } }.last
        #expect(weather?.temperature == 15 && weather?.high == 18 && weather?.low == 9)
        #expect(weather?.windKmh == 12 && weather?.windDirection == 230 && weather?.humidity == 72)
        #expect(weather?.summary.string == "scattered clouds" && weather?.location.string == "Berlin")

        // 12:00 UTC on the phone one hour east: 13:00 on the watch; an all-day event keeps its date.
        p.write(line: #"\#u{10}GB({"t":"calendar","id":5678,"type":0,"timestamp":1735732800,"durationInSeconds":3600,"title":"Standup","description":"","location":"Room 1","calName":"Work","color":-16776961,"allDay":false})"# + "\n")
        p.write(line: #"\#u{10}GB({"t":"calendar","id":9,"timestamp":1735689600,"durationInSeconds":86400,"title":"Holiday","allDay":true})"# + "\n")
        let events = p.events.compactMap { if case .calendarEvent(let e) = $0 { e } else { nil } }
        #expect(events.map(\.id) == [5678, 9])
        #expect(CivilTime(secondsSinceEpoch: events[0].start).description == "2025-01-01T13:00:00")
        #expect(events[0].durationSeconds == 3600 && events[0].title.string == "Standup" && events[0].location.string == "Room 1")
        #expect(CivilTime(secondsSinceEpoch: events[1].start).description == "2025-01-01T00:00:00" && events[1].allDay)

        p.write(line: #"\#u{10}GB({"t":"calendar-","id":[5678,9]})"# + "\n")
        let removed = p.events.compactMap { if case .calendarEventRemoved(let id) = $0 { id } else { nil } }
        #expect(removed == [5678, 9])
        let asked = p.events.count { if case .calendarSyncRequested = $0 { true } else { false } }
        p.write(line: #"\#u{10}GB({"t":"force_calendar_sync_start"})"# + "\n")
        #expect(p.events.count { if case .calendarSyncRequested = $0 { true } else { false } } == asked + 1)
    }

    @Test func repliesAndMuteGoToGadgetbridgeWhereItTakesThem() throws {
        let p = try AndroidPhone()
        p.subscribe()
        p.write(line: Self.prelude)
        p.write(line: #"\#u{10}GB({"t":"notify","id":11,"src":"Signal","title":"Ana","body":"Lunch?","reply":true})"# + "\n")
        p.write(line: #"\#u{10}GB({"t":"notify","id":12,"src":"SMS Message","title":"Bob","body":"Hi","tel":"+4912345"})"# + "\n")
        p.write(line: #"\#u{10}GB({"t":"notify","id":13,"src":"Gmail","title":"Build","body":"green"})"# + "\n")
        p.write(line: #"\#u{10}GB({"t":"call","cmd":"incoming","name":"Mom","number":"+331"})"# + "\n")
        let source = p.session.notifications
        #expect(source.offers(.reply, on: NotificationID(11)) && source.offers(.reply, on: NotificationID(12)))
        #expect(!source.offers(.reply, on: NotificationID(13)) && source.offers(.muteApp, on: NotificationID(13)))
        var call: NotificationID?
        source.forEachNotification(newestFirst: true) { if $0.category == .incomingCall { call = $0.uid } }
        #expect(call.map { !source.offers(.muteApp, on: $0) && !source.offers(.reply, on: $0) } == true)

        var text = "On my way \u{1F697}"
        #expect(text.withUTF8 { p.session.send(.reply, on: NotificationID(11), text: UnsafeRawBufferPointer($0)) })
        #expect(!text.withUTF8 { p.session.send(.reply, on: NotificationID(13), text: UnsafeRawBufferPointer($0)) })
        #expect(p.session.send(.muteApp, on: NotificationID(13), text: UnsafeRawBufferPointer(start: nil, count: 0)))
        p.pump()
        #expect(p.lines.suffix(2) == [
            #"{"t":"notify","id":11,"n":"REPLY","msg":"On my way \ud83d\ude97"}"# + "\r",
            #"{"t":"notify","id":13,"n":"MUTE"}"# + "\r",
        ])
    }

    /// Gadgetbridge does not resend: after a dropped link the next link's
    /// store takes the list over, and its buttons reach the phone again.
    @Test func aNewLinkTakesOverTheListAndItsActions() throws {
        let first = try AndroidPhone()
        first.subscribe()
        first.write(line: Self.prelude)
        first.write(line: #"\#u{10}GB({"t":"notify","id":21,"src":"Signal","title":"Ana","body":"Lunch?"})"# + "\n")
        first.write(line: #"\#u{10}GB({"t":"call","cmd":"incoming","name":"Mom","number":"+331"})"# + "\n")
        #expect(first.session.notifications.notificationCount == 2)

        let second = try AndroidPhone()
        second.session.adoptPreviousSession(from: first.session)
        second.subscribe()
        second.write(line: Self.prelude)
        let store = second.session.notifications
        #expect(store.notificationCount == 1)  // the call rang on the old link
        #expect(second.text(21, .title) == "Ana" && second.text(21, .message) == "Lunch?")
        try second.session.performAction(.negative, on: NotificationID(21))
        second.pump()
        #expect(second.lines.last == "{\"t\":\"notify\",\"id\":21,\"n\":\"DISMISS\"}\r")
        // A new notification after it is still the newest.
        second.write(line: #"\#u{10}GB({"t":"notify","id":22,"src":"Signal","title":"Ben","body":"Hi"})"# + "\n")
        var newest: NotificationID?
        store.forEachNotification(newestFirst: true) { if newest == nil { newest = $0.uid } }
        #expect(newest == NotificationID(22))
    }

    /// Kept for the watch's own alarms (issue 25): the whole list, bounded, times checked.
    @Test func thePhoneSetAlarmsAreKept() throws {
        let p = try AndroidPhone()
        p.subscribe()
        p.write(line: Self.prelude)
        let slots = (0..<12).map { #"{"h":\#($0 + 6),"m":30,"rep":31,"on":true}"# }.joined(separator: ",")
        p.write(line: #"\#u{10}GB({"t":"alarm","d":[{"h":7,"m":30,"rep":159,"on":true},{"h":25,"m":0,"rep":0,"on":true},{"h":9,"m":5,"rep":0,"on":false}]})"# + "\n")
        p.write(line: "\u{10}GB({\"t\":\"alarm\",\"d\":[\(slots)]})\n")
        let lists = p.events.compactMap { if case .alarms(let a) = $0 { a } else { nil } }
        #expect(lists.count == 2)
        #expect(lists[0].count == 2 && lists[0].leftOut == 1 && lists[0].enabledCount == 1)
        #expect(lists[0][0] == PhoneAlarms.Alarm(hour: 7, minute: 30, weekdays: 31, enabled: true))  // rep's 8th bit dropped
        #expect(lists[0][1] == PhoneAlarms.Alarm(hour: 9, minute: 5, weekdays: 0, enabled: false))
        #expect(lists[1].count == PhoneAlarms.capacity && lists[1].leftOut == 2)
    }

    @Test func findPhoneFromTheWatch() throws {
        let p = try AndroidPhone()
        p.subscribe()
        p.write(line: Self.prelude)
        #expect(p.session.gadgetbridge.findPhone(true))
        p.pump()
        #expect(p.lines.last == "{\"t\":\"findPhone\",\"n\":true}\r")
    }

    @Test func aCallRingsAndIsAnsweredOnThePhone() throws {
        let p = try AndroidPhone()
        p.subscribe()
        p.write(line: "\u{10}GB({\"t\":\"call\",\"cmd\":\"incoming\",\"name\":\"Bob\",\"number\":\"+4912345\"})\n")
        var call: Notification? = nil
        p.session.notifications.forEachNotification(newestFirst: true) { call = $0 }
        #expect(call?.category == .incomingCall)
        #expect(call?.title == "Bob")
        #expect(call?.subtitle == "+4912345")
        #expect(call?.positiveActionLabel == "Answer")
        try p.session.performAction(.positive, on: call!.uid)
        p.pump()
        #expect(p.lines.last == "{\"t\":\"call\",\"n\":\"ACCEPT\"}\r")
        p.write(line: "\u{10}GB({\"t\":\"call\",\"cmd\":\"start\"})\n")
        #expect(p.session.notifications.notificationCount == 0)
    }

    @Test func musicGoesToNowPlayingAndItsButtonsBack() throws {
        let p = try AndroidPhone()
        p.subscribe()
        p.write(line: "\u{10}GB({\"t\":\"musicinfo\",\"artist\":\"Nina\",\"album\":\"Pastel\",\"track\":\"Blue\",\"dur\":215,\"c\":10,\"n\":2})\n")
        p.write(line: "\u{10}GB({\"t\":\"musicstate\",\"state\":\"play\",\"position\":12,\"shuffle\":1,\"repeat\":0})\n")
        let media = p.session.media
        #expect(media.hasPlayer)
        #expect(media.title == MediaText("Blue"))
        #expect(media.artist == MediaText("Nina"))
        #expect(media.durationMilliseconds == 215_000)
        #expect(media.playbackState == .playing)
        #expect(media.elapsedMilliseconds == 12_000)
        #expect(p.session.sendRemoteCommand(.nextTrack))
        #expect(!p.session.sendRemoteCommand(.likeTrack))
        p.pump()
        #expect(p.lines.last == "{\"t\":\"music\",\"n\":\"next\"}\r")
    }

    @Test func badLinesAreDroppedAndReportedOnceAndTheNextGoodOneArrives() throws {
        let p = try AndroidPhone()
        p.subscribe()
        p.write(line: "\u{10}GB({\"t\":\"notify\",\n")
        p.write(line: "\u{10}GB({\"t\":\"notify\",,})\n")
        p.write(line: "\u{10}GB({\"x\":1})\n")
        p.write(line: "\u{10}GB(" + String(repeating: "x", count: 5000) + ")\n")
        p.write(line: "\u{10}Bangle.buzz()\n")
        p.write(line: "\u{10}GB({\"t\":\"notify\",\"id\":7,\"title\":\"Still here\"})\n")
        let problems = p.events.compactMap { if case .gadgetbridgeLineDropped(let x) = $0 { x } else { nil } }
        #expect(problems.count == 3, "malformed once, not a message once, overlong once: \(problems) \(p.events)")
        #expect(p.session.gadgetbridge.linesDropped == 4)
        #expect(p.text(7, .title) == "Still here")
    }

    @Test func repliesAreCutToTheMTUAndNotSentUnsubscribed() throws {
        let p = try AndroidPhone()
        p.write(line: "\u{10}GB({\"t\":\"notify\",\"id\":99,\"title\":\"x\"})\n")
        #expect(throws: NotificationActionError.noSession, "not subscribed: nothing reaches Gadgetbridge") {
            try p.session.performAction(.positive, on: NotificationID(99))
        }
        p.subscribe()
        try p.session.performAction(.positive, on: NotificationID(99))
        p.pump()
        #expect(p.lines.last == "{\"t\":\"notify\",\"id\":99,\"n\":\"OPEN\"}\r")
    }

    @Test func theLinkClosingEndsTheSessionAndForgetsAHalfLine() throws {
        let p = try AndroidPhone()
        p.subscribe()
        p.write(line: "\u{10}GB({\"t\":\"notify\",\"id\":5,\"title\":\"kept\"})\n")
        p.write(line: "\u{10}GB({\"t\":\"notify\",\"id\":6,")
        p.phone.close()
        // Another test's fork may hold a copy of the closed end until its
        // exec: the EOF can come a little later (at most 100 pumps, ~1 s).
        for _ in 0..<100 where p.notificationEvents.last != .sessionEnded { p.pump(1) }
        #expect(p.notificationEvents.last == .sessionEnded)
        #expect(p.text(5, .title) == "kept", "the list stays shown")
        #expect(throws: NotificationActionError.noSession) { try p.session.performAction(.negative, on: NotificationID(5)) }
    }
}
