import Foundation
import SimBoard
import Testing
import Watch

@testable import WristCore

/// Issue 17 item 3 on the simulated board: the detail screen shows the
/// phone's labels, and when the phone refuses the negative action (ANCS
/// 0xA3 Action Failed) it says "Could not clear"; the notification stays.
@Suite(.serialized) struct ActionNoticeEndToEndTests {
    @Test func aClearThePhoneRefusesIsSaidAndTheNotificationStays() throws {
        let rig = try SimBoardRig()
        let phone = try rig.connectPhone()
        // The phone's own record offers only "Mark as Read" (positive)...
        var n = SimulatedNotification(uid: 60, category: .social, flags: [.important, .positiveAction],
                                      title: "Anna", message: "Lunch at one?", positiveActionLabel: "Mark as Read")
        n.flags.remove(.negativeAction)
        phone.perform(.add(n))
        try #require(try rig.run(until: { (try? rig.state()["uid"] as? Int) == 60 }), "it pops up")
        // ...but then announces Clear too (event 1, modified; Important,
        // PositiveAction, NegativeAction): the watch offers it, the phone
        // answers Perform Notification Action (negative) with 0xA3.
        PhoneEdgeCaseTests.notificationSource(phone, event: 1, flags: 0x1A, category: 4, uid: 60)
        try rig.idle(.milliseconds(300))
        #expect(try rig.state()["screen"] as? String == "detail")
        try Golden.compare(pbm: try PhoneEdgeCaseTests.snapshot(rig), file: "detail-labels.pbm")

        #expect(try rig.harness.request("press negative", loop: rig.loop) == "ok press negative")
        try #require(try rig.run(until: { phone.log.contains { $0.hasSuffix("-> error 0xA3") } }))
        try #require(try rig.run(until: { rig.watch.actionNotice != nil }))
        try rig.idle(.milliseconds(100))
        #expect(rig.watch.actionNotice?.action == .negative)
        let state = try rig.state()
        #expect(state["screen"] as? String == "detail", "the notification stays on screen")
        #expect(state["uid"] as? Int == 60)
        #expect(try rig.notifications().count == 1)
        try Golden.compare(pbm: try PhoneEdgeCaseTests.snapshot(rig), file: "detail-could-not-clear.pbm")

        // Still actionable: the press clears the notice, and Mark as Read
        // is one the phone performs (its simulation then removes the
        // notification, as it does for every action it accepts).
        #expect(try rig.harness.request("press positive", loop: rig.loop) == "ok press positive")
        #expect(rig.watch.actionNotice == nil)
        try #require(try rig.run(until: { phone.log.contains("answered 60") }))
        try #require(try rig.run(until: { (try? rig.notifications().count) == 0 }))
    }
}
