import BoardConfig
import Foundation
import HAL
import PhoneServices
import Screens
import SimBoard
import Testing
import Watch

@testable import WristCore

/// Time without an RTC, through the daemon on the simulated board: an
/// unsynchronised system clock and no phone show `--:--`; the phone's
/// Current Time takes over and stays after the phone disconnects; the
/// motor's quiet hours read the same clock (the daemon's wiring).
@Suite(.serialized) struct TimeWithoutRTCEndToEndTests {
    /// The simulated board with quiet hours 11:30-12:30 (the simulated
    /// phone's clock says 12:00).
    static func board() -> Board {
        var b = BoardLoader.builtInSimulated
        b.motor?.quietHours = (11 * 60 + 30, 12 * 60 + 30)
        return b
    }

    /// A system clock that is not synchronised (a Pi booted without network).
    static func unsynchronised() -> WatchSettings {
        var s = WatchSettings()
        s.systemClock = { nil }
        return s
    }

    static func snapshot(_ rig: SimBoardRig) throws -> [UInt8] {
        _ = try rig.harness.request("snapshot pbm", loop: rig.loop)
        let count = Int(rig.harness.lines.last!.split(separator: " ")[2])!
        return try rig.harness.takeBytes(count, loop: rig.loop)
    }

    @Test func dashesThenThePhonesTimeKeptAcrossADisconnectWithQuietHoursOnTheSameClock() throws {
        let rig = try SimBoardRig(board: Self.board(), settings: Self.unsynchronised())
        #expect(rig.watch.timeSource == .unknown)
        #expect(rig.watch.minuteOfDay == nil)
        try Golden.compare(pbm: try Self.snapshot(rig), file: "waiting-time-unknown.pbm")

        _ = try rig.harness.request("motor", loop: rig.loop)
        let phone = try rig.connectPhone()
        try #require(try rig.run(until: { rig.watch.timeSource == .phone }), "the phone's Current Time arrived")
        #expect(rig.watch.minuteOfDay == 12 * 60)
        // 12:00 by the phone is inside the quiet hours: an Important
        // notification does not vibrate.
        try rig.play(#"add uid=1 category=social title="Quiet please" flags=important"#)
        try #require(try rig.run(until: { (try? rig.notifications().count) == 1 }))
        try rig.idle(.milliseconds(300))
        rig.harness.collectMotorEvents()
        #expect(rig.harness.motorEvents.isEmpty, "quiet hours by the phone's clock")

        // Back to the clock (a list on screen stays through a disconnect, issue 15 item 4).
        _ = try rig.harness.request("press back", loop: rig.loop)
        _ = try rig.harness.request("press back", loop: rig.loop)
        try #require(try rig.run(until: { (try? rig.state()["screen"] as? String) == "idleClock" }))
        phone.perform(.disconnect)
        try #require(try rig.run(until: { (try? rig.state()["connected"] as? Bool) == false }))
        #expect(rig.watch.timeSource == .phone, "the phone's time is kept across the disconnect")
        #expect(rig.watch.minuteOfDay == 12 * 60)
        try Golden.compare(pbm: try Self.snapshot(rig), file: "waiting-phone-time-kept.pbm")
    }

    @Test func withTheTimeUnknownQuietHoursDoNotSilenceTheMotor() throws {
        // A phone whose Current Time has no date: the time stays unknown.
        let rig = try SimBoardRig(board: Self.board(), settings: Self.unsynchronised())
        _ = try rig.harness.request("motor", loop: rig.loop)
        var configuration = SimulatedPhone.Configuration()
        configuration.time = CurrentTime(year: 0, month: 0, day: 0, hours: 12, minutes: 0, seconds: 0)
        try rig.connectPhone(configuration)
        try rig.play(#"add uid=1 category=social title="Buzz" flags=important"#)
        try #require(try rig.run(until: { rig.harness.collectMotorEvents(); return rig.harness.motorStates.contains("on") }))
        #expect(rig.watch.timeSource == .unknown)
    }
}
