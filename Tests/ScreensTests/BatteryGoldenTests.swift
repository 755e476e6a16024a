import Graphics
import HAL
import Notifications
@testable import Screens
import Testing

/// Issue 25 item 2: the battery glyph in the status bar and on the clock,
/// and the status screen, against golden pictures.
@Suite("Screens: batteries and the status screen")
struct BatteryGoldenTests {
    static func withBattery(_ percent: Int, charging: Bool = false, unread: Int = 3) -> StatusInfo {
        var s = status(unread: unread)
        s.battery = BatteryReading(percent: percent, charging: charging)
        return s
    }

    @Test("the fill has a step per 14 %: empty under 8 %, full from 92 %")
    func steps() {
        #expect(ScreenRenderer.batterySteps(0) == 0)
        #expect(ScreenRenderer.batterySteps(7) == 0)
        #expect(ScreenRenderer.batterySteps(8) == 1)
        #expect(ScreenRenderer.batterySteps(50) == 4)
        #expect(ScreenRenderer.batterySteps(91) == 6)
        #expect(ScreenRenderer.batterySteps(92) == 7)
        #expect(ScreenRenderer.batterySteps(100) == 7)
        #expect(ScreenRenderer.batterySteps(250) == 7)
    }

    @Test("the status bar and both clocks, with a battery; without one, nothing moves")
    func glyph() {
        let f = Fixture()
        Golden.check(image: Panel().render(.list(selected: 0), Self.withBattery(64), f.consumer), "battery-list-128x64")
        Golden.check(image: Panel().render(.idleClock, Self.withBattery(12, charging: true, unread: 12), f.consumer), "battery-clock-128x64")
        Golden.check(image: Panel(height: 32).render(.idleClock, Self.withBattery(100), f.consumer), "battery-clock-128x32")
        // Without a battery the pictures are the ones before batteries existed.
        let tall = Panel()
        #expect(tall.render(.list(selected: 0), status(), f.consumer) == Panel().render(.list(selected: 0), StatusInfo(time: thursdayEvening, link: .encrypted, unread: 3), f.consumer))
    }

    @Test("the status screen: an iPhone, both batteries, the phone's time; and with no phone, at 128x32")
    func statusScreen() {
        let f = Fixture()
        let iPhone = StatusReport(
            phone: .connected(.iPhone), phoneBattery: 64, hasBattery: true,
            watchBattery: BatteryReading(percent: 82, charging: true), time: .phone)
        Golden.check(image: Panel().render(.status(scroll: 0), Self.withBattery(82, charging: true), f.consumer, report: iPhone),
                      "status-iphone-128x64")
        let alone = StatusReport(phone: .waiting, hasBattery: true, watchBattery: nil, time: .unknown)
        Golden.check(image: Panel(height: 32).render(.status(scroll: 0), status(.advertising), f.consumer, report: alone),
                      "status-waiting-128x32")
        // 128x32 shows three rows: scrolling reaches the last.
        let android = StatusReport(phone: .connected(.android), phoneBattery: nil, hasBattery: true,
                                   watchBattery: BatteryReading(percent: 40, charging: false), time: .system)
        #expect(ScreenRenderer.statusLineCount(android) == 3)
        #expect(ScreenRenderer.statusLineCount(iPhone) == 4)
        Golden.check(image: Panel(height: 32).render(.status(scroll: 1), status(), f.consumer, report: iPhone),
                     "status-iphone-scrolled-128x32")
    }

    @Test("the causes first: notifications not shared (where the switch is), Silent in a row, the rows counted")
    func causes() {
        let f = Fixture()
        var report = StatusReport(phone: .connected(.unknown), hasBattery: false, time: .phone)
        report.notSharing = true
        #expect(ScreenRenderer.statusLineCount(report) == 7)
        Golden.check(image: Panel().render(.status(scroll: 0), status(), f.consumer, report: report), "status-not-sharing-128x64")
        var focus = StatusReport(phone: .connected(.iPhone), phoneBattery: 50, time: .phone)
        focus.silentInARow = 4
        focus.notAnswering = true
        #expect(ScreenRenderer.statusLineCount(focus) == 7)
        Golden.check(image: Panel().render(.status(scroll: 0), status(), f.consumer, report: focus), "status-silent-128x64")
        let alone = StatusReport(phone: .waiting, time: .unknown)
        #expect(ScreenRenderer.statusLineCount(alone) == 3)
    }

    @Test("every cause's rows at 128x64 and 128x32: not paired (with the watch's name), pairing, looking, the adapter gone, a lost bond")
    func linkCauses() {
        let f = Fixture()
        var notPaired = StatusReport(phone: .waiting, time: .system)
        notPaired.notPaired = true
        #expect(ScreenRenderer.statusLineCount(notPaired) == 5)
        let tall = Panel()
        tall.renderer.setWatchName("Anna's watch")
        Golden.check(image: tall.render(.status(scroll: 0), status(.advertising), f.consumer, report: notPaired), "status-not-paired-128x64")
        let short = Panel(height: 32)
        short.renderer.setWatchName("Anna's watch")
        Golden.check(image: short.render(.status(scroll: 0), status(.advertising), f.consumer, report: notPaired), "status-not-paired-128x32")
        // Scrolled: the name's row, then what the watch knows.
        Golden.check(image: short.render(.status(scroll: 2), status(.advertising), f.consumer, report: notPaired), "status-not-paired-scrolled-128x32")

        var pairing = StatusReport(phone: .connected(.unknown), time: .system)
        pairing.pairing = true
        Golden.check(image: Panel(height: 32).render(.status(scroll: 0), status(.connected), f.consumer, report: pairing), "status-pairing-128x32")
        var looking = StatusReport(phone: .connected(.unknown), phoneBattery: 71, time: .phone)
        looking.lookingForNotifications = true
        Golden.check(image: Panel().render(.status(scroll: 0), status(.encrypted), f.consumer, report: looking), "status-looking-128x64")
        Golden.check(image: Panel(height: 32).render(.status(scroll: 0), status(.encrypted), f.consumer, report: looking), "status-looking-128x32")
        var gone = StatusReport(phone: .bluetoothOff, hasBattery: true, watchBattery: BatteryReading(percent: 55, charging: false), time: .system)
        gone.adapterGone = true
        #expect(ScreenRenderer.statusLineCount(gone) == 5)
        Golden.check(image: Panel().render(.status(scroll: 0), status(.off), f.consumer, report: gone), "status-adapter-gone-128x64")
        Golden.check(image: Panel(height: 32).render(.status(scroll: 0), status(.off), f.consumer, report: gone), "status-adapter-gone-128x32")
        var lost = StatusReport(phone: .waiting, time: .system)
        lost.bondLost = true
        Golden.check(image: Panel(height: 32).render(.status(scroll: 0), status(.advertising), f.consumer, report: lost), "status-bond-lost-128x32")
        var notSharing = StatusReport(phone: .connected(.unknown), time: .phone)
        notSharing.notSharing = true
        Golden.check(image: Panel(height: 32).render(.status(scroll: 0), status(), f.consumer, report: notSharing), "status-not-sharing-128x32")
    }
}
