import ANCS
import Notifications
import BoardConfig
import Foundation
import HAL
import PhoneServices
import SimBoard
import Testing
import Watch

@testable import WristCore

/// Issue 15 items 1 and 4 on the simulated board, through its phone and
/// harness sockets: a silent phone is re-subscribed (the phone sees it), a
/// phone that stops answering shows the health mark, a reconnect keeps the
/// list and reconciles it, and a longer absence raises the disconnect alert.
@Suite(.serialized) struct HealthAndReconnectTests {
    static func snapshot(_ rig: SimBoardRig) throws -> [UInt8] {
        _ = try rig.harness.request("snapshot pbm", loop: rig.loop)
        let count = Int(rig.harness.lines.last!.split(separator: " ")[2])!
        return try rig.harness.takeBytes(count, loop: rig.loop)
    }

    static func ancs(_ rig: SimBoardRig) throws -> [String: Any] {
        try #require(try rig.state()["ancs"] as? [String: Any])
    }

    static func titles(_ rig: SimBoardRig) throws -> [String] {
        try rig.notifications().map { ($0["title"] as? String) ?? "" }
    }

    static let anna = SimulatedNotification(
        uid: 1, category: .social, appIdentifier: "com.apple.MobileSMS", title: "Anna", message: "Lunch?", date: "20240501T093000")
    static let bob = SimulatedNotification(
        uid: 2, category: .email, appIdentifier: "com.apple.mobilemail", title: "Bob", message: "Report", date: "20240501T091500")
    static let cleo = SimulatedNotification(
        uid: 3, category: .social, appIdentifier: "com.apple.MobileSMS", title: "Cleo", message: "Hi", date: "20240501T094000")

    /// The phone's clock at the rig's pinned system time, so the pictures
    /// are the same whichever clock the watch shows.
    static func phone(_ preexisting: [SimulatedNotification] = []) -> SimulatedPhone.Configuration {
        var c = SimulatedPhone.Configuration()
        c.time = CurrentTime(year: 2024, month: 5, day: 1, hours: 9, minutes: 41, seconds: 0, dayOfWeek: 3)
        c.preexisting = preexisting
        return c
    }

    /// The board file's `bluetooth.disconnectAlertSeconds` (default 10).
    static func board(alertSeconds: Int?) throws -> Board {
        var root = #filePath
        for _ in 0..<4 { root = String(root[..<root.lastIndex(of: "/")!]) }  // Tests/WristCoreTests/EndToEnd/x.swift
        var text = try String(contentsOfFile: root + "/Boards/sim.json", encoding: .utf8)
        if let alertSeconds {
            text = text.replacingOccurrences(
                of: "\"bluetooth\": { \"hci\": 0, \"name\": \"WristCore Sim\" }",
                with: "\"bluetooth\": { \"hci\": 0, \"name\": \"WristCore Sim\", \"disconnectAlertSeconds\": \(alertSeconds) }")
        }
        return try BoardLoader.parse(text, file: "Boards/sim.json")
    }

    @Test func theBoardFileSetsTheDisconnectAlertDelay() throws {
        #expect(try Self.board(alertSeconds: nil).bluetooth.disconnectAlert == .seconds(10))
        #expect(try Self.board(alertSeconds: 3).bluetooth.disconnectAlert == .seconds(3))
        #expect(try Self.board(alertSeconds: 0).bluetooth.disconnectAlert == nil)
        #expect(throws: BoardError.self) { try Self.board(alertSeconds: 4000) }
        let rig = try SimBoardRig(board: try Self.board(alertSeconds: 3))
        #expect(rig.watch.model.disconnectAlertDelay == .seconds(3))
    }

