import ANCS
import Notifications
import Graphics
import HAL
import Screens
import SimBoard
import Testing
@testable import Screens

@Suite("Screens: renderer behaviour")
struct RendererBehaviourTests {
    /// Every screen of the tests, for properties that hold on all of them.
    static func allScreens() -> [Screen] {
        [
            .idleClock, .waitingForPhone, .list(selected: 0), .list(selected: 3),
            .detail(Inbox.report, scroll: 0), .detail(Inbox.wechat, scroll: 1),
            .incomingCall(Inbox.mom), .pairing(passkey: 12345), .message("Pair again"),
        ]
    }

    @Test("render marks the frame dirty and leaves the clip reset")
    func frameState() {
        let inbox = Inbox.make()
        let p = Panel()
        p.fb.clearDirty()
        p.render(.detail(Inbox.report, scroll: 1), status(), inbox.consumer)
        #expect(p.fb.isDirty)
        #expect(p.fb.clip == p.fb.bounds)
    }

    @Test("list helpers: the UID at an index, newest first")
    func listHelpers() {
        let inbox = Inbox.make()
        let r = Panel().renderer
        #expect(r.notificationUID(atListIndex: 0, notifications: inbox.consumer) == Inbox.wechat)
        #expect(r.notificationUID(atListIndex: 4, notifications: inbox.consumer) == Inbox.mom)
        #expect(r.notificationUID(atListIndex: 5, notifications: inbox.consumer) == nil)
        #expect(r.listVisibleRows == 2)
    }

    @Test("detail line counts bound the scroll")
    func detailLines() {
        let inbox = Inbox.make()
        let tall = Panel().renderer
        // "Weekly report" (1 title line) + subtitle (1) + the message wrapped at 20 columns.
        let lines = tall.detailLineCount(Inbox.report, notifications: inbox.consumer)
        #expect(lines == 1 + 1 + 9)
        let maxScroll = tall.detailMaxScroll(Inbox.report, notifications: inbox.consumer)
        #expect(maxScroll > 0 && maxScroll < lines)
        #expect(tall.detailLineCount(Inbox.mom, notifications: inbox.consumer) == 1 + 0 + 2)
        #expect(tall.detailMaxScroll(Inbox.mom, notifications: inbox.consumer) == 0)
        #expect(tall.detailLineCount(NotificationUID(999), notifications: inbox.consumer) == 0)
        // 128x32 drops the subtitle and shows fewer lines, so it scrolls further.
        let short = Panel(height: 32).renderer
        #expect(short.detailLineCount(Inbox.report, notifications: inbox.consumer) == lines - 1)
        #expect(short.detailMaxScroll(Inbox.report, notifications: inbox.consumer) > maxScroll - 1)
    }

    @Test("a CJK title is drawn with Unifont glyphs, not missing-glyph boxes")
    func cjkTitle() {
        let inbox = Inbox.make()
        let title = Array("妈妈".utf8)
        // The same two characters drawn alone with the body chain ...
        let alone = Framebuffer(width: 32, height: 16)
        title.withUnsafeBytes { _ = TextLayout.draw($0, 0..<$0.count, fonts: screenFonts.body, into: alone, x: 0, baselineY: 14) }
        // ... appear at the start of the detail screen's title.
        let p = Panel()
        let image = p.render(.detail(Inbox.wechat, scroll: 0), status(), inbox.consumer)
        let titleTop = 23  // the body area's top; its first line's baseline is 14 below
        var same = true
        for y in 0..<16 { for x in 0..<32 where image[1 + x, titleTop + y] != alone.pixel(x: x, y: y) { same = false } }
        #expect(same)
        #expect(screenFonts.body.lookup(0x5988) != nil)  // 妈 is in the chain
    }

    @Test("numbers, ages and weekdays are formatted without Foundation")
    func formatting() {
        let s = TextScratch(capacity: 16)
        s.append(decimal: 7, width: 2).append(":").append(decimal: 0, width: 2).append(" ").append(decimal: 123456)
        #expect(Array(s.bytes) == Array("07:00 123456".utf8))
        s.clear().append(decimal: -5)
        #expect(Array(s.bytes) == Array("0".utf8))
        s.clear().append("0123456789abcdef").append("XYZ")
        #expect(s.count == 16)

        func age(_ seconds: Int) -> String {
            let out = TextScratch()
            DateText.appendAge(seconds: seconds, to: out)
            return String(decoding: out.bytes, as: UTF8.self)
        }
        #expect(age(-30) == "now")
        #expect(age(59) == "now")
        #expect(age(60) == "1m")
        #expect(age(5 * 60 + 59) == "5m")
        #expect(age(2 * 3600) == "2h")
        #expect(age(3 * 86_400 + 5) == "3d")
        #expect(age(200 * 86_400) == "28w")

        #expect(CivilTime(year: 2024, month: 3, day: 14, hour: 0, minute: 0).weekday == 4)  // Thursday
        #expect(CivilTime(year: 1970, month: 1, day: 1, hour: 0, minute: 0).weekday == 4)
        #expect(CivilTime(year: 2000, month: 2, day: 29, hour: 0, minute: 0).weekday == 2)  // Tuesday
        #expect(CivilTime(year: 2024, month: 3, day: 17, hour: 0, minute: 0).weekday == 7)  // Sunday
        let eve = CivilTime(year: 2023, month: 12, day: 31, hour: 23, minute: 59, second: 0)
        let now = CivilTime(year: 2024, month: 1, day: 1, hour: 0, minute: 4, second: 0)
        #expect(DateText.age(of: eve, at: now) == 5 * 60)
        #expect(now.weekday == 1)  // Monday
    }

    @Test("the passkey is zero-padded to six digits")
    func passkeyDigits() {
        let f = Fixture()
        let a = Panel().render(.pairing(passkey: 12345), status(), f.consumer)
        let b = Panel().render(.pairing(passkey: 123450), status(), f.consumer)
        #expect(a != b)
        // Values above 999999 are cut to six digits (the spec's passkeys never are).
        #expect(Panel().render(.pairing(passkey: 1_012_345), status(), f.consumer) == a)
    }
}
