import Graphics
import HAL
import Notifications
@testable import Screens
import Testing
import Timekeeping

/// Issue 25 item 4: the alarms list, the alarm editor, the ringing screen,
/// the countdown timer and the stopwatch, at 128x64 and 128x32, against
/// golden pictures; no label covers their content (`LabelCoverage`).
@Suite("Screens: alarms, the timer, the stopwatch")
struct TimekeepingGoldenTests {
    static let t0 = MonotonicInstant(nanoseconds: 1_000_000_000_000)

    /// Two of the wearer's (the second off) and one of the phone's.
    static var threeAlarms: AlarmList {
        var list = AlarmList()
        list.add(Alarm(hour: 7, minute: 0, days: .weekdays))
        list.add(Alarm(hour: 9, minute: 30, days: .weekend, enabled: false))
        list.replacePhoneAlarms([Alarm(hour: 6, minute: 15, days: .everyDay)])
        return list
    }

    static func view(alarms: AlarmList = AlarmList(), timer: CountdownTimer = CountdownTimer(),
                     stopwatch: Stopwatch = Stopwatch(), now: MonotonicInstant = t0) -> TimekeepingView {
        TimekeepingView(alarms: alarms, timer: timer, stopwatch: stopwatch, now: now)
    }

    /// Renders `screen`, then checks that no label covers content (as `Panel.render` does).
    func draw(_ screen: Screen, height: Int = 64, _ view: TimekeepingView? = nil, placement: ButtonPlacement = .standard,
              sourceLocation: SourceLocation = #_sourceLocation) -> MonoImage {
        let renderer = ScreenRenderer(width: 128, height: height, fonts: screenFonts, placement: placement)
        let consumer = Fixture().consumer
        let render = { (fb: Framebuffer) in
            renderer.render(screen, status: status(), notifications: consumer, into: fb, timekeeping: view)
        }
        let fb = Framebuffer(width: 128, height: height)
        render(fb)
        LabelCoverage.expectNothingCovered(renderer, screen, sourceLocation: sourceLocation, render)
        return MonoImage(fb)
    }

    /// Both panel sizes, as `<name>-128x64` and `<name>-128x32`.
    func check(_ screen: Screen, _ view: TimekeepingView? = nil, _ name: String,
               sourceLocation: SourceLocation = #_sourceLocation) {
        Golden.check(image: draw(screen, view, sourceLocation: sourceLocation), name + "-128x64", sourceLocation: sourceLocation)
        Golden.check(image: draw(screen, height: 32, view, sourceLocation: sourceLocation), name + "-128x32",
                     sourceLocation: sourceLocation)
    }

    // MARK: alarms

    @Test("the list: the wearer's, the phone's (marked), on and off, then New alarm; empty: New alarm only")
    func alarmsList() {
        check(.alarms(selected: 1), Self.view(alarms: Self.threeAlarms), "alarms")
        // Scrolled to the end: the phone's row selected, "New alarm" under it.
        check(.alarms(selected: 3), Self.view(alarms: Self.threeAlarms), "alarms-last")
        check(.alarms(selected: 0), Self.view(), "alarms-empty")
        // No view is an empty list.
        #expect(draw(.alarms(selected: 0), nil) == draw(.alarms(selected: 0), Self.view()))
        // A full list has no "New alarm" row: the last row is the phone's.
        var full = AlarmList()
        for h in 0..<AlarmList.capacity { full.add(Alarm(hour: h, minute: 0)) }
        var withNew = full
        withNew.remove(9)
        #expect(draw(.alarms(selected: 9), Self.view(alarms: full)) != draw(.alarms(selected: 9), Self.view(alarms: withNew)))
        // Switching an alarm off changes its row only.
        var off = Self.threeAlarms
        off.setEnabled(0, false)
        #expect(draw(.alarms(selected: 1), Self.view(alarms: off)) != draw(.alarms(selected: 1), Self.view(alarms: Self.threeAlarms)))
    }

