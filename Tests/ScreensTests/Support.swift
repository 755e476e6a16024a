import ANCS
import Notifications
import FoundationEssentials
import Graphics
import HAL
import LinuxHAL
import PhoneFeeds
import Screens
import SimBoard
import Testing

/// Golden files live next to this source file. Set WRISTCORE_UPDATE_GOLDEN=1
/// to rewrite them from the current output (then look at them and review
/// the diff). Set WRISTCORE_SCREENS_PNG=<dir> to also write each picture as
/// a PNG there (scale 4), for looking at.
enum Golden {
    static let directory: String = {
        var path = #filePath
        path = String(path[..<path.lastIndex(of: "/")!])
        return path + "/Golden"
    }()

    static var updating: Bool { ProcessInfo.processInfo.environment["WRISTCORE_UPDATE_GOLDEN"] == "1" }
    static var pngDirectory: String? { ProcessInfo.processInfo.environment["WRISTCORE_SCREENS_PNG"] }

    static func read(_ name: String) -> [UInt8]? {
        try? [UInt8](Data(contentsOf: URL(filePath: directory + "/" + name)))
    }

    static func write(_ name: String, _ bytes: [UInt8], in dir: String = directory) {
        try! Data(bytes).write(to: URL(filePath: dir + "/" + name))
    }

    /// Compares a picture with `Golden/<name>.pbm`.
    static func check(image: MonoImage, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let file = name + ".pbm"
        if updating { write(file, Array(image.pbmPlain(comment: name).utf8)) }
        if let dir = pngDirectory { write(name + ".png", image.png(scale: 4), in: dir) }
        guard let stored = read(file) else {
            Issue.record("missing golden file Golden/\(file); run with WRISTCORE_UPDATE_GOLDEN=1", sourceLocation: sourceLocation)
            return
        }
        do {
            let expected = try MonoImage(pbm: stored)
            #expect(image == expected, "\(file): \(image.differences(from: expected))", sourceLocation: sourceLocation)
        } catch {
            Issue.record("\(file): \(error)", sourceLocation: sourceLocation)
        }
    }

    static func check(_ fb: Framebuffer, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        check(image: MonoImage(fb), name, sourceLocation: sourceLocation)
    }
}

/// The shipped fonts, loaded once for all tests, mapped read-only as the
/// daemon loads them (ResourcePaths.screenFonts), so the goldens check that path.
let screenFonts: ScreenFonts = {
    let loader = FontLoader(mappingFrom: [FontLoader.packageFontsDirectory], mapFile: { path throws(HALError) in
        try MappedFile.mapIfPresent(path).map { FontBytes(bytes: $0.bytes, owner: $0) }
    })
    do { return try ScreenFonts.standard(loader: loader) } catch { fatalError("\(error)") }
}()

/// Answers the consumer's Control Point writes like an iPhone: Get
/// Notification Attributes from `notifications`, Get App Attributes from
/// `appNames`, in MTU-sized Data Source chunks.
final class ScriptedPhone: ANCSConsumerSink {
    struct Posted {
        var app: String
        var title: String
        var subtitle: String
        var message: String
        var date: String
        var positive: String
        var negative: String
    }

    var notifications: [UInt32: Posted] = [:]
    var appNames: [String: String] = [
        "com.apple.MobileSMS": "Messages", "com.apple.mobilephone": "Phone", "com.apple.mobilemail": "Mail",
        "com.apple.mobilecal": "Calendar", "com.tencent.xin": "WeChat",
    ]
    var pending: [[UInt8]] = []
    weak var consumer: NotificationConsumer?
    var now = MonotonicInstant(nanoseconds: 1_000_000_000)
    let mtu = 64

    func ancsWriteControlPoint(_ command: UnsafeRawBufferPointer) -> ControlPointWrite {
        pending.append(Array(command))
        return .sent
    }
    func ancsEvent(_ event: ANCSEvent) {}

    /// Answers until the consumer asks nothing more.
    func answerAll() {
        var rounds = 0
        while !pending.isEmpty && rounds < 1000 {
            rounds += 1
            let command = pending.removeFirst()
            answer(command)
        }
    }

