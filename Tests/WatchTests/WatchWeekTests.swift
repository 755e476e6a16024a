import ANCS
import Notifications
import HAL
import Haptics
import Screens
import Testing
import Watch

/// Issue 15 items 1 and 4 over a simulated week, on a manual clock: the
/// watch model (display power, burn-in shift, disconnect alert) and the
/// phone's ANCS consumer (health probes, reconciliation) with every
/// deadline run at its instant, and the minute tick while the panel is lit.
/// The phone posts every 20 minutes from 07:00 to 23:00 (every other one
/// Important, which lights the panel). Each day it drops out three times:
/// 5 s at 14:00 (nothing said), 60 s at 15:00 (alert), 60 s at 23:00 (quiet
/// hours: nothing said). The list is never wiped and never shows a
/// notification twice.
@Suite struct WatchWeekTests {
    @Test func aWeekOnTheWrist() {
        let started = ContinuousClock.now
        // A board that keeps the panel lit (dimmed after 15 s, off only after
        // a day: display.offAfterSeconds 86400), so the minute tick and the
        // burn-in shift run all week.
        var settings = ModelRig.defaultSettings()
        settings.offAfter = .seconds(86_400)
        // Quiet 22:00-07:00 on the watch's clock (the system clock, set at each step).
        settings.quietHours = QuietHours(startMinute: 22 * 60, endMinute: 7 * 60)
        let clock = SettableClock()
        settings.systemClock = clock.read
        let rig = ModelRig(settings: settings)
        let phone = AnsweringPhone(rig: rig)
        phone.connect()
        let t0 = rig.now
        let hour = Duration.seconds(3600)
        var fired = 0
        var uid: UInt32 = 0
        var alerts = 0
        var shortDrops = 0
        func advance(to offset: Duration) {
            fired += rig.advance(by: t0.advanced(by: offset).duration(since: rig.now), phone: phone, minuteTicks: true)
            alerts += rig.sink.take().filter { $0 == .play("short") }.count
        }
        func checkList(_ when: String) {
            let titles = rig.listTitles.map { $0.hasPrefix("*") ? String($0.dropFirst()) : $0 }
            #expect(Set(titles).count == titles.count, "\(when): no duplicates in \(rig.listTitles)")
            let held = Set(phone.notifications.map(\.posted.title))
            #expect(held.isSubset(of: Set(titles)), "\(when): the list is not wiped: \(rig.listTitles) holds \(held)")
        }

        enum Step { case post, drop(Duration, alert: Bool) }
        var timeline: [(Duration, Step)] = []
        for day in 0..<7 {
            let d = Duration.seconds(24 * 3600 * day)
            for minute in stride(from: 7 * 60, to: 23 * 60, by: 20) { timeline.append((d + .seconds(60 * minute), .post)) }
            timeline.append((d + hour * 14 + .seconds(60 + 7), .drop(.seconds(5), alert: false)))
            timeline.append((d + hour * 15 + .seconds(7), .drop(.seconds(60), alert: true)))
            timeline.append((d + hour * 23 + .seconds(7), .drop(.seconds(60), alert: false)))
        }
        timeline.sort { $0.0 < $1.0 }
        for (at, step) in timeline {
            advance(to: at)
            let minuteOfDay = Int((at / .seconds(60)).rounded(.down)) % (24 * 60)
            clock.time = SettableClock.at(minuteOfDay / 60, minuteOfDay % 60)
            let day = Int(at / .seconds(24 * 3600))
            let hh = minuteOfDay / 60, mm = minuteOfDay % 60
            let when = "day \(day) \(hh):\(mm < 10 ? "0" : "")\(mm)"
            switch step {
            case .post:
                uid += 1
                phone.post(uid, .init(
                    flags: uid % 2 == 0 ? [.important] : [], title: when,
                    date: "202405\(10 + day)T\(hh < 10 ? "0" : "")\(hh)\(mm < 10 ? "0" : "")\(mm)00"))
                if phone.notifications.count > 10 { phone.remove(phone.notifications[0].uid) }
                advance(to: at + .seconds(3))
                checkList(when)
            case .drop(let apart, let alert):
                phone.disconnect()
                checkList(when + " apart")
                advance(to: at + apart)
                if alert {
                    #expect(rig.screen == .message(WatchModel.disconnectNotice), "\(when)")
                } else {
                    #expect(rig.screen != .message(WatchModel.disconnectNotice), "\(when)")
                }
                checkList(when + " still apart")
                phone.connect()
                if apart < .seconds(10) { shortDrops += 1 }
                advance(to: at + apart + .seconds(3))
                checkList(when + " back")
            }
        }
        advance(to: .seconds(7 * 24 * 3600))
        let wall = ContinuousClock.now - started
        let h = phone.consumer.health
        print("watch week: wall \(wall), deadlines run \(fired) (consumer \(phone.deadlinesHandled)), probes \(h.probes), disconnect alerts \(alerts), quiet-hours alerts kept still \(rig.model.vibrationsKeptStill), short drops \(shortDrops)")
        #expect(alerts == 7, "one a day, at 15:00")
        #expect(rig.model.vibrationsKeptStill >= 7, "the 23:00 alert every night (and the late Important posts) kept still")
        #expect(fired >= 10_000, "thousands of timer firings: a minute tick a minute, the phone's checks")
        #expect(h.probes >= 150, "probes carried across the week's 21 links")
        #expect(h.probesAnswered == h.probes)
        #expect(wall < .seconds(10))
    }
}