    /// Item 1: the phone keeps its subscription and sends nothing; the
    /// watch (its checks shortened on the running session) re-subscribes,
    /// the phone sees both CCCDs written off and on, and what it withheld
    /// arrives. The harness and systemd's STATUS= say so.
    @Test func aSilentPhoneIsResubscribedAndThePhoneSeesIt() throws {
        let rig = try SimBoardRig()
        let phone = try rig.connectPhone(Self.phone([Self.anna]))
        try #require(try rig.run(until: { (try? Self.titles(rig)) == ["Anna"] }))
        var a = try Self.ancs(rig)
        #expect(a["state"] as? String == "ok")
        #expect(a["lastResult"] as? String == "subscribed")
        #expect(a["lastNotificationSourceAge"] is Double || a["lastNotificationSourceAge"] is Int)

        rig.watch.session!.liveness = LivenessPolicy(probeAfterQuiet: .milliseconds(200), resubscribeAfterSilence: .seconds(1))
        try #require(try rig.run(until: { (try? Self.ancs(rig)["probes"] as? Int).map { $0 >= 1 } ?? false }))
        #expect(phone.log.contains("control point get notification attributes 4294967295 -> error 0xA2"))
        let mark = phone.log.count
        phone.goSilent()
        phone.perform(.add(SimulatedNotification(
            uid: 7, category: .social, appIdentifier: "com.apple.MobileSMS", title: "Withheld", date: "20240501T094100")))
        #expect(phone.eventsWithheld == 1)
        try #require(try rig.run(until: { phone.resubscriptions == 1 }), "the phone saw the watch re-subscribe")
        let cccd = phone.log[mark...].filter {
            $0.hasPrefix("ancs session") || $0.hasPrefix("data source") && $0.hasSuffix("subscribed")
        }
        #expect(Array(cccd.prefix(4)) == ["ancs session ended", "data source unsubscribed", "data source subscribed", "ancs session started"])
        try #require(try rig.run(until: { (try? Self.titles(rig).sorted()) == ["Anna", "Withheld"] }), "withheld arrives, Anna once")
        a = try Self.ancs(rig)
        #expect(a["resubscribes"] as? Int == 1)
        #expect(a["resubscribeFailures"] as? Int == 0)
        #expect(a["lastResult"] as? String == "resubscribed" || a["lastResult"] as? String == "probeAnswered")
        #expect(a["state"] as? String == "ok")
        let status = rig.watch.healthStatus
        #expect(status.hasPrefix("ANCS ok: last notification event "), "\(status)")
        #expect(status.contains("1 re-subscriptions (0 failed)"), "\(status)")
    }

