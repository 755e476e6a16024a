import Glibc
import HAL
import LinuxHAL
import PhoneServices
import Screens
import SimBoard
import Testing
import Timekeeping
import Watch
@testable import WatchFiles

@testable import WristCore

/// Issue 25 item 4 on the simulated board: an alarm set with the buttons
/// is kept in the state directory (0600) and set again after a restart; it
/// rings on the phone's time through quiet hours, the harness reports it,
/// a press through the harness dismisses it, and a one-time alarm is kept
/// switched off.
@Suite(.serialized) struct AlarmEndToEndTests {
    typealias H = HealthAndReconnectTests

    @Test func anAlarmSetWithTheButtonsIsKeptRingsAfterARestartAndIsDismissedThroughTheHarness() throws {
        let state = HistoryEndToEndTests.StateDirectory()
        let path = state.path + "/" + AlarmsFile.fileName
        do {
            let rig = try SimBoardRig { $0.stateDirectory = state.path }
            // The pinned system clock says 09:41: a new alarm starts at 10:00.
            rig.watch.button(.negative, .longPress)  // the watch menu
            rig.watch.button(.positive, .press)  // Alarms (the first entry)
            #expect(rig.watch.screen == .alarms(selected: 0))
            rig.watch.button(.positive, .press)  // "New alarm"
            #expect(rig.watch.screen == .alarmEditor(AlarmDraft(row: nil, alarm: Alarm(hour: 10, minute: 0))))
            rig.watch.button(.positive, .doublePress)  // hour 9
            rig.watch.button(.positive, .press)  // to the minute
            rig.watch.button(.positive, .longPress)  // 09:05
            rig.watch.button(.positive, .press)  // to the days: once
            rig.watch.button(.positive, .press)  // to "Save"
            rig.watch.button(.positive, .press)  // saved
            #expect(rig.watch.screen == .alarms(selected: 0))
            #expect(rig.watch.model.alarms.ownCount == 1 && rig.watch.model.alarms[0] == Alarm(hour: 9, minute: 5))
            let kept = try #require(try FileBytes.readIfPresent(path, limit: 4096))
            #expect(String(decoding: kept, as: UTF8.self) == "09:05 ------- on\n")
            var st = stat()
            #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o600)
            rig.daemon.stop()
        }
        // Again, on the same state directory, with a phone whose time is 09:04:58.
        let rig = try SimBoardRig { $0.stateDirectory = state.path }
        #expect(rig.watch.model.alarms.ownCount == 1)
        var phone = H.phone()
        phone.time = CurrentTime(year: 2024, month: 5, day: 1, hours: 9, minutes: 4, seconds: 58, dayOfWeek: 3)
        _ = try rig.connectPhone(phone)
        #expect(try rig.run(until: { rig.watch.model.ringing != nil }, timeout: .seconds(5)))
        let s = try rig.state()
        #expect(s["screen"] as? String == "ringing" && s["ringingAlert"] as? String == "alarm 09:05")
        #expect(s["motor"] as? String == "on" || rig.watch.motor?.isPlaying == true)
        let alarms = try #require(s["alarms"] as? [String: Any])
        #expect(alarms["list"] as? [String] == ["09:05 Once off"], "a one-time alarm switched itself off")
        #expect(try rig.harness.request("press negative", loop: rig.loop) == "ok press negative")
        #expect(try rig.run(until: { rig.watch.model.ringing == nil }))
        #expect(rig.watch.motor?.isPlaying == false)
        let kept = try #require(try FileBytes.readIfPresent(path, limit: 4096))
        #expect(String(decoding: kept, as: UTF8.self) == "09:05 ------- off\n")
        rig.daemon.stop()
        unlink(path)
    }

    @Test func theAlarmsFileReadsBackAndSkipsWhatIsNotAnAlarm() {
        var list = AlarmList()
        list.add(Alarm(hour: 7, minute: 0, days: .weekdays))
        list.add(Alarm(hour: 23, minute: 59, days: .weekend, enabled: false))
        list.replacePhoneAlarms([Alarm(hour: 6, minute: 0)])
        let bytes = AlarmsFile.encode(list)
        #expect(String(decoding: bytes, as: UTF8.self) == "07:00 MTWTF-- on\n23:59 -----SS off\n", "the phone's are not kept")
        let (back, skipped) = AlarmsFile.decode(bytes + Array("24:00 ------- on\n07:00 MTWTF-- maybe\n7:00 ------- on\nxx\n".utf8))
        #expect(back == [Alarm(hour: 7, minute: 0, days: .weekdays), Alarm(hour: 23, minute: 59, days: .weekend, enabled: false)])
        #expect(skipped == 4)
        let many = Array(repeating: Array("06:00 ------- on\n".utf8), count: 12).flatMap { $0 }
        #expect(AlarmsFile.decode(many).alarms.count == AlarmList.capacity)
    }
}
