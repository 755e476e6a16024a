import ANCS
import Notifications
import Graphics
import Screens
import Testing

/// The Do Not Disturb menu, the status bar's moon and hidden content
/// (the settings file's hideContent) against golden pictures.
@Suite("Screens: Do Not Disturb and hidden content")
struct DoNotDisturbGoldenTests {
    func quiet() -> StatusInfo {
        var s = status()
        s.doNotDisturb = true
        return s
    }

    @Test("the menu, second entry selected, both sizes")
    func menu() {
        let f = Fixture()
        Golden.check(image: Panel().render(.doNotDisturbMenu(selected: 1), quiet(), f.consumer), "dnd-menu-128x64")
        Golden.check(image: Panel(height: 32).render(.doNotDisturbMenu(selected: 1), quiet(), f.consumer), "dnd-menu-128x32")
        Golden.check(image: Panel().render(.doNotDisturbMenu(selected: 0), status(), f.consumer), "dnd-menu-off-128x64")
    }

    @Test("the moon on the clock and in the status bar, both sizes")
    func moon() {
        let inbox = Inbox.make()
        Golden.check(image: Panel().render(.idleClock, quiet(), inbox.consumer), "idle-dnd-128x64")
        Golden.check(image: Panel(height: 32).render(.idleClock, quiet(), inbox.consumer), "idle-dnd-128x32")
        Golden.check(image: Panel().render(.list(selected: 0), quiet(), inbox.consumer), "list-dnd-128x64")
    }

    @Test("the moon changes nothing else: off, the status bar is as before")
    func noMoonNoChange() {
        let inbox = Inbox.make()
        let p = Panel()
        let before = p.render(.list(selected: 0), status(), inbox.consumer)
        var s = status()
        s.doNotDisturb = false
        #expect(p.render(.list(selected: 0), s, inbox.consumer) == before)
        #expect(p.render(.list(selected: 0), quiet(), inbox.consumer) != before)
    }

    /// Mail hides its content: "Notification" instead of the title, no
    /// subtitle or message; other apps are untouched.
    static func hidingMail(_ p: Panel) -> Panel {
        p.renderer.contentHidden = { n in
            n.bytes(.appIdentifier).elementsEqual("com.apple.mobilemail".utf8)
        }
        return p
    }

    @Test("hidden content in the list and the detail, both sizes")
    func hiddenContent() {
        let inbox = Inbox.make()
        Golden.check(image: Self.hidingMail(Panel()).render(.list(selected: 2), status(), inbox.consumer), "list-hidden-128x64")
        Golden.check(image: Self.hidingMail(Panel()).render(.detail(Inbox.report, scroll: 0), status(), inbox.consumer), "detail-hidden-128x64")
        Golden.check(image: Self.hidingMail(Panel(height: 32)).render(.detail(Inbox.report, scroll: 0), status(), inbox.consumer), "detail-hidden-128x32")
        let other = Self.hidingMail(Panel()).render(.detail(Inbox.standup, scroll: 0), status(), inbox.consumer)
        #expect(other == Panel().render(.detail(Inbox.standup, scroll: 0), status(), inbox.consumer))
    }
}
