import ANCS
import BoardConfig
import HAL
import Haptics
import Screens
import Testing
import Watch

/// Issue 25 item 2: the watch's battery (low notice and pulse once,
/// critical power-off) and the phone's, on the manual clock.
@Suite struct WatchModelBatteryTests {
    static func rig(powerOff: Bool = true) -> ModelRig {
        let rig = ModelRig()
        var wiring = BatteryWiring(gauge: .max17048(bus: 1, address: 0x36))
        wiring.powerOffWhenCritical = powerOff
        rig.model.battery = wiring
        return rig
    }

    func read(_ rig: ModelRig, _ percent: Int, charging: Bool = false) {
        rig.model.watchBatteryRead(BatteryReading(percent: percent, charging: charging), now: rig.now)
        rig.sink.drain()
    }

    @Test func lowBatteryBuzzesAndSaysSoOnceUntilChargedOrWellAbove() {
        let rig = Self.rig()
        read(rig, 40)
        #expect(rig.sink.take().isEmpty)
        rig.advance(by: .seconds(60))
        _ = rig.sink.take()
        read(rig, 15)
        #expect(rig.sink.take() == [.power(.on), .play("short")])
        #expect(rig.screen == .message("Battery low: 15%"))
        // The gauge wobbles around the threshold: said once.
        for p in [16, 15, 14, 16, 13] { read(rig, p) }
        #expect(!rig.sink.take().contains(.play("short")))
        // Charged a little: no new notice until below the threshold again.
        read(rig, 14, charging: true)
        read(rig, 18)
        #expect(!rig.sink.take().contains(.play("short")))
        read(rig, 15)
        #expect(rig.sink.take().contains(.play("short")))
        // Five points above the threshold re-arms it too.
        read(rig, 20)
        read(rig, 12)
        #expect(rig.sink.take().contains(.play("short")))
    }

    @Test func aRingingCallKeepsItsScreenTheNoticeComesWithTheNextReading() {
        let rig = Self.rig()
        rig.connect()
        rig.add(42, .incomingCall, flags: [.positiveAction, .negativeAction])
        #expect(rig.screen == .incomingCall(NotificationUID(42)))
        read(rig, 12)
        #expect(rig.screen == .incomingCall(NotificationUID(42)))
        rig.remove(42)
        read(rig, 12)
        #expect(rig.screen == .message("Battery low: 12%"))
    }

    @Test func criticalBatteryAsksForAPowerOffOnceEvenInQuietHours() {
        let rig = Self.rig()
        read(rig, 6)
        _ = rig.sink.take()
        read(rig, 5)
        let effects = rig.sink.take()
        #expect(effects.contains(.powerOff))
        #expect(effects.contains(.play("short")))
        #expect(rig.screen == .message("Battery empty: powering off"))
        read(rig, 4)
        #expect(!rig.sink.take().contains(.powerOff))
        #expect(rig.model.batteryCritical)
    }

    @Test func criticalWhileChargingIsNotAnEmptyBattery() {
        let rig = Self.rig()
        read(rig, 3, charging: true)
        #expect(!rig.sink.take().contains(.powerOff))
        #expect(rig.model.watchBattery == BatteryReading(percent: 3, charging: true))
    }

    @Test func withoutPowerOffTheWatchOnlySaysSo() {
        let rig = Self.rig(powerOff: false)
        read(rig, 2)
        #expect(!rig.sink.take().contains(.powerOff))
        #expect(rig.screen == .message("Battery empty: charge the watch now"))
    }

    @Test func aBoardWithoutABatteryKeepsTheReadingAndDecidesNothing() {
        let rig = ModelRig()
        read(rig, 1)
        #expect(!rig.sink.take().contains(.powerOff))
        #expect(rig.model.watchBattery?.percent == 1)
    }

    @Test func aNewLevelRedrawsTheSameLevelDoesNot() {
        let rig = Self.rig()
        read(rig, 50)
        rig.sink.renders = 0
        read(rig, 50)
        #expect(rig.sink.renders == 0)
        read(rig, 49)
        #expect(rig.sink.renders == 1)
        rig.model.phoneBatteryChanged(80)
        #expect(rig.sink.renders == 2)
        rig.model.phoneBatteryChanged(80)
        #expect(rig.sink.renders == 2)
    }

