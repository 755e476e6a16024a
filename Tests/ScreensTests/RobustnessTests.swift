import HAL
import ANCS
import Notifications
import Graphics
import Screens
import SimBoard
import Testing
@testable import Screens

@Suite("Screens: odd inputs")
struct RobustnessTests {
    @Test("out-of-range times, counts and passkeys are clamped, not trapped on")
    func oddStatus() {
        let f = Fixture()
        let odd = [
            StatusInfo(time: CivilTime(year: -5, month: 0, day: 0, hour: 99, minute: -3, second: 70),
                       link: .off, unread: -4),
            StatusInfo(time: CivilTime(year: 99999, month: 13, day: 40, hour: 23, minute: 59), link: .advertising,
                       unread: Int.max),
        ]
        for size in [(128, 64), (128, 32)] {
            let p = Panel(width: size.0, height: size.1)
            for s in odd {
                for screen: Screen in [.idleClock, .waitingForPhone, .list(selected: Int.min), .list(selected: Int.max),
                                       .detail(NotificationUID(1), scroll: Int.max), .incomingCall(NotificationUID(1)),
                                       .pairing(passkey: .max), .message("")] {
                    p.render(screen, s, f.consumer)
                }
            }
        }
        // Hour 99 and minute -3 are clamped to 23 and 00.
        let r = Panel().renderer
        r.appendTime(CivilTime(year: 2024, month: 1, day: 1, hour: 99, minute: -3), to: r.scratch.clear())
        #expect(String(decoding: r.scratch.bytes, as: UTF8.self) == "23:00")
    }

    @Test("notifications with empty fields, invalid UTF-8 and very long text")
    func oddNotifications() {
        let f = Fixture()
        f.post(1, category: .unknown(42), app: "", title: "")
        f.post(2, category: .incomingCall, flags: [.positiveAction, .negativeAction], app: "com.example.unknown",
               title: String(repeating: "W", count: 64),
               message: String(repeating: "word ", count: 60), positive: String(repeating: "P", count: 32),
               negative: "N")
        f.post(3, category: .news, title: "\u{FFFD}\u{FFFD}\u{0301}\u{200D}", message: "\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\nend")
        for size in [(128, 64), (128, 32)] {
            let p = Panel(width: size.0, height: size.1)
            for uid in [NotificationUID(1), NotificationUID(2), NotificationUID(3)] {
                for scroll in [0, 1, 5, 1000] { p.render(.detail(uid, scroll: scroll), status(), f.consumer) }
                p.render(.incomingCall(uid), status(), f.consumer)
                #expect(p.renderer.detailMaxScroll(uid, notifications: f.consumer) <= p.renderer.detailLineCount(uid, notifications: f.consumer))
            }
            for i in 0..<4 { p.render(.list(selected: i), status(), f.consumer) }
        }
        // A call whose label is longer than half the panel: cut to half, the other label still shows.
        let image = Panel().render(.incomingCall(NotificationUID(2)), status(), f.consumer)
        #expect(image[127, 63] && image[0, 63])  // both boxes reach their corner
        #expect(!image[64, 60])  // and leave the middle free
    }

    @Test("a call that is gone still shows the fallback labels")
    func callGone() {
        let f = Fixture()
        let image = Panel().render(.incomingCall(NotificationUID(404)), status(), f.consumer)
        #expect(image[127, 63])  // the filled positive box
        #expect(image.litCount > 100)
    }
}