    @Test("the days read as AlarmDays.text does, cut with an ellipsis where asked")
    func daysText() {
        let scratch = TextScratch(capacity: 48)
        for raw in UInt8(0)...0x7F {
            let days = AlarmDays(rawValue: raw)
            TimekeepingText.appendDays(days, to: scratch.clear())
            #expect(String(decoding: scratch.bytes, as: UTF8.self) == days.text)
        }
        TimekeepingText.appendDays(AlarmDays(rawValue: 0x0F), maxCharacters: 8, to: scratch.clear())
        #expect(String(decoding: scratch.bytes, as: UTF8.self) == "Mon,Tue\u{2026}")
        TimekeepingText.appendDays(.weekdays, maxCharacters: 7, to: scratch.clear())
        #expect(String(decoding: scratch.bytes, as: UTF8.self) == "Mon-Fri")
    }

    @Test("the editor: the field being changed is highlighted, hour, minute, days, then Save or Delete")
    func editor() {
        let alarm = Alarm(hour: 6, minute: 45, days: .weekdays)
        check(.alarmEditor(AlarmDraft(row: nil, alarm: alarm, field: .hour)), nil, "alarm-editor-hour")
        check(.alarmEditor(AlarmDraft(row: 0, alarm: alarm, field: .days)), nil, "alarm-editor-days")
        check(.alarmEditor(AlarmDraft(row: 0, alarm: alarm, field: .finish, finish: .delete)), nil, "alarm-editor-delete")
        for height in [64, 32] {
            let hour = draw(.alarmEditor(AlarmDraft(row: 0, alarm: alarm, field: .hour)), height: height)
            let minute = draw(.alarmEditor(AlarmDraft(row: 0, alarm: alarm, field: .minute)), height: height)
            let days = draw(.alarmEditor(AlarmDraft(row: 0, alarm: alarm, field: .days)), height: height)
            let save = draw(.alarmEditor(AlarmDraft(row: 0, alarm: alarm, field: .finish, finish: .save)), height: height)
            let delete = draw(.alarmEditor(AlarmDraft(row: 0, alarm: alarm, field: .finish, finish: .delete)), height: height)
            let all = [hour, minute, days, save, delete]
            for i in all.indices { for j in all.indices where i < j { #expect(all[i] != all[j]) } }
            // The highlight moves: the hour's box is lit on the hour only.
            // A row above the digits' ink, inside the hour's box: the time
            // starts at x 39 on 128x64 (centred), at x 2 on 128x32.
            let hx = height == 64 ? 42 : 6
            let y = height == 64 ? 23 : 14
            #expect(hour[hx, y] && !minute[hx, y] && !days[hx, y])
            // New alarms offer Save only, without the arrows.
            let new = draw(.alarmEditor(AlarmDraft(row: nil, alarm: alarm, field: .finish)), height: height)
            #expect(new != save)
        }
        // A title "Alarm" for one of the wearer's, "New alarm" for a new one.
        #expect(draw(.alarmEditor(AlarmDraft(row: nil, alarm: alarm))) != draw(.alarmEditor(AlarmDraft(row: 0, alarm: alarm))))
        // Days from the phone, longer than the editor offers, stay in the
        // panel (cut at 128x32), the time uncut.
        let odd = Alarm(hour: 23, minute: 55, days: AlarmDays(rawValue: 0x5F))
        for height in [64, 32] {
            let image = draw(.alarmEditor(AlarmDraft(row: 0, alarm: odd, field: .finish)), height: height)
            // Under the status bar (or the choice's band), above the band at the bottom.
            let rows = height == 64 ? 11..<(height - 10) : 11..<height
            #expect(!image.columnIsLit(0, rows: rows) && !image.columnIsLit(127, rows: rows))
            #expect(shows(image, "23:55", .large))
        }
        let three = Alarm(hour: 5, minute: 0, days: AlarmDays(rawValue: 0x15))
        #expect(shows(draw(.alarmEditor(AlarmDraft(row: 0, alarm: three))), "Mon,Wed,Fri", .body))
        #expect(shows(draw(.alarmEditor(AlarmDraft(row: 0, alarm: three)), height: 32), "Mon,Wed,Fri", .small))
    }

    // MARK: ringing

    @Test("ringing: an alarm (Snooze, Dismiss) and the timer (Stop), labels over their buttons")
    func ringing() {
        check(.ringing(.alarm(hour: 7, minute: 0, snoozes: 0)), nil, "ringing-alarm")
        check(.ringing(.timer(seconds: 300)), nil, "ringing-timer")
        // Snoozed: the heading says so on 128x64.
        #expect(draw(.ringing(.alarm(hour: 7, minute: 0, snoozes: 2))) != draw(.ringing(.alarm(hour: 7, minute: 0, snoozes: 0))))
        // The longest timer, "99:00", and one longer than the buttons set
        // ("1:40:00"), uncut; every placement keeps the labels off the content.
        for placement in Self.placements {
            for height in [64, 32] {
                #expect(shows(draw(.ringing(.timer(seconds: 99 * 60)), height: height, placement: placement), "99:00", .large))
                #expect(shows(draw(.ringing(.timer(seconds: 100 * 60)), height: height, placement: placement), "1:40:00", .large))
                #expect(shows(draw(.ringing(.alarm(hour: 23, minute: 59, snoozes: 3)), height: height, placement: placement),
                              "23:59", .large))
            }
        }
    }

