import ANCS
import Notifications
import Foundation
import HAL
import Log
import PhoneServices
import SimBoard
import Testing
import Watch

@testable import WristCore

/// What an independent phone found (issue 19), through the simulated board's
/// phone and harness endpoints: what the wearer sees and feels, and what
/// the watch logs.
@Suite(.serialized) struct PhoneEdgeCaseTests {
    static func snapshot(_ rig: SimBoardRig) throws -> [UInt8] {
        _ = try rig.harness.request("snapshot pbm", loop: rig.loop)
        let count = Int(rig.harness.lines.last!.split(separator: " ")[2])!
        return try rig.harness.takeBytes(count, loop: rig.loop)
    }

    /// A Notification Source notification sent straight from the phone's
    /// GATT server (bypassing its own notification list).
    static func notificationSource(_ phone: SimulatedPhone, event: UInt8, flags: UInt8, category: UInt8, uid: UInt32) {
        let bytes: [UInt8] = [event, flags, category, 1, UInt8(uid & 0xFF), UInt8(uid >> 8 & 0xFF), UInt8(uid >> 16 & 0xFF), UInt8(uid >> 24)]
        _ = bytes.withUnsafeBytes { phone.server.notify(valueHandle: phone.handles.notificationSource, value: $0) }
    }

    /// Item 5: a call already ringing when the phone connects rings and can
    /// be answered.
    @Test func aCallRingingWhenThePhoneConnectsRingsAndCanBeAnswered() throws {
        let rig = try SimBoardRig()
        _ = try rig.harness.request("motor", loop: rig.loop)
        var config = SimulatedPhone.Configuration()
        config.preexisting = [
            SimulatedNotification(uid: 3, category: .social, title: "Earlier"),
            SimulatedNotification(uid: 42, category: .incomingCall, appIdentifier: "com.apple.mobilephone", title: "Mum"),
        ]
        let phone = try rig.connectPhone(config)
        try #require(try rig.run(until: { (try? rig.state()["ringing"] as? Int) == 42 }), "the call in progress rings")
        #expect(try rig.state()["screen"] as? String == "incomingCall")
        try #require(try rig.run(until: { rig.harness.collectMotorEvents(); return rig.harness.motorStates.contains("on") }))
        #expect(try rig.harness.request("press positive", loop: rig.loop) == "ok press positive")
        try #require(try rig.run(until: { phone.log.contains("answered 42") }))
        try #require(try rig.run(until: { (try? rig.state()["screen"] as? String) != "incomingCall" }))
        #expect(try rig.state()["ringing"] is NSNull)
        #expect(try rig.state()["motor"] as? String == "off")
    }

    /// Item 6: the phone refuses the answer (0xA3): the ring stops, the call
    /// screen says so and the call can still be declined.
    @Test func aRefusedAnswerIsShownAndTheCallStaysActionable() throws {
        let rig = try SimBoardRig()
        _ = try rig.harness.request("motor", loop: rig.loop)
        let phone = try rig.connectPhone()
        // The phone's own record of 50 offers only Clear (negative), but the
        // watch is told it is an incoming call with both actions: the
        // phone answers Perform Notification Action (positive) with 0xA3.
        phone.perform(.add(SimulatedNotification(uid: 50, category: .social, appIdentifier: "com.apple.mobilephone", title: "Mum")))
        try #require(try rig.run(until: { (try? rig.notifications().first?["title"] as? String) == "Mum" }))
        Self.notificationSource(phone, event: 2, flags: 0, category: 4, uid: 50)
        Self.notificationSource(phone, event: 0, flags: 0x18, category: 1, uid: 50)
        try #require(try rig.run(until: { (try? rig.state()["ringing"] as? Int) == 50 }))
        #expect(try rig.harness.request("press positive", loop: rig.loop) == "ok press positive")
        try #require(try rig.run(until: { phone.log.contains { $0.hasSuffix("-> error 0xA3") } }))
        try #require(try rig.run(until: { (try? rig.state()["ringing"]) is NSNull }))
        try rig.idle(.milliseconds(100))
        let state = try rig.state()
        #expect(state["screen"] as? String == "incomingCall", "the call stays on screen")
        #expect(state["uid"] as? Int == 50)
        #expect(state["motor"] as? String == "off")
        #expect(rig.watch.callNotice == .couldNotAnswer)
        try Golden.compare(pbm: try Self.snapshot(rig), file: "call-could-not-answer.pbm")
        // Still actionable: Decline is the phone's Clear, which it performs.
        #expect(try rig.harness.request("press negative", loop: rig.loop) == "ok press negative")
        try #require(try rig.run(until: { phone.log.contains("dismissed 50") }))
        try #require(try rig.run(until: { (try? rig.state()["screen"] as? String) == "idleClock" }))
        #expect(rig.watch.callNotice == nil)
    }

