import ANCS
import Notifications
import Graphics
import Screens
import SimBoard
import Testing

/// Every screen against a golden picture (Golden/*.pbm). See Support.swift
/// for regenerating them.
@Suite("Screens: golden pictures")
struct ScreenGoldenTests {
    // MARK: idle clock and waiting

    @Test("idle clock, 128x64 and 128x32")
    func idleClock() {
        let f = Fixture()
        Golden.check(image: Panel().render(.idleClock, status(), f.consumer), "idle-128x64")
        Golden.check(image: Panel(height: 32).render(.idleClock, status(), f.consumer), "idle-128x32")
    }

    @Test("idle clock with the time unknown, advertising, nothing unread")
    func idleClockUnknownTime() {
        let f = Fixture()
        let s = status(.advertising, unread: 0, time: nil)
        Golden.check(image: Panel().render(.idleClock, s, f.consumer), "idle-unknown-128x64")
        Golden.check(image: Panel(height: 32).render(.idleClock, s, f.consumer), "idle-unknown-128x32")
    }

    @Test("waiting for phone with the time unknown (booted without network or phone: --:--), both sizes")
    func waitingTimeUnknown() {
        let f = Fixture()
        for height in [64, 32] {
            let p = Panel(height: height)
            p.renderer.setWatchName("WristCore 3F2A")
            Golden.check(image: p.render(.waitingForPhone, status(.advertising, unread: 0, time: nil), f.consumer), "waiting-unknown-128x\(height)")
        }
    }

    @Test("waiting for phone shows the watch's name")
    func waiting() {
        let f = Fixture()
        let tall = Panel()
        tall.renderer.setWatchName("WristCore 3F2A")
        Golden.check(image: tall.render(.waitingForPhone, status(.advertising, unread: 0), f.consumer), "waiting-128x64")
        let short = Panel(height: 32)
        short.renderer.setWatchName("WristCore 3F2A")
        Golden.check(image: short.render(.waitingForPhone, status(.advertising, unread: 0), f.consumer), "waiting-128x32")
    }

    // MARK: list

    @Test("list: first row selected, ages, app names, a CJK title")
    func listTop() {
        let inbox = Inbox.make()
        Golden.check(image: Panel().render(.list(selected: 0), status(), inbox.consumer), "list-128x64-sel0")
    }

    @Test("list: moving down scrolls when the selection leaves the window")
    func listScroll() {
        let inbox = Inbox.make()
        let p = Panel()
        p.render(.list(selected: 0), status(), inbox.consumer)
        p.render(.list(selected: 1), status(), inbox.consumer)
        Golden.check(image: p.render(.list(selected: 2), status(), inbox.consumer), "list-128x64-sel2")
        // Moving back up to 1 keeps the window (1 is its top row now).
        Golden.check(image: p.render(.list(selected: 1), status(), inbox.consumer), "list-128x64-sel1-up")
    }