    static let placements: [ButtonPlacement] = [
        .standard, ButtonPlacement(positive: .topRight, negative: .bottomRight),
        ButtonPlacement(positive: .topLeft, negative: .bottomRight), ButtonPlacement(positive: .topRight, negative: .topLeft),
    ]

    // MARK: timer

    @Test("the timer: stopped (its length, Start, +/- 1 min), running (what is left, Pause, Reset), paused")
    func timer() {
        var timer = CountdownTimer()
        check(.timer, Self.view(timer: timer), "timer-stopped")
        timer.start(now: Self.t0)
        // 1 min 12.5 s in: 3:48 left (rounded up).
        let later = Self.t0.advanced(by: .milliseconds(72_500))
        check(.timer, Self.view(timer: timer, now: later), "timer-running")
        #expect(timer.secondsLeft(at: later) == 228)
        var paused = timer
        paused.pause(now: later)
        #expect(draw(.timer, Self.view(timer: paused, now: later)) != draw(.timer, Self.view(timer: timer, now: later)))
        // The longest, 99:00, fits on both panels and every placement.
        var longest = CountdownTimer()
        longest.adjust(byMinutes: 200)
        #expect(longest.secondsLeft(at: Self.t0) == 99 * 60)
        for placement in Self.placements {
            for height in [64, 32] {
                #expect(shows(draw(.timer, height: height, Self.view(timer: longest), placement: placement), "99:00", .large))
            }
        }
        // No view: a new timer's 5:00.
        #expect(draw(.timer, nil) == draw(.timer, Self.view()))
    }

    // MARK: stopwatch

