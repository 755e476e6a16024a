import ANCS
import Notifications
import Graphics
import Screens
import Testing

/// Issue 27: the detail screen lays its body out above the button labels;
/// a line that would reach them waits for the next scroll. (Every golden is
/// also checked by `LabelCoverage` through `Panel.render`.)
@Suite("Screens: no content under the button labels")
struct LabelCoverageTests {
    /// The README's first two pictures: the demo's messages, with the
    /// phone's Clear (an emoji and a CJK message: lines of 16-px glyphs).
    static func demo() -> (Fixture, anna: NotificationUID, chinese: NotificationUID) {
        let f = Fixture()
        let anna = f.post(31, category: .social, flags: [.important, .negativeAction], title: "Anna",
                          message: "Running 10 min late, order for me? 🙏", negative: "Clear")
        let chinese = f.post(32, category: .social, flags: [.negativeAction], app: "com.tencent.xin", title: "李伟",
                             message: "今晚一起吃饭吗？🍜", negative: "Clear")
        return (f, anna, chinese)
    }

    @Test("the demo's messages: whole lines above Clear on every page, at 128x64 and 128x32")
    func demoMessages() {
        let (f, anna, chinese) = Self.demo()
        for height in [64, 32] {
            let p = Panel(height: height)
            for (uid, name) in [(anna, "emoji"), (chinese, "cjk")] {
                let last = p.renderer.detailMaxScroll(uid, notifications: f.consumer)
                #expect(last >= 1, "128x\(height) \(name): the message is on a later page")
                Golden.check(image: p.render(.detail(uid, scroll: 0), status(), f.consumer),
                             "detail-128x\(height)-labels-\(name)-top")
                Golden.check(image: p.render(.detail(uid, scroll: last), status(), f.consumer),
                             "detail-128x\(height)-labels-\(name)-end")
            }
        }
    }

    @Test("every page of a long labelled message, with the shift against burn-in")
    func everyPageShifted() {
        let f = Fixture()
        let words = Array(repeating: "numbers 数字 🙂", count: 12).joined(separator: " ")
        let uid = f.post(33, category: .email, flags: [.positiveAction, .negativeAction], app: "com.apple.mobilemail",
                         title: "Weekly report", subtitle: "From: Alice", message: words,
                         positive: "Mark as Read", negative: "Clear")
        let placements = [ButtonPlacement.standard, ButtonPlacement(positive: .topRight, negative: .topLeft),
                          ButtonPlacement(positive: .topRight, negative: .bottomRight)]
        for height in [64, 32] {
            for placement in placements {
                let p = Panel(height: height, placement: placement)
                let last = p.renderer.detailMaxScroll(uid, notifications: f.consumer)
                for scroll in 0...last {
                    p.render(.detail(uid, scroll: scroll), status(), f.consumer)
                }
            }
        }
    }

    static func call(_ f: Fixture) -> NotificationUID {
        f.post(9, category: .incomingCall, flags: [.important, .positiveAction, .negativeAction],
               app: "com.apple.mobilephone", title: "Alice Martin", positive: "Accept", negative: "Ignore")
    }

    @Test("calls and pairing with the labels at any two corners, 128x64 and 128x32")
    func callAndPairingEveryPlacement() {
        let f = Fixture()
        let call = Self.call(f)
        let corners: [ButtonCorner] = [.topLeft, .topRight, .bottomLeft, .bottomRight]
        for height in [64, 32] {
            for positive in corners {
                for negative in corners where negative != positive {
                    let p = Panel(height: height, placement: ButtonPlacement(positive: positive, negative: negative))
                    p.render(.incomingCall(call), status(), f.consumer)
                    p.render(.incomingCall(call), status(), f.consumer, callNotice: .couldNotAnswer)
                    p.render(.pairing(passkey: 12345), status(), f.consumer)
                }
            }
        }
    }

    /// 6 rows between a top and a bottom label: the content goes beside them.
    @Test("128x32 with buttons at a top and a bottom corner: call and pairing beside the labels; detail without them")
    func compactTopAndBottom() {
        let f = Fixture()
        let call = Self.call(f)
        let detail = f.post(34, category: .social, flags: [.positiveAction, .negativeAction], title: "Mom",
                            message: "Dinner at 7? Bring the salad.", positive: "Mark as Read", negative: "Clear")
        let placements = [("right-side", ButtonPlacement(positive: .topRight, negative: .bottomRight)),
                          ("diagonal", ButtonPlacement(positive: .bottomRight, negative: .topLeft))]
        for (name, placement) in placements {
            let p = Panel(height: 32, placement: placement)
            Golden.check(image: p.render(.incomingCall(call), status(), f.consumer), "call-128x32-\(name)")
            Golden.check(image: p.render(.incomingCall(call), status(), f.consumer, callNotice: .couldNotDecline),
                         "call-128x32-\(name)-could-not-decline")
            Golden.check(image: p.render(.pairing(passkey: 12345), status(), f.consumer), "pairing-128x32-\(name)")
            // The detail: every page as without actions (the buttons still act).
            let g = Fixture()
            let plain = g.post(34, category: .social, title: "Mom", message: "Dinner at 7? Bring the salad.")
            let last = p.renderer.detailMaxScroll(detail, notifications: f.consumer)
            #expect(last == Panel(height: 32).renderer.detailMaxScroll(plain, notifications: g.consumer))
            for scroll in 0...last {
                #expect(p.render(.detail(detail, scroll: scroll), status(), f.consumer)
                        == Panel(height: 32).render(.detail(plain, scroll: scroll), status(), g.consumer))
            }
        }
    }

    @Test("the probe records the boxes and leaves them out of the frame; the watch's frame is unchanged")
    func probe() {
        let (f, anna, _) = Self.demo()
        let p = Panel()
        let screen = Screen.detail(anna, scroll: 0)
        let plain = p.render(screen, status(), f.consumer)
        let report = LabelCoverage.probe(p.renderer, rowsAcross: true) {
            p.renderer.render(screen, status: status(), notifications: f.consumer, into: $0)
        }
        #expect(report.boxes == [Rect(x: 0, y: 52, width: 36, height: 12)])
        #expect(report.covered.isEmpty)
        #expect(p.renderer.layoutProbe == nil)
        #expect(p.render(screen, status(), f.consumer) == plain)
    }

    @Test("the check finds content under a box: the body of a notification without actions reaches the labels' rows")
    func checkFindsCoveredContent() {
        let (f, anna, _) = Self.demo()
        let g = Fixture()
        let plain = g.post(31, category: .social, title: "Anna", message: "Running 10 min late, order for me? 🙏")
        let p = Panel()
        let labelled = LabelCoverage.probe(p.renderer, rowsAcross: true) {
            p.renderer.render(.detail(anna, scroll: 0), status: status(), notifications: f.consumer, into: $0)
        }
        let fb = Framebuffer(width: 128, height: 64)
        p.renderer.render(.detail(plain, scroll: 0), status: status(), notifications: g.consumer, into: fb)
        #expect(!LabelCoverage.covered(MonoImage(fb), by: labelled.boxes, rowsAcross: true).isEmpty)
    }
}
