import AMS
import ANCS
import Notifications
import HAL
import Harness
import Loop
import SimBoard
import Testing

/// The harness's `events` stream (issue 17 item 6): notification and media
/// changes as JSON lines, formatted only for a subscriber.
@Suite("Harness events stream")
struct HarnessEventsTests {
    /// An iPhone answering the consumer's Control Point writes from a table,
    /// whose consumer's events go to the harness server as the daemon
    /// routes them (after the watch).
    final class Phone: ANCSConsumerSink {
        struct Posted { var app: String; var title: String; var message: String }
        let consumer = NotificationConsumer()
        let rig: HarnessServerTests.Rig
        var posted: [UInt32: Posted] = [:]
        var appNames = ["com.apple.MobileSMS": "Messages"]
        var pending: [[UInt8]] = []

        init(rig: HarnessServerTests.Rig) {
            self.rig = rig
            consumer.sink = self
            consumer.sessionStarted(now: rig.loop.now)
        }

        func ancsWriteControlPoint(_ command: UnsafeRawBufferPointer) -> ControlPointWrite {
        pending.append(Array(command))
        return .sent
    }
        func ancsEvent(_ event: ANCSEvent) {
            guard let e = event.notificationEvent else { return }
            rig.server.notificationEvent(e, store: consumer, now: rig.loop.now)
        }

        func source(_ event: UInt8, _ uid: UInt32, flags: EventFlags = [], category: CategoryID = .social) {
            let e = NotificationSourceEvent(eventID: event == 0 ? .added : event == 1 ? .modified : .removed,
                                            flags: flags, category: category, categoryCount: 1,
                                            uid: NotificationUID(uid))
            consumer.notificationSourceReceived(e.bytes, now: rig.loop.now)
            rig.loop.runDeferred()  // the lines go out after the loop's deferred work (the redraw)
        }

        /// Answers every write (an unknown app: 0xA2).
        func answerAll() {
            let now = rig.loop.now
            while !pending.isEmpty {
                guard let command = try? ControlPointCommand(parsing: pending.removeFirst()) else { continue }
                switch command {
                case .getNotificationAttributes(let uid, let attributes):
                    let p = posted[uid.rawValue]!
                    consumer.controlPointWriteSucceeded(now: now)
                    let values: [UInt8: String] = [0: p.app, 1: p.title, 3: p.message, 4: "\(p.message.utf8.count)"]
                    consumer.dataSourceReceived(DataSourceResponseEncoder.notificationAttributes(
                        uid: uid, attributes.map { EncodedAttribute(id: $0.id, value: Array((values[$0.id] ?? "").utf8)) }),
                        now: now)
                case .getAppAttributes(let id, let attributes):
                    guard let name = appNames[String(decoding: id, as: UTF8.self)] else {
                        consumer.controlPointWriteFailed(attErrorCode: 0xA2, now: now)
                        continue
                    }
                    consumer.controlPointWriteSucceeded(now: now)
                    consumer.dataSourceReceived(DataSourceResponseEncoder.appAttributes(
                        appIdentifier: id, attributes.map { EncodedAttribute(id: $0.id, value: Array(name.utf8)) }),
                        now: now)
                case .performNotificationAction:
                    consumer.controlPointWriteSucceeded(now: now)
                }
            }
            rig.loop.runDeferred()
        }

        func post(_ uid: UInt32, app: String = "com.apple.MobileSMS", title: String, message: String = "",
                  flags: EventFlags = [.important]) {
            posted[uid] = Posted(app: app, title: title, message: message)
            source(0, uid, flags: flags)
        }
    }

    static let t0 = 0  // the manual loop starts at 0 ns

    @Test("nobody subscribed: nothing is formatted, nothing is sent")
    func nothingWithoutASubscriber() throws {
        let rig = try HarnessServerTests.Rig()
        let phone = Phone(rig: rig)
        rig.send("motor")  // a client, but not following events
        for uid in UInt32(1)...50 {
            phone.post(uid, title: "Hello \(uid)", message: "Lunch?")
            phone.answerAll()
            phone.source(2, uid)
        }
        var media = MediaState()
        media.playerName = MediaText("Music")
        for _ in 0..<100 { rig.server.mediaChanged(media, now: rig.loop.now) }
        #expect(rig.server.eventLinesFormatted == 0)
        #expect(rig.client.text == "ok motor\n")
    }

    @Test("added once the attributes and the app's name are in, then removed; every subscriber gets them")
    func addedAndRemoved() throws {
        let rig = try HarnessServerTests.Rig()
        let other = rig.connect(fd: 8)
        let phone = Phone(rig: rig)
        rig.send("events")
        rig.send("events", from: other)
        #expect(rig.client.text == "ok events\n")
        phone.post(7, title: "Anna", message: "Lunch at one?")
        #expect(rig.client.text == "ok events\n", "the title is not known yet")
        phone.answerAll()
        let added = #"{"event":"notification","change":"added","uid":7,"app":"com.apple.MobileSMS","appName":"Messages","#
            + #""title":"Anna","subtitle":null,"message":"Lunch at one?","category":"social","flags":["important"],"#
            + #""positiveLabel":null,"negativeLabel":null,"t":\#(Self.t0)}"#
        #expect(rig.client.text == "ok events\n" + added + "\n")
        phone.source(2, 7)
        let removed = #"{"event":"notification","change":"removed","uid":7,"t":\#(Self.t0)}"#
        #expect(rig.client.text == "ok events\n" + added + "\n" + removed + "\n")
        #expect(other.text == rig.client.text)
        #expect(rig.server.eventLinesFormatted == 2)
    }

