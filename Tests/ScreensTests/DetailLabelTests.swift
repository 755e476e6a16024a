import ANCS
import Notifications
import Graphics
import Screens
import Testing

/// Issue 17 item 3: the detail screen shows the phone's action labels over
/// the buttons that perform them, and a refused action's notice.
@Suite("Screens: action labels on the detail screen")
struct DetailLabelTests {
    /// A message with both actions and the phone's labels.
    static func inbox() -> (Fixture, labelled: NotificationUID, long: NotificationUID, unlabelled: NotificationUID,
                            clearOnly: NotificationUID) {
        let f = Fixture()
        let labelled = f.post(21, category: .social, flags: [.positiveAction, .negativeAction], title: "Mom",
                              message: "Dinner at 7? Bring the salad.", positive: "Mark as Read", negative: "Clear")
        let long = f.post(22, category: .email, flags: [.positiveAction, .negativeAction],
                          app: "com.apple.mobilemail", title: "Weekly report",
                          message: "The numbers for this week are in.",
                          positive: "Archive and Mark as Read", negative: "Move to Junk Folder")
        let unlabelled = f.post(23, category: .schedule, flags: [.positiveAction, .negativeAction],
                                app: "com.apple.mobilecal", title: "Standup in 10 minutes", message: "Room 2")
        let clearOnly = f.post(24, category: .social, flags: [.negativeAction], title: "Mom",
                               message: "Dinner at 7? Bring the salad.", negative: "Clear")
        return (f, labelled, long, unlabelled, clearOnly)
    }

    func render(_ p: Panel, _ uid: NotificationUID, scroll: Int = 0, _ f: Fixture, notice: ActionNotice? = nil,
                sourceLocation: SourceLocation = #_sourceLocation) -> MonoImage {
        p.render(.detail(uid, scroll: scroll), status(), f.consumer, actionNotice: notice, sourceLocation: sourceLocation)
    }

    @Test("128x64: the phone's labels over the buttons; a long label is cut; fallbacks OK / Clear")
    func tallLabels() {
        let (f, labelled, long, unlabelled, clearOnly) = Self.inbox()
        let p = Panel()
        Golden.check(image: render(p, labelled, f), "detail-128x64-labels")
        Golden.check(image: render(p, long, f), "detail-128x64-long-label")
        Golden.check(image: render(p, unlabelled, f), "detail-128x64-fallback-labels")
        Golden.check(image: render(p, clearOnly, f), "detail-128x64-clear-only")
    }

    @Test("128x32: labels on the last page only, which leaves the header out")
    func compactLabels() {
        let (f, labelled, long, _, _) = Self.inbox()
        let p = Panel(height: 32)
        let last = p.renderer.detailMaxScroll(labelled, notifications: f.consumer)
        #expect(last >= 1)
        Golden.check(image: render(p, labelled, f), "detail-128x32-labels-top")
        Golden.check(image: render(p, labelled, scroll: last, f), "detail-128x32-labels-end")
        Golden.check(image: render(p, long, scroll: p.renderer.detailMaxScroll(long, notifications: f.consumer), f),
                     "detail-128x32-long-label")
        // The first page is the one without actions (no labels, same layout).
        let g = Fixture()
        let plain = g.post(21, category: .social, title: "Mom", message: "Dinner at 7? Bring the salad.")
        #expect(render(p, labelled, f) == render(Panel(height: 32), plain, g))
    }

    @Test("without actions nothing changes: no labels, the body to the bottom")
    func noLabels() {
        let f = Fixture()
        let uid = f.post(25, category: .social, title: "Mom", message: "Dinner at 7? Bring the salad.")
        for height in [64, 32] {
            let p = Panel(height: height)
            Golden.check(image: render(p, uid, f), "detail-128x\(height)-no-labels")
            // The same as before labels existed: everything fits on 128x64.
            if height == 64 { #expect(p.renderer.detailMaxScroll(uid, notifications: f.consumer) == 0) }
        }
    }

    @Test("a refused action: Could not <label>, lower-cased, over the header; shown only on its own detail")
    func notice() {
        let (f, labelled, long, _, clearOnly) = Self.inbox()
        let tall = Panel()
        Golden.check(image: render(tall, labelled, f, notice: ActionNotice(uid: labelled, action: .positive)),
                     "detail-128x64-could-not-mark-as-read")
        Golden.check(image: render(tall, clearOnly, f, notice: ActionNotice(uid: clearOnly, action: .negative)),
                     "detail-128x64-could-not-clear")
        Golden.check(image: render(tall, long, f, notice: ActionNotice(uid: long, action: .negative)),
                     "detail-128x64-could-not-long")
        let short = Panel(height: 32)
        Golden.check(image: render(short, clearOnly, f, notice: ActionNotice(uid: clearOnly, action: .negative)),
                     "detail-128x32-could-not-clear")
        let end = short.renderer.detailMaxScroll(clearOnly, notifications: f.consumer)
        Golden.check(image: render(short, clearOnly, scroll: end, f, notice: ActionNotice(uid: clearOnly, action: .negative)),
                     "detail-128x32-could-not-clear-end")
        // Another notification's notice is not drawn.
        #expect(render(tall, labelled, f, notice: ActionNotice(uid: clearOnly, action: .negative))
                == render(tall, labelled, f))
    }

    @Test("top-corner buttons: the labels take the status bar's place on 128x64")
    func topPlacement() {
        let (f, labelled, _, _, _) = Self.inbox()
        let p = Panel(placement: ButtonPlacement(positive: .topRight, negative: .topLeft))
        Golden.check(image: render(p, labelled, f), "detail-128x64-labels-top-corners")
    }

    @Test("the last line sits above the labels at the largest scroll")
    func scrollEndsAboveLabels() {
        let f = Fixture()
        let words = Array(repeating: "numbers", count: 40).joined(separator: " ")
        let uid = f.post(26, category: .email, flags: [.negativeAction], app: "com.apple.mobilemail",
                         title: "Weekly report", message: words, negative: "Clear")
        let g = Fixture()
        let plain = g.post(26, category: .email, app: "com.apple.mobilemail", title: "Weekly report", message: words)
        for height in [64, 32] {
            let p = Panel(height: height)
            // The labels' rows make the body shorter (on 128x64 the status
            // bar gives its rows back): never less scrolling than without.
            let labelled = p.renderer.detailMaxScroll(uid, notifications: f.consumer)
            let unlabelled = p.renderer.detailMaxScroll(plain, notifications: g.consumer)
            if height == 32 { #expect(labelled > unlabelled) } else { #expect(labelled >= unlabelled) }
            let end = p.renderer.detailMaxScroll(uid, notifications: f.consumer)
            Golden.check(image: render(p, uid, scroll: end, f), "detail-128x\(height)-labels-scroll-end")
        }
    }
}
