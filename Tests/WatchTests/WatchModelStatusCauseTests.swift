import HAL
import Input
import Notifications
import Screens
import Testing

@testable import Watch

/// Issue 25 item 1: every cause the watch can tell, on the Status screen,
/// and the watch menu opening there while one asks for action (the `?` and
/// `!` beside the Bluetooth rune lead to it).
@Suite struct WatchModelStatusCauseTests {
    func report(_ rig: ModelRig) -> StatusReport { rig.model.statusReport(now: rig.now) }

    func menuOpensOnStatus(_ rig: ModelRig) -> Bool {
        rig.press(.negative, .longPress)
        defer { rig.press(.negative) }
        return rig.screen == .watchMenu(selected: WatchMenu.Entry.status.rawValue)
    }

    @Test func noBondWhileAdvertisingIsNotPairedUntilAPhonePairs() {
        let rig = ModelRig()
        rig.model.linkChanged(.advertising, now: rig.now)
        // A link that keeps no bonds (the simulated phone endpoint) never says "not paired".
        #expect(!report(rig).notPaired)
        rig.model.pairedChanged(false)
        #expect(report(rig).notPaired && report(rig).needsAttention)
        #expect(rig.sink.renders > 0)
        rig.sink.drain()
        // The phone connects: pairing (not encrypted yet), then encrypted and paired.
        rig.connect()
        rig.model.linkChanged(.connected, now: rig.now)
        #expect(!report(rig).notPaired)
        #expect(report(rig).pairing && report(rig).needsAttention)
        rig.model.pairedChanged(true)
        rig.model.linkChanged(.encrypted, now: rig.now)
        #expect(!report(rig).pairing)
        rig.disconnect()
        rig.model.linkChanged(.advertising, now: rig.now)
        #expect(!report(rig).notPaired && !report(rig).needsAttention)
    }

    @Test func theWatchMenuOpensOnStatusWhileNotPaired() {
        let rig = ModelRig()
        rig.model.linkChanged(.advertising, now: rig.now)
        rig.model.pairedChanged(true)
        #expect(!menuOpensOnStatus(rig))
        rig.model.pairedChanged(false)
        #expect(menuOpensOnStatus(rig))
    }

    @Test func anEncryptedLinkWhoseNotificationsAreNotYetFoundIsTheQuestionMark() {
        let rig = ModelRig()
        rig.model.pairedChanged(true)
        // A source that has not subscribed yet (health unknown: the `?` beside the rune).
        rig.model.phoneConnected(notifications: NoNotifications(), now: rig.now)
        rig.model.linkChanged(.encrypted, now: rig.now)
        rig.advance(by: .seconds(1))
        #expect(rig.model.notifications.health.state == .unknown)
        #expect(report(rig).lookingForNotifications)
        #expect(menuOpensOnStatus(rig))
        rig.model.notificationsShared = true
        #expect(!report(rig).lookingForNotifications)
        #expect(!menuOpensOnStatus(rig))
        // Not the iPhone's question: Gadgetbridge speaks when it has something.
        rig.model.notificationsShared = nil
        rig.model.phoneKind = .android
        #expect(!report(rig).lookingForNotifications)
    }

    @Test func theAdapterGoneIsSaidNowAndExplainedUntilItIsBack() {
        let rig = ModelRig()
        rig.model.linkChanged(.advertising, now: rig.now)
        rig.model.adapterChanged(present: false, now: rig.now)
        rig.model.linkChanged(.off, now: rig.now)
        #expect(rig.screen == .message("Bluetooth adapter gone"))
        #expect(report(rig).adapterGone && report(rig).phone == .bluetoothOff)
        rig.advance(by: .seconds(10))
        rig.press(.negative)  // the notice's away
        #expect(menuOpensOnStatus(rig), "\(rig.screen)")
        rig.model.adapterChanged(present: true, now: rig.now)
        #expect(rig.screen == .message("Bluetooth adapter back"))
        #expect(!report(rig).adapterGone)
    }

    @Test func eachCauseHasANameAndWordsAndABitOfItsOwn() {
        var r = StatusReport(phone: .waiting)
        #expect(r.causeBits == 0 && !r.needsAttention)
        r.adapterGone = true
        r.notPaired = true
        r.silentInARow = 1
        #expect(r.causeBits == 0b11)
        r.silentInARow = 2
        #expect(r.has(.silent) && r.causeBits == 0b1000_0011)
        #expect(r.needsAttention)
        var names: [String] = []
        for cause in StatusReport.Cause.allCases { names.append("\(cause.name)") }
        #expect(names == ["adapterGone", "notPaired", "pairing", "lookingForNotifications", "notSharing", "notAnswering", "bondLost", "silent"])
        for cause in StatusReport.Cause.allCases { #expect("\(cause.words)".utf8.count > 20) }
        // Silent alone asks for nothing: listed, not buzzed is what the wearer chose.
        var silent = StatusReport(phone: .connected(.iPhone))
        silent.silentInARow = 5
        #expect(!silent.needsAttention)
    }
}