    @Test("a modification is reported once refetched; a message fetched later is a modification too")
    func modified() throws {
        let rig = try HarnessServerTests.Rig()
        let phone = Phone(rig: rig)
        phone.post(3, title: "Old", message: "Body", flags: [])  // before the subscription: not reported
        phone.answerAll()
        rig.send("events")
        phone.posted[3]!.title = "New"
        phone.source(1, 3, flags: [.important])
        phone.answerAll()
        var lines = rig.client.text.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines.last!.hasPrefix(#"{"event":"notification","change":"modified","uid":3,"#))
        #expect(lines.last!.contains(#""title":"New","#) && lines.last!.contains(#""message":"Body","#))
        // A plain notification's message comes when the wearer opens it.
        phone.post(4, title: "Plain", message: "Later", flags: [])
        phone.answerAll()
        lines = rig.client.text.split(separator: "\n").map(String.init)
        #expect(lines.last!.contains(#""change":"added","uid":4,"#) && lines.last!.contains(#""message":null"#))
        phone.consumer.notificationShown(NotificationUID(4), now: rig.loop.now)
        phone.answerAll()
        lines = rig.client.text.split(separator: "\n").map(String.init)
        #expect(lines.last!.contains(#""change":"modified","uid":4,"#) && lines.last!.contains(#""message":"Later""#))
    }

    @Test("an app the phone does not name: reported a second later without its name")
    func unknownApp() throws {
        let rig = try HarnessServerTests.Rig()
        let phone = Phone(rig: rig)
        rig.send("events")
        phone.post(9, app: "com.example.unknown", title: "Hi")
        phone.answerAll()
        #expect(rig.client.text == "ok events\n")
        rig.loop.advance(by: .milliseconds(999))
        #expect(rig.client.text == "ok events\n")
        rig.loop.advance(by: .milliseconds(1))
        #expect(rig.client.text.contains(#""change":"added","uid":9,"app":"com.example.unknown","appName":null,"title":"Hi","#))
        #expect(rig.client.text.contains(#""t":\#(Self.t0 + 1_000_000_000)}"#))
    }

    @Test("strings are escaped: quotes, backslashes, line breaks, control characters; UTF-8 kept")
    func escaping() throws {
        let rig = try HarnessServerTests.Rig()
        let phone = Phone(rig: rig)
        rig.send("events")
        phone.post(5, title: "\"Quoted\" \\ back", message: "line 1\nline 2\ttab \u{01} 妈妈 🎂")
        phone.answerAll()
        let line = String(rig.client.text.split(separator: "\n").last!)
        #expect(line.contains(#""title":"\"Quoted\" \\ back","#))
        #expect(line.contains(#""message":"line 1\nline 2\ttab \u0001 妈妈 🎂","#))
        #expect(!rig.client.text.dropFirst("ok events\n".count).dropLast().contains("\n"), "one line")
    }

    @Test("media: player, state, track, elapsed at now, duration, volume")
    func media() throws {
        let rig = try HarnessServerTests.Rig()
        rig.send("events")
        var m = MediaState()
        rig.server.mediaChanged(m, now: rig.loop.now)
        m.playerName = MediaText("Music")
        m.playbackState = .playing
        m.playbackRateMilli = 1000
        m.elapsedMilliseconds = 61_500
        m.elapsedAt = rig.loop.now
        m.title = MediaText("Bohemian \"Rhapsody\"")
        m.artist = MediaText("Queen")
        m.album = MediaText("A Night at the Opera")
        m.durationMilliseconds = 354_000
        m.volumePercent = 40
        rig.loop.advance(by: .milliseconds(2000))
        rig.server.mediaChanged(m, now: rig.loop.now)
        let lines = rig.client.text.split(separator: "\n").map(String.init)
        #expect(lines == [
            "ok events",
            #"{"event":"media","player":null,"state":"paused","title":"","artist":"","album":"","elapsedMs":0,"#
                + #""durationMs":null,"volume":null,"t":\#(Self.t0)}"#,
            #"{"event":"media","player":"Music","state":"playing","title":"Bohemian \"Rhapsody\"","artist":"Queen","#
                + #""album":"A Night at the Opera","elapsedMs":63500,"durationMs":354000,"volume":40,"t":\#(Self.t0 + 2_000_000_000)}"#,
        ])
    }

    @Test("a subscriber that does not read is disconnected at 256 KiB; the others go on")
    func bounded() throws {
        let rig = try HarnessServerTests.Rig()
        let reader = rig.connect(fd: 8)
        rig.send("events")
        rig.send("events", from: reader)
        rig.client.peerReads = false
        var m = MediaState()
        m.title = MediaText(String(repeating: "x", count: 120))
        var n = 0
        while rig.client.isOpen && n < 10_000 {
            rig.server.mediaChanged(m, now: rig.loop.now)
            n += 1
        }
        #expect(!rig.client.isOpen && rig.client.mostQueued <= 256 * 1024)
        #expect(reader.isOpen && reader.text.split(separator: "\n").count == n + 1)
        #expect(rig.server.clientCount == 1)
        rig.send("quit", from: reader)
        #expect(rig.server.clientCount == 0)
        let formatted = rig.server.eventLinesFormatted
        rig.server.mediaChanged(m, now: rig.loop.now)
        #expect(rig.server.eventLinesFormatted == formatted, "no subscriber left: no formatting")
    }

    @Test("the command: 'events' takes no argument, and help lists it")
    func command() {
        #expect(HarnessCommand.parse("events") == .success(.events))
        #expect(HarnessCommand.parse("EVENTS") == .success(.events))
        #expect(HarnessCommand.parse("events all") == .failure(.init("too many arguments for events")))
        #expect(HarnessCommand.helpText.contains("events "))
    }
}
