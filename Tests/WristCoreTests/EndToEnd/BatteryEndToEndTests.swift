import BoardConfig
import Notifications
import Foundation
import Glibc
import HAL
import LinuxHAL
import LinuxLoop
import Log
import SimBoard
import Testing
import Watch

@testable import WristCore

/// Issue 25 item 2 end to end: the daemon on the simulated board with a
/// battery (an emulated MAX17048 read by the real gauge code), driven
/// through the harness; the phone's Battery Service through the simulated
/// iPhone; the watch's level told to a Gadgetbridge phone.
@Suite(.serialized) struct BatteryEndToEndTests {
    static func board() -> Board {
        var b = BoardLoader.builtInSimulated
        b.battery = BatteryWiring(gauge: .max17048(bus: 1, address: 0x36))
        return b
    }

    @Test func theHarnessSetsTheBatteryTheWatchWarnsThenAsksForAPowerOff() throws {
        let request = "/tmp/wristcore-poweroff-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(request) }
        let rig = try SimBoardRig(board: Self.board(), options: { $0.powerOffRequestPath = request })
        // Read at start: the emulated gauge starts at 80 %.
        var pulses = 0
        rig.daemon.simulatedMotorLine?.changeHandler = { on in if on { pulses += 1 } }
        var battery = try #require(try rig.state()["battery"] as? [String: Any])
        #expect(battery["percent"] as? Int == 80)
        #expect(battery["charging"] as? Bool == false)
        #expect(try rig.harness.request("battery 14", loop: rig.loop) == "ok battery 14")
        var state = try rig.state()
        battery = try #require(state["battery"] as? [String: Any])
        #expect(battery["percent"] as? Int == 14)
        #expect(state["screen"] as? String == "message")
        #expect(rig.watch.model.screen == .message("Battery low: 14%"))
        #expect(pulses == 1)
        #expect(access(request, F_OK) != 0)
        // Charging: the glyph's bolt, no notice.
        #expect(try rig.harness.request("battery 30 charging", loop: rig.loop) == "ok battery 30 charging")
        state = try rig.state()
        #expect((state["battery"] as? [String: Any])?["charging"] as? Bool == true)
        // Empty: the request file appears, owner-only, and the screen says so.
        #expect(try rig.harness.request("battery 4", loop: rig.loop) == "ok battery 4")
        #expect(rig.watch.model.screen == .message("Battery empty: powering off"))
        var st = stat()
        #expect(lstat(request, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o600)
        #expect(st.st_mode & S_IFMT == S_IFREG)
        #expect(try rig.harness.request("battery 101", loop: rig.loop).hasPrefix("error battery needs a level"))
        #expect(try rig.harness.request("battery phone 40", loop: rig.loop).hasPrefix("error battery phone:"))
    }

    @Test func aBoardWithoutABatteryRefusesTheCommandAndReportsNone() throws {
        let rig = try SimBoardRig()
        #expect(try rig.state()["battery"] is NSNull)
        #expect(try rig.harness.request("battery 50", loop: rig.loop).hasPrefix("error battery: only the simulated board's battery"))
    }

    @Test func thePhonesBatteryReachesTheStateAndTheStatusScreen() throws {
        let rig = try SimBoardRig(board: Self.board())
        let phone = try rig.connectPhone()
        try #require(try rig.run(until: { rig.watch.model.phoneBattery == 87 }))
        #expect(try rig.state()["phoneBattery"] as? Int == 87)
        #expect(rig.watch.model.phoneKind == .iPhone)
        phone.setBattery(31)
        try #require(try rig.run(until: { rig.watch.model.phoneBattery == 31 }))
        let report = rig.watch.model.statusReport(now: rig.watch.now)
        #expect(report.phone == .connected(.iPhone))
        #expect(report.phoneBattery == 31)
        #expect(report.watchBattery?.percent == 80)
    }

    @Test func aGadgetbridgePhoneIsToldTheWatchsBatteryOnConnectingAndOnAChange() throws {
        let loop = try EpollLoop()
        var options = WatchDaemon.Options()
        options.keepsDoNotDisturb = false  // the state directory is not the test's
        options.settings = SimBoardRig.settings()
        options.androidPhoneScript = [.time(localSeconds: 1_714_556_460), .timeZone(seconds: 0)]
        let daemon = WatchDaemon(board: Self.board(), logger: Logger(label: "t", sink: .discarding, level: .critical), options: options)
        try daemon.start(on: loop)
        defer { daemon.stop() }
        let devices = try #require(daemon.devices as? SimulatedBoardDevices)
        let phone = try #require(devices.builtInAndroidPhone)
        try #require(try loop.runUntil(timeout: .seconds(10)) { phone.replies.contains { $0.contains("\"t\":\"status\"") } })
        #expect(phone.replies.contains("{\"t\":\"status\",\"bat\":80,\"chg\":0,\"volt\":3.900}"), "\(phone.replies)")
        #expect(devices.setBattery(percent: 81, charging: true))
        daemon.battery?.readNow()
        try #require(try loop.runUntil(timeout: .seconds(10)) { phone.replies.contains { $0.contains("\"bat\":81") } })
        #expect(phone.replies.last?.hasPrefix("{\"t\":\"status\",\"bat\":81,\"chg\":1") == true, "\(phone.replies)")
        // The same reading again tells the phone nothing new.
        let count = phone.replies.count
        daemon.battery?.readNow()
        _ = try loop.runUntil(timeout: .milliseconds(200)) { false }
        #expect(phone.replies.count == count)
    }

    /// Issue 25 item 1, as far as built: the causes in the harness `state`
    /// and in the words STATUS= carries.
    @Test func theStatusCausesReachTheStateAndTheSystemdStatusWords() throws {
        let rig = try SimBoardRig()
        try rig.connectPhone()
        #expect(try rig.state()["causes"] as? [String] == [])
        #expect(rig.watch.statusCauses.isEmpty)
        try rig.play("""
            add uid=11 category=social title="Anna" message="one" flags=silent
            add uid=12 category=social title="Anna" message="two" flags=silent
            """)
        try #require(try rig.run(until: { rig.watch.model.silentInARow == 2 }))
        rig.watch.bondWasLost(address: "AA:BB:CC:DD:EE:FF")
        #expect(try rig.state()["causes"] as? [String] == ["bondLost", "silent"])
        #expect(rig.watch.statusCauses == "the phone forgot this watch: pair again; "
            + "2 notifications came Silent in a row (a Focus is on?): listed, not buzzed")
    }

    /// A new level reaches the panel: the status bar's glyph is flushed.
    @Test func aNewLevelIsFlushedToThePanelOnTheList() throws {
        let rig = try SimBoardRig(board: Self.board())
        try rig.connectPhone()
        try rig.play(#"add uid=5 category=social title="Anna" message="hello" flags=important"#)
        try #require(try rig.run(until: { rig.watch.screen == .detail(NotificationID(5), scroll: 0) }))
        #expect(try rig.harness.request("press back", loop: rig.loop) == "ok press back")
        #expect(rig.watch.screen == .list(selected: 0), "\(rig.watch.screen)")
        let devices = try #require(rig.daemon.devices)
        var before = rig.watch.driver.totals.busBytes
        for percent in [50, 36, 50, 36] {
            #expect(devices.setBattery(percent: percent, charging: false))
            rig.daemon.battery?.readNow()
            try rig.idle(.milliseconds(50))
            let after = rig.watch.driver.totals.busBytes
            #expect(after > before, "\(percent) %: no bytes to the panel")
            before = after
        }
    }
}