    private func answer(_ bytes: [UInt8]) {
        guard let consumer, let command = try? ControlPointCommand(parsing: bytes) else { return }
        switch command {
        case .getNotificationAttributes(let uid, let attributes):
            guard let n = notifications[uid.rawValue] else {
                consumer.controlPointWriteFailed(attErrorCode: 0xA2, now: now)
                return
            }
            consumer.controlPointWriteSucceeded(now: now)
            let values: [UInt8: String] = [
                0: n.app, 1: n.title, 2: n.subtitle, 3: n.message, 4: String(n.message.utf8.count),
                5: n.date, 6: n.positive, 7: n.negative,
            ]
            let attrs = attributes.map { a -> EncodedAttribute in
                var v = Array((values[a.id] ?? "").utf8)
                if a.sendsMaxLength { v = Array(v.prefix(Int(a.maxLength))) }
                return EncodedAttribute(id: a.id, value: v)
            }
            send(DataSourceResponseEncoder.notificationAttributes(uid: uid, attrs))
        case .getAppAttributes(let id, let attributes):
            guard let name = appNames[String(decoding: id, as: UTF8.self)] else {
                consumer.controlPointWriteFailed(attErrorCode: 0xA2, now: now)
                return
            }
            consumer.controlPointWriteSucceeded(now: now)
            send(DataSourceResponseEncoder.appAttributes(
                appIdentifier: id, attributes.map { EncodedAttribute(id: $0.id, value: Array(name.utf8)) }))
        case .performNotificationAction:
            consumer.controlPointWriteSucceeded(now: now)
        }
    }

    private func send(_ response: [UInt8]) {
        var i = 0
        while i < response.count {
            let j = min(response.count, i + mtu - 3)
            consumer?.dataSourceReceived(Array(response[i..<j]), now: now)
            i = j
        }
    }
}

/// A consumer filled by a scripted phone.
final class Fixture {
    let phone = ScriptedPhone()
    let consumer: NotificationConsumer

    init() {
        var c = NotificationConsumer.Configuration()
        c.fetchSubtitle = true
        c.fetchDate = true
        consumer = NotificationConsumer(configuration: c, sink: phone)
        phone.consumer = consumer
        consumer.sessionStarted(now: phone.now)
    }

    /// Posts a notification on the phone, announces it on the Notification
    /// Source, answers every fetch, and asks for its message (as opening it would).
    @discardableResult
    func post(_ uid: UInt32, category: CategoryID = .social, flags: EventFlags = [], app: String = "com.apple.MobileSMS",
              title: String, subtitle: String = "", message: String = "", date: String = "20240314T183005",
              positive: String = "", negative: String = "") -> NotificationUID {
        phone.notifications[uid] = .init(app: app, title: title, subtitle: subtitle, message: message, date: date,
                                         positive: positive, negative: negative)
        let e = NotificationSourceEvent(eventID: .added, flags: flags, category: category, categoryCount: 1,
                                        uid: NotificationUID(uid))
        consumer.notificationSourceReceived(e.bytes, now: phone.now)
        phone.answerAll()
        consumer.notificationShown(NotificationUID(uid), now: phone.now)
        phone.answerAll()
        return NotificationUID(uid)
    }
}

/// 2024-03-14 (a Thursday) 18:42:00, twelve minutes after the posts' date.
let thursdayEvening = CivilTime(year: 2024, month: 3, day: 14, hour: 18, minute: 42, second: 0)

func status(_ link: PhoneLinkState = .encrypted, unread: Int = 3, time: CivilTime? = thursdayEvening) -> StatusInfo {
    StatusInfo(time: time, link: link, unread: unread)
}

/// A renderer and a framebuffer of one panel size.
struct Panel {
    let renderer: ScreenRenderer
    let fb: Framebuffer

    init(width: Int = 128, height: Int = 64, placement: ButtonPlacement = .standard) {
        renderer = ScreenRenderer(width: width, height: height, fonts: screenFonts, placement: placement)
        fb = Framebuffer(width: width, height: height)
    }

    /// Renders into `fb`, then checks that no label covers content (`LabelCoverage`).
    @discardableResult
    func render(_ screen: Screen, _ status: StatusInfo = status(), _ notifications: NotificationConsumer,
                callNotice: CallNotice? = nil, actionNotice: ActionNotice? = nil,
                nowPlaying: NowPlayingContent? = nil, feeds: PhoneFeeds? = nil, report: StatusReport? = nil,
                sourceLocation: SourceLocation = #_sourceLocation) -> MonoImage {
        let draw = { (into: Framebuffer) in
            renderer.render(screen, status: status, notifications: notifications, into: into,
                            callNotice: callNotice, actionNotice: actionNotice, nowPlaying: nowPlaying, feeds: feeds,
                            report: report)
        }
        draw(fb)
        let image = MonoImage(fb)
        LabelCoverage.expectNothingCovered(renderer, screen, sourceLocation: sourceLocation, draw)
        return image
    }

    static let tall = (width: 128, height: 64)
    static let short = (width: 128, height: 32)
}