    @Test func theStatusScreenReportsThePhoneItsKindBothBatteriesAndTheTime() {
        let rig = Self.rig()
        rig.model.linkChanged(.advertising, now: rig.now)
        #expect(rig.model.statusReport(now: rig.now).phone == .waiting)
        rig.connect()
        rig.model.linkChanged(.encrypted, now: rig.now)
        rig.model.phoneKind = .iPhone
        rig.model.phoneBatteryChanged(64)
        read(rig, 82, charging: true)
        let report = rig.model.statusReport(now: rig.now)
        #expect(report.phone == .connected(.iPhone))
        #expect(report.phoneBattery == 64)
        #expect(report.hasBattery)
        #expect(report.watchBattery == BatteryReading(percent: 82, charging: true))
        // The phone goes: its battery and kind go with it.
        rig.disconnect()
        #expect(rig.model.phoneBattery == nil)
        #expect(rig.model.phoneKind == .unknown)
    }

    @Test func theWatchMenuOpensTheStatusScreenAndTheNegativeButtonGoesBack() {
        let rig = Self.rig()
        rig.connect()
        rig.advance(by: .seconds(1))
        rig.press(.negative, .longPress)
        #expect(rig.screen == .watchMenu(selected: 0))
        rig.press(.up)  // wraps to the last entry
        #expect(rig.screen == .watchMenu(selected: WatchMenu.Entry.status.rawValue))
        rig.press(.positive)
        #expect(rig.screen == .status(scroll: 0))
        rig.press(.negative)
        #expect(rig.screen == .watchMenu(selected: WatchMenu.Entry.status.rawValue))
    }

    // MARK: the causes (issue 25 item 1, as far as built)

    @Test func aPhoneThatSharesNoNotificationsIsExplainedAndTheMenuOpensOnStatus() {
        let rig = Self.rig()
        rig.connect()
        rig.model.linkChanged(.encrypted, now: rig.now)
        rig.advance(by: .seconds(1))
        rig.model.notificationsShared = true  // ANCS subscribed
        #expect(!rig.model.statusReport(now: rig.now).needsAttention)
        rig.model.notificationsShared = false  // the controller's answer to "the phone offers no ANCS"
        let report = rig.model.statusReport(now: rig.now)
        #expect(report.notSharing && report.needsAttention)
        rig.press(.negative, .longPress)
        #expect(rig.screen == .watchMenu(selected: WatchMenu.Entry.status.rawValue))
        rig.press(.negative)
        // Gone with the phone.
        rig.disconnect()
        #expect(rig.model.notificationsShared == nil)
        #expect(!rig.model.statusReport(now: rig.now).notSharing)
    }

    @Test func silentNotificationsInARowAreCountedAndOneThatMayAlertResetsThem() {
        let rig = Self.rig()
        rig.connect()
        rig.add(1, .social, flags: [.silent])
        rig.add(2, .social, flags: [.silent])
        rig.add(3, .social, flags: [.silent, .preExisting])  // announced on connecting: not a Focus
        #expect(rig.model.silentInARow == 2)
        #expect(rig.model.statusReport(now: rig.now).silentInARow == 2)
        rig.add(4, .social)
        #expect(rig.model.silentInARow == 0)
    }

    @Test func aLostBondIsExplainedUntilTheLinkIsEncryptedAgain() {
        let rig = Self.rig()
        rig.model.bondWasLost(now: rig.now, address: "AA:BB:CC:DD:EE:FF")
        #expect(rig.screen == .message("Pair again: the phone AA:BB:CC:DD:EE:FF forgot this watch"))
        #expect(rig.model.statusReport(now: rig.now).bondLost)
        rig.connect()
        rig.model.linkChanged(.connected, now: rig.now)
        #expect(rig.model.bondLost)
        rig.model.linkChanged(.encrypted, now: rig.now)
        #expect(!rig.model.bondLost)
    }
}