    @Test("list: a selection past the end stays on the last row")
    func listPastEnd() {
        let inbox = Inbox.make()
        let p = Panel()
        let last = p.render(.list(selected: 4), status(), inbox.consumer)
        Golden.check(image: last, "list-128x64-last")
        #expect(p.render(.list(selected: 99), status(), inbox.consumer) == last)
        let fresh = Panel()
        #expect(fresh.render(.list(selected: 99), status(), inbox.consumer) == last)
        // And before the start, on the first.
        #expect(Panel().render(.list(selected: -3), status(), inbox.consumer)
                == Panel().render(.list(selected: 0), status(), inbox.consumer))
    }

    @Test("list: empty")
    func listEmpty() {
        let f = Fixture()
        Golden.check(image: Panel().render(.list(selected: 0), status(unread: 0), f.consumer), "list-128x64-empty")
    }

    @Test("list on 128x32: two one-line rows, no status bar")
    func listCompact() {
        let inbox = Inbox.make()
        let p = Panel(height: 32)
        Golden.check(image: p.render(.list(selected: 0), status(), inbox.consumer), "list-128x32-sel0")
        Golden.check(image: p.render(.list(selected: 3), status(), inbox.consumer), "list-128x32-sel3")
    }

    @Test("list without dates shows no ages")
    func listWithoutTime() {
        let inbox = Inbox.make()
        Golden.check(image: Panel().render(.list(selected: 1), status(time: nil), inbox.consumer), "list-128x64-no-time")
    }

    // MARK: detail

    @Test("detail: header, title, subtitle, message; scrolled")
    func detail() {
        let inbox = Inbox.make()
        let p = Panel()
        Golden.check(image: p.render(.detail(Inbox.report, scroll: 0), status(), inbox.consumer), "detail-128x64-top")
        Golden.check(image: p.render(.detail(Inbox.report, scroll: 3), status(), inbox.consumer), "detail-128x64-scroll3")
        let end = p.renderer.detailMaxScroll(Inbox.report, notifications: inbox.consumer)
        Golden.check(image: p.render(.detail(Inbox.report, scroll: end), status(), inbox.consumer), "detail-128x64-end")
        // Scrolling past the end shows the end.
        #expect(p.render(.detail(Inbox.report, scroll: 500), status(), inbox.consumer)
                == p.render(.detail(Inbox.report, scroll: end), status(), inbox.consumer))
    }

    @Test("detail: a CJK title and message through the Unifont fallback")
    func detailCJK() {
        let inbox = Inbox.make()
        Golden.check(image: Panel().render(.detail(Inbox.wechat, scroll: 0), status(), inbox.consumer), "detail-128x64-cjk")
        Golden.check(image: Panel().render(.detail(Inbox.grandma, scroll: 0), status(), inbox.consumer), "detail-128x64-vietnamese")
    }

    @Test("detail: Arabic joined, right to left (a lam-alef in each line)")
    func detailArabic() {
        let f = Fixture()
        // "Muhammad" / "Peace be upon you, how are you today?"
        let uid = f.post(7, title: "محمد",
                         message: "السلام عليكم، كيف حالك اليوم؟", date: "20240314T183005")
        Golden.check(image: Panel().render(.detail(uid, scroll: 0), status(), f.consumer), "detail-128x64-arabic")
    }

    @Test("detail: mixed Arabic and Latin lines: Latin words and numbers keep their order, Arabic words are joined")
    func detailArabicLatin() {
        let f = Fixture()
        // A Latin title with an Arabic name; a right-to-left message with a
        // Latin word and a time inside it ("The meeting on Zoom at 10:30 tomorrow").
        let uid = f.post(8, title: "Lunch with أحمد",
                         message: "الاجتماع على Zoom الساعة 10:30 غدا", date: "20240314T183005")
        let p = Panel()
        Golden.check(image: p.render(.detail(uid, scroll: 0), status(), f.consumer), "detail-128x64-arabic-latin")
        let end = p.renderer.detailMaxScroll(uid, notifications: f.consumer)
        #expect(end > 0)
        Golden.check(image: p.render(.detail(uid, scroll: end), status(), f.consumer), "detail-128x64-arabic-latin-end")
    }

    @Test("detail: CJK on 128x32; the lines have 1 px of leading")
    func detailCJKCompact() {
        let inbox = Inbox.make()
        Golden.check(image: Panel(height: 32).render(.detail(Inbox.wechat, scroll: 0), status(), inbox.consumer), "detail-128x32-cjk")
    }

    @Test("detail: two CJK title lines have a blank pixel row between them (128x64 and 128x32)")
    func cjkLinesDoNotTouch() {
        let inbox = Inbox.make()
        // (panel height, top of the body, the rows around the boundary of title lines 1 and 2)
        for (height, top) in [(64, 23), (32, 11)] {
            let image = Panel(height: height).render(.detail(Inbox.wechat, scroll: 0), status(), inbox.consumer)
            func blank(_ y: Int) -> Bool { (0..<124).allSatisfy { !image[$0, y] } }
            // Line 1 is 16 rows from `top`; line 2 follows: from the middle of
            // line 1 to the visible part of line 2 there must be a blank row
            // with ink above and below it.
            let rows = (top + 8)..<min(height, top + 22)
            let blanks = rows.filter(blank)
            #expect(!blanks.isEmpty, "128x\(height): title lines touch")
            for y in blanks {
                #expect(!blank(y - 1) && y + 1 < height && !blank(y + 1), "128x\(height): row \(y)")
            }
        }
    }

    @Test("detail: Vietnamese sent decomposed (NFD) draws exactly as precomposed (NFC)")
    func detailVietnameseNFD() {
        let f = Fixture()
        let nfc = f.post(1, title: "Bà ngoại", message: "Tiếng Việt: Chúc mừng năm mới, hẹn gặp lại!")
        let nfd = f.post(2, title: "Ba\u{0300} ngoa\u{0323}i",
                         message: "Tie\u{0302}\u{0301}ng Vie\u{0323}\u{0302}t: Chu\u{0301}c mu\u{031B}\u{0300}ng "
                             + "na\u{0306}m mo\u{031B}\u{0301}i, he\u{0323}n ga\u{0323}\u{0306}p la\u{0323}i!")
        // 128x32 shows the title only at scroll 0: scroll to the message.
        for (height, scroll) in [(64, 0), (32, 1)] {
            let composed = Panel(height: height).render(.detail(nfc, scroll: scroll), status(), f.consumer)
            let decomposed = Panel(height: height).render(.detail(nfd, scroll: scroll), status(), f.consumer)
            Golden.check(image: composed, "detail-128x\(height)-vietnamese-nfc")
            #expect(decomposed == composed, "128x\(height): \(decomposed.differences(from: composed))")
        }
    }

    @Test("detail on 128x32: header and scrolling body, no subtitle")
    func detailCompact() {
        let inbox = Inbox.make()
        let p = Panel(height: 32)
        Golden.check(image: p.render(.detail(Inbox.report, scroll: 0), status(), inbox.consumer), "detail-128x32-top")
        Golden.check(image: p.render(.detail(Inbox.report, scroll: 2), status(), inbox.consumer), "detail-128x32-scroll2")
    }

    /// Issue 19 item 4: a message the phone has more of than arrived ends
    /// with "… more on phone" (the last body line, reached by scrolling).
    @Test("detail: a message cut at 256 bytes says there is more on the phone")
    func detailMoreOnPhone() {
        let f = Fixture()
        let long = "The quarterly numbers are in and they look better than expected. Revenue grew in every region, "
            + "costs held steady and the new product line passed its first milestone. Please read the attached "
            + "summary before Thursday and bring questions; the full appendix with regional breakdowns follows."
        let uid = f.post(11, category: .email, app: "com.apple.mobilemail", title: "Quarterly report", message: long,
                         date: "20240314T174000")
        let n = f.consumer.notification(uid)
        #expect(n?.hasMoreMessage == true)
        #expect(n?.messageSize == long.utf8.count)
        for (height, name) in [(64, "detail-128x64-more-on-phone"), (32, "detail-128x32-more-on-phone")] {
            let p = Panel(height: height)
            let end = p.renderer.detailMaxScroll(uid, notifications: f.consumer)
            Golden.check(image: p.render(.detail(uid, scroll: end), status(), f.consumer), name)
        }
        // The same message, complete: no mark, one line fewer.
        let g = Fixture()
        let whole = g.post(11, category: .email, app: "com.apple.mobilemail", title: "Quarterly report",
                           message: String(long.utf8.prefix(256))!, date: "20240314T174000")
        #expect(g.consumer.notification(whole)?.hasMoreMessage == false)
        let p = Panel()
        #expect(p.renderer.detailLineCount(uid, notifications: f.consumer)
                == p.renderer.detailLineCount(whole, notifications: g.consumer) + 1)
    }

    @Test("detail of a notification that is gone")
    func detailGone() {
        let f = Fixture()
        Golden.check(image: Panel().render(.detail(NotificationUID(77), scroll: 0), status(), f.consumer), "detail-gone")
    }

    // MARK: incoming call

    @Test("incoming call with the phone's own labels, buttons at the bottom")
    func callCustomLabels() {
        let f = Fixture()
        let uid = f.post(9, category: .incomingCall, flags: [.important, .positiveAction, .negativeAction],
                         app: "com.apple.mobilephone", title: "Alice Martin", positive: "Accept", negative: "Ignore")
        Golden.check(image: Panel().render(.incomingCall(uid), status(), f.consumer), "call-128x64")
        Golden.check(image: Panel(height: 32).render(.incomingCall(uid), status(), f.consumer), "call-128x32")
    }

    @Test("incoming call: swapped buttons move the labels")
    func callSwapped() {
        let f = Fixture()
        let uid = f.post(9, category: .incomingCall, flags: [.important, .positiveAction, .negativeAction],
                         app: "com.apple.mobilephone", title: "Alice Martin", positive: "Accept", negative: "Ignore")
        let swapped = Panel(placement: ButtonPlacement(positive: .bottomLeft, negative: .bottomRight))
        Golden.check(image: swapped.render(.incomingCall(uid), status(), f.consumer), "call-128x64-swapped")
        let sides = Panel(placement: ButtonPlacement(positive: .topRight, negative: .bottomRight))
        Golden.check(image: sides.render(.incomingCall(uid), status(), f.consumer), "call-128x64-right-side")
    }

    @Test("incoming call without labels from the phone: Answer / Decline; a CJK caller")
    func callFallbackLabels() {
        let f = Fixture()
        let uid = f.post(9, category: .incomingCall, flags: [.important, .positiveAction, .negativeAction],
                         app: "com.apple.mobilephone", title: "王小明")
        Golden.check(image: Panel().render(.incomingCall(uid), status(), f.consumer), "call-128x64-fallback")
    }

    /// Issue 19 item 6: the phone refused the answer: the call stays, with a notice.
    @Test("incoming call after a refused answer: Could not answer / Could not decline")
    func callNotice() {
        let f = Fixture()
        let uid = f.post(9, category: .incomingCall, flags: [.important, .positiveAction, .negativeAction],
                         app: "com.apple.mobilephone", title: "Alice Martin", positive: "Accept", negative: "Ignore")
        Golden.check(image: Panel().render(.incomingCall(uid), status(), f.consumer, callNotice: .couldNotAnswer),
                     "call-128x64-could-not-answer")
        Golden.check(image: Panel(height: 32).render(.incomingCall(uid), status(), f.consumer, callNotice: .couldNotDecline),
                     "call-128x32-could-not-decline")
        // Without a notice, the ordinary call screen.
        #expect(Panel().render(.incomingCall(uid), status(), f.consumer, callNotice: nil)
                == Panel().render(.incomingCall(uid), status(), f.consumer))
    }

    // MARK: pairing

    @Test("pairing passkey 012345 with Confirm / Reject over the buttons")
    func pairing() {
        let f = Fixture()
        Golden.check(image: Panel().render(.pairing(passkey: 12345), status(.connected), f.consumer), "pairing-128x64")
        Golden.check(image: Panel(height: 32).render(.pairing(passkey: 12345), status(.connected), f.consumer), "pairing-128x32")
        let swapped = Panel(placement: ButtonPlacement(positive: .topLeft, negative: .bottomLeft))
        Golden.check(image: swapped.render(.pairing(passkey: 987654), status(.connected), f.consumer), "pairing-128x64-left-side")
    }

    // MARK: notices

    @Test("a notice")
    func notice() {
        let f = Fixture()
        let text = "Pair again: forget this watch in the iPhone's Bluetooth settings"
        Golden.check(image: Panel().render(.message(text), status(.connected, unread: 0), f.consumer), "notice-128x64")
        Golden.check(image: Panel(height: 32).render(.message("Pair again"), status(.connected, unread: 0), f.consumer),
                     "notice-128x32")
    }

    // MARK: status bar

    @Test("status bar: every link state, unread counts, unknown time")
    func statusBar() {
        let f = Fixture()
        let p = Panel()
        let states: [StatusInfo] = [
            status(.off, unread: 0, time: nil),
            status(.advertising, unread: 0),
            status(.connected, unread: 1),
            status(.encrypted, unread: 7),
            status(.encrypted, unread: 42),
            status(.encrypted, unread: 250),
        ]
        // The bars stacked into one picture, a blank row between them.
        let barHeight = 11
        var sheet = MonoImage(width: 128, height: states.count * (barHeight + 1))
        for (i, s) in states.enumerated() {
            let image = p.render(.message(""), s, f.consumer)
            for y in 0..<barHeight { for x in 0..<128 { sheet[x, i * (barHeight + 1) + y] = image[x, y] } }
        }
        Golden.check(image: sheet, "status-bar-states")
    }

    // MARK: icons

    @Test("the twelve category icons")
    func icons() {
        let fb = Framebuffer(width: 128, height: 32)
        for (i, icon) in CategoryIcons.all.enumerated() {
            fb.draw(icon, x: 4 + 21 * (i % 6), y: i < 6 ? 4 : 19)
        }
        #expect(CategoryIcons.all.count == 12)
        for icon in CategoryIcons.all { #expect(icon.width == 9 && icon.height == 9) }
        #expect(CategoryIcons.icon(for: .unknown(200)) == CategoryIcons.other)
        #expect(CategoryIcons.icon(for: .entertainment) == CategoryIcons.entertainment)
        Golden.check(fb, "category-icons")
    }
}
