import ANCS
import HAL
import Screens
import Testing
import Watch

/// Issue 15 items 1 and 4 over a simulated week, on a manual clock: the
/// watch model (display power, burn-in shift, disconnect alert) and the
/// phone's ANCS consumer (health probes, reconciliation) with every
/// deadline run at its instant. Each day the phone drops out three times:
/// 5 s at 14:00 (nothing said), 60 s at 15:00 (alert), 60 s at 23:00 (quiet
/// hours: nothing said). The list is never wiped and never shows a
/// notification twice.
@Suite struct WatchWeekTests {
    @Test func aWeekOnTheWrist() {
        let started = ContinuousClock.now
        let rig = ModelRig()
        let phone = AnsweringPhone(rig: rig)
        phone.connect()
        let t0 = rig.now
        let hour = Duration.seconds(3600)
        var fired = 0
        var uid: UInt32 = 0
        var alerts = 0
        var shortDrops = 0
        func advance(to offset: Duration) {
            fired += rig.advance(by: t0.advanced(by: offset).duration(since: rig.now), phone: phone)
            alerts += rig.sink.take().filter { $0 == .alert("short") }.count
        }
        func checkList(_ when: String) {
            let titles = rig.listTitles.map { $0.hasPrefix("*") ? String($0.dropFirst()) : $0 }
            #expect(Set(titles).count == titles.count, "\(when): no duplicates in \(rig.listTitles)")
            let held = Set(phone.notifications.map(\.posted.title))
            #expect(held.isSubset(of: Set(titles)), "\(when): the list is not wiped: \(rig.listTitles) holds \(held)")
        }

        for day in 0..<7 {
            let d = Duration.seconds(24 * 3600 * day)
            for h in stride(from: 0, to: 24, by: 2) {
                advance(to: d + hour * h)
                uid += 1
                phone.post(uid, .init(flags: h % 4 == 0 ? [.important] : [], title: "Day \(day) \(h):00", date: "202405\(10 + day)T\(h < 10 ? "0" : "")\(h)0000"))
                if phone.notifications.count > 10 { phone.remove(phone.notifications[0].uid) }
                rig.sink.quietHours = h >= 22 || h < 7
                advance(to: d + hour * h + .seconds(3))
                checkList("day \(day), \(h):00")
                if h == 14 {
                    // 5 s apart: nothing said.
                    advance(to: d + hour * 14 + .seconds(60))
                    phone.disconnect()
                    checkList("day \(day), 14:01 apart")
                    advance(to: d + hour * 14 + .seconds(65))
                    phone.connect()
                    shortDrops += 1
                    // 60 s apart: the alert.
                    advance(to: d + hour * 15)
                    phone.disconnect()
                    advance(to: d + hour * 15 + .seconds(60))
                    #expect(rig.screen == .message(WatchModel.disconnectNotice))
                    checkList("day \(day), 15:01 apart")
                    phone.connect()
                }
                if h == 22 {
                    // 60 s apart at night: kept still.
                    advance(to: d + hour * 23)
                    phone.disconnect()
                    advance(to: d + hour * 23 + .seconds(60))
                    #expect(rig.screen != .message(WatchModel.disconnectNotice))
                    checkList("day \(day), 23:01 apart")
                    phone.connect()
                }
            }
        }
        advance(to: .seconds(7 * 24 * 3600))
        let wall = ContinuousClock.now - started
        let h = phone.consumer.health
        print("watch week: wall \(wall), deadlines run \(fired) (consumer \(phone.deadlinesHandled)), probes \(h.probes), disconnect alerts \(alerts), quiet-hours alerts kept still \(rig.sink.alertsSuppressed), short drops \(shortDrops)")
        #expect(alerts == 7, "one a day, at 15:00")
        #expect(rig.sink.alertsSuppressed == 7, "one a night, at 23:00, kept still")
        #expect(fired >= 3000, "thousands of timer firings")
        #expect(h.probes >= 300, "probes carried across the week's 21 links")
        #expect(h.probesAnswered == h.probes)
        #expect(wall < .seconds(10))
    }
}