    /// Item 1: systemd's STATUS= carries the ANCS health while a phone is
    /// connected, refreshed with the watchdog's period.
    @Test func systemdStatusCarriesTheHealth() throws {
        let receiver = AdapterLossDaemonTests.NotifyReceiver()
        let rig = try SimBoardRig(systemdNotify: (receiver.path, .milliseconds(200)))
        rig.daemon.startSystemdNotifications(loop: rig.loop)
        var messages: [String] = []
        let phone = try rig.connectPhone(Self.phone([Self.anna]))
        try #require(try rig.run(until: {
            messages += receiver.drain()
            return messages.contains { $0.contains("; ANCS ok: last notification event 0 min ago, 0 probes (0 unanswered), 0 re-subscriptions (0 failed), last check: subscribed") }
        }), "\(messages)")
        #expect(messages.first?.hasPrefix("READY=1\nSTATUS=") == true)
        rig.watch.session!.liveness = LivenessPolicy(probeAfterQuiet: .milliseconds(100), resubscribeAfterSilence: nil)
        try #require(try rig.run(until: {
            messages += receiver.drain()
            return messages.contains { $0.hasPrefix("STATUS=") && $0.contains("last check: probeAnswered") }
        }), "\(messages)")
        phone.perform(.disconnect)
        try #require(try rig.run(until: {
            messages += receiver.drain()
            return messages.last(where: { $0.hasPrefix("STATUS=") }).map { !$0.contains("ANCS") } ?? false
        }), "without a phone, the link's status alone: \(messages)")
    }

    /// Item 1: a phone that stops answering its Control Point: the probe
    /// goes unanswered (5 s), the status bar shows '!' and the harness says
    /// the watch is re-subscribing (the ATT timeout then drops the link).
    @Test func anUnansweredProbeShowsTheHealthMark() throws {
        let rig = try SimBoardRig()
        let phone = try rig.connectPhone(Self.phone())
        try #require(try rig.run(until: { (try? rig.state()["screen"] as? String) == "idleClock" }))
        phone.stopAnsweringControlPoint()
        rig.watch.session!.liveness = LivenessPolicy(probeAfterQuiet: .milliseconds(100), resubscribeAfterSilence: nil)
        try #require(try rig.run(until: { phone.log.last?.hasSuffix("-> no answer") == true }))
        try #require(try rig.run(until: { (try? Self.ancs(rig)["state"] as? String) == "failing" }, timeout: .seconds(10)))
        let a = try Self.ancs(rig)
        #expect(a["probesUnanswered"] as? Int == 1)
        #expect(a["lastResult"] as? String == "resubscribing")
        try Golden.compare(pbm: try Self.snapshot(rig), file: "health-failing-idle.pbm")
    }

    /// Item 4: the phone drops the link and comes back: the list stays
    /// (marked as from the previous session), a 1 s absence raises the
    /// alert (a short pulse and a notice), and the new session's
    /// announcements reconcile the list: one entry per notification, the
    /// one the phone dropped meanwhile gone.
    @Test func aReconnectKeepsTheListReconcilesItAndTheAbsenceIsAnnounced() throws {
        let rig = try SimBoardRig(board: try Self.board(alertSeconds: 1))
        _ = try rig.harness.request("motor", loop: rig.loop)
        let phone = try rig.connectPhone(Self.phone([Self.bob, Self.anna]))
        try #require(try rig.run(until: { (try? Self.titles(rig)) == ["Anna", "Bob"] }))
        #expect(try rig.harness.request("press select", loop: rig.loop) == "ok press select")
        try #require(try rig.run(until: { (try? rig.state()["screen"] as? String) == "list" }))

        phone.perform(.disconnect)
        try #require(try rig.run(until: { rig.watch.session == nil }))
        let state = try rig.state()
        #expect(state["screen"] as? String == "list", "the list stays")
        #expect(state["notifications"] as? Int == 2)
        #expect(try Self.titles(rig) == ["Anna", "Bob"])
        var kept = 0
        rig.watch.notifications.forEachNotification(newestFirst: true) { if $0.isFromPreviousSession { kept += 1 } }
        #expect(kept == 2)
        try Golden.compare(pbm: try Self.snapshot(rig), file: "list-previous-session.pbm")
        rig.harness.collectMotorEvents()
        #expect(!rig.harness.motorStates.contains("on"), "not yet")
        try #require(try rig.run(until: { rig.harness.collectMotorEvents(); return rig.harness.motorStates.contains("on") }),
                     "the alert pulses once the phone has been gone for a second")
        try #require(try rig.run(until: { (try? rig.state()["screen"] as? String) == "message" }))
        try Golden.compare(pbm: try Self.snapshot(rig), file: "phone-disconnected.pbm")

        // Back, without Bob (dismissed on the phone meanwhile) and with Cleo.
        let again = try rig.connectPhone(Self.phone([Self.anna, Self.cleo]))
        try #require(try rig.run(until: {
            var kept = 0
            rig.watch.notifications.forEachNotification(newestFirst: true) { if $0.isFromPreviousSession { kept += 1 } }
            return kept == 0 && (try? Self.titles(rig).sorted()) == ["Anna", "Cleo"]
        }), "reconciled: \((try? Self.titles(rig)) ?? [])")
        let stats = (rig.watch.notifications as! NotificationConsumer).statistics
        #expect(stats.previousSessionReannounced == 1 && stats.previousSessionDropped == 1)
        #expect(again.ancsSessionActive)
        #expect(try rig.state()["ancs"].flatMap { ($0 as? [String: Any])?["state"] as? String } == "ok")
    }
}