    /// Item 7: the phone removes what it sent: no unread count is left.
    @Test func removalsClearTheUnreadCount() throws {
        let rig = try SimBoardRig()
        try rig.connectPhone()
        try rig.play("""
            add uid=1 category=social title="One" flags=silent
            add uid=2 category=social title="Two" flags=silent
            add uid=3 category=social title="Three" flags=silent
            """)
        try #require(try rig.run(until: { (try? rig.notifications().count) == 3 }))
        #expect(rig.watch.unread == 3)
        try rig.play("remove uid=1\nremove uid=2\nremove uid=3")
        try #require(try rig.run(until: { (try? rig.notifications().count) == 0 }))
        try rig.idle(.milliseconds(50))
        #expect(rig.watch.unread == 0)
        #expect(try rig.state()["screen"] as? String == "idleClock")
        // The clock without an envelope.
        try Golden.compare(pbm: try Self.snapshot(rig), file: "idle-after-removals.pbm")
    }

    /// Item 8: a disconnect on the phone endpoint: the link indicator goes
    /// back to waiting for a phone.
    @Test func theLinkStateFollowsADisconnect() throws {
        let rig = try SimBoardRig()
        #expect(try rig.state()["link"] as? String == "advertising")
        let phone = try rig.connectPhone()
        #expect(try rig.state()["link"] as? String == "connected")
        phone.perform(.disconnect)
        try #require(try rig.run(until: { (try? rig.state()["connected"] as? Bool) == false }))
        #expect(try rig.state()["link"] as? String == "advertising")
        #expect(rig.watch.link == .advertising)
    }

    /// Item 8: ANCS disappears (Service Changed) while a notification is
    /// open: no stale notification stays on screen or in the count.
    @Test func aServiceChangedLeavesNoStaleNotification() throws {
        let rig = try SimBoardRig()
        let phone = try rig.connectPhone()
        try rig.play(#"add uid=7 category=social title="Anna" message="Lunch?" flags=important"#)
        try #require(try rig.run(until: { (try? rig.state()["uid"] as? Int) == 7 }))
        #expect(rig.watch.unread == 1)
        try #require(try rig.run(until: { phone.log.contains("service changed subscribed") }))
        phone.perform(.unpublishANCS)
        try #require(try rig.run(until: { (try? rig.state()["notifications"] as? Int) == 0 }))
        try rig.idle(.milliseconds(50))
        let state = try rig.state()
        #expect(state["screen"] as? String == "idleClock")
        #expect(state["uid"] is NSNull)
        #expect(state["link"] as? String == "connected", "the link itself is up")
        #expect(rig.watch.unread == 0)
    }

    /// Item 9: by default only Important notifications and calls vibrate.
    @Test func aPlainNotificationDoesNotVibrateAnImportantOneDoes() throws {
        let rig = try SimBoardRig()
        _ = try rig.harness.request("motor", loop: rig.loop)
        try rig.connectPhone()
        try rig.play(#"add uid=3 category=social title="Plain""#)
        try #require(try rig.run(until: { (try? rig.notifications().first?["title"] as? String) == "Plain" }))
        try rig.idle(.milliseconds(300))
        rig.harness.collectMotorEvents()
        #expect(rig.harness.motorStates == [], "no pulse for a plain notification")
        try rig.play(#"add uid=4 category=social title="Urgent" flags=important"#)
        try #require(try rig.run(until: { rig.harness.collectMotorEvents(); return rig.harness.motorStates.count >= 4 }))
        #expect(rig.harness.motorStates == ["on", "off", "on", "off"])
    }

    /// Items 1 and 2 (the app's end): what the watch logs when the session
    /// cannot send a command, and when the phone sent an overlong value.
    @Test func unsendableCommandsAndOverlongValuesAreLoggedForWhatTheyAre() throws {
        let capture = LogCapture()
        let rig = try SimBoardRig(logger: capture.logger(level: .warning))
        try rig.connectPhone()
        let session = try #require(rig.watch.session)
        session.eventHandler?(.ancsCommandNotSent(.queueFull))
        session.eventHandler?(.ancs(.protocolError(.attributeExceedsMaxLength(
            NotificationUID(3), attributeID: NotificationAttributeID.title.rawValue, length: 80, maxLength: 64))))
        session.eventHandler?(.ancs(.protocolError(.unexpectedWriteResponse)))
        #expect(capture.messages(at: .warning) == [
            "cannot send an ANCS command: the ATT request queue is full",
            "the phone sent Title longer than the requested 64 bytes: kept the first 64",
            "dropped malformed ANCS data: unexpectedWriteResponse",
        ])
    }
}