    @Test("the stopwatch: running with laps (latest first), stopped with tenths; past an hour it still fits")
    func stopwatch() {
        var sw = Stopwatch()
        sw.start(now: Self.t0)
        sw.lap(now: Self.t0.advanced(by: .milliseconds(38_400)))
        sw.lap(now: Self.t0.advanced(by: .milliseconds(79_600)))
        sw.lap(now: Self.t0.advanced(by: .milliseconds(121_000)))
        let now = Self.t0.advanced(by: .milliseconds(150_250))
        check(.stopwatch, Self.view(stopwatch: sw, now: now), "stopwatch-running")
        var stopped = sw
        stopped.stop(now: now)
        check(.stopwatch, Self.view(stopwatch: stopped, now: now.advanced(by: .seconds(30))), "stopwatch-stopped")
        // At zero: "Back" instead of "Reset".
        var second = Stopwatch()
        second.start(now: Self.t0)
        second.stop(now: Self.t0.advanced(by: .seconds(1)))
        let zero = draw(.stopwatch, Self.view())
        #expect(zero != draw(.stopwatch, Self.view(stopwatch: second)))
        #expect(shows(zero, "0:00.0", .large) && shows(zero, "Back", .small))
        #expect(shows(draw(.stopwatch, Self.view(stopwatch: second)), "Reset", .small))
        #expect(draw(.stopwatch, nil) == draw(.stopwatch, Self.view()))
        // 1:02:03 (running, with an hour-long lap), and stopped at 1:02:03.4.
        var long = Stopwatch()
        long.start(now: Self.t0)
        long.lap(now: Self.t0.advanced(by: .seconds(3_700)))
        let at = Self.t0.advanced(by: .milliseconds(3_723_400))
        var longStopped = long
        longStopped.stop(now: at)
        for placement in Self.placements {
            for height in [64, 32] {
                #expect(shows(draw(.stopwatch, height: height, Self.view(stopwatch: long, now: at), placement: placement),
                              "1:02:03", .large))
                #expect(shows(draw(.stopwatch, height: height, Self.view(stopwatch: longStopped, now: at), placement: placement),
                              "1:02:03.4", .large))
            }
        }
        // The hour-long lap, uncut, under the time (128x64; 128x32 has no
        // room beside an hour's time: the time alone).
        #expect(shows(draw(.stopwatch, Self.view(stopwatch: long, now: at)), "1:01:40.0", .small))
        let scratch = TextScratch(capacity: 16)
        TimekeepingText.appendElapsed(longStopped.elapsed(at: at), tenths: true, to: scratch)
        #expect(String(decoding: scratch.bytes, as: UTF8.self) == "1:02:03.4")
        TimekeepingText.appendElapsed(.milliseconds(41_290), tenths: true, to: scratch.clear())
        #expect(String(decoding: scratch.bytes, as: UTF8.self) == "0:41.2")
        TimekeepingText.appendLength(seconds: 99 * 60, to: scratch.clear())
        #expect(String(decoding: scratch.bytes, as: UTF8.self) == "99:00")
        TimekeepingText.appendLength(seconds: 5400, to: scratch.clear())
        #expect(String(decoding: scratch.bytes, as: UTF8.self) == "90:00")
        TimekeepingText.appendLength(seconds: 100 * 60, to: scratch.clear())
        #expect(String(decoding: scratch.bytes, as: UTF8.self) == "1:40:00")
    }
}

extension TimekeepingGoldenTests {
    enum Font { case small, body, large }

    /// Whether `image` shows `text` whole in `font`: its ink, drawn alone,
    /// appears pixel for pixel somewhere (a cut text ends in an ellipsis).
    func shows(_ image: MonoImage, _ text: String, _ font: Font) -> Bool {
        let renderer = ScreenRenderer(width: 128, height: 64, fonts: screenFonts)
        let chain = font == .small ? screenFonts.small : font == .body ? screenFonts.body : screenFonts.large
        let fb = Framebuffer(width: 128, height: 64)
        var copy = text
        copy.withUTF8 { _ = renderer.line(fb, UnsafeRawBufferPointer($0), chain, x: 1, baseline: 30, maxWidth: 126) }
        let sample = MonoImage(fb)
        var (x0, y0, x1, y1) = (Int.max, Int.max, -1, -1)
        for y in 0..<sample.height { for x in 0..<sample.width where sample[x, y] {
            (x0, y0, x1, y1) = (min(x0, x), min(y0, y), max(x1, x), max(y1, y))
        } }
        guard x1 >= 0 else { return false }
        let (w, h) = (x1 - x0 + 1, y1 - y0 + 1)
        guard w <= image.width, h <= image.height else { return false }
        for oy in 0...(image.height - h) {
            for ox in 0...(image.width - w) {
                var same = true
                check: for y in 0..<h { for x in 0..<w where sample[x0 + x, y0 + y] != image[ox + x, oy + y] {
                    same = false
                    break check
                } }
                if same { return true }
            }
        }
        return false
    }
}

extension MonoImage {
    /// Whether any pixel of column `x` is lit in `rows`.
    func columnIsLit(_ x: Int, rows: Range<Int>) -> Bool {
        for y in rows where self[x, y] { return true }
        return false
    }
}
