import HAL
import ANCS
import Notifications
import Graphics
import Screens
import Testing

/// Issue 16 item 2: a minute tick changes only the columns of the digits
/// that changed, inside at most 3 display pages, on the faces the watch
/// shows (the idle clock, and the status bar's time over the other screens).
@Suite struct ClockTickTests {
    /// The pixels that differ between two pictures.
    static func changes(_ a: MonoImage, _ b: MonoImage) -> [(x: Int, y: Int)] {
        var out: [(x: Int, y: Int)] = []
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] { out.append((x, y)) }
        }
        return out
    }

    /// "HH:MM" digits of minute-of-day `m`.
    static func digits(_ m: Int) -> [Int] { [m / 600, m / 60 % 10, m % 60 / 10, m % 10] }

    /// Every minute of the hours whose digits roll over (00, 09→10, 19→20,
    /// 23→00), and every hour's change: each kind of digit change.
    static let minutes: [Int] = (0..<(24 * 60)).filter { m in
        [0, 9, 10, 19, 20, 23].contains(m / 60) || m % 60 == 0
    }

    static func time(_ m: Int) -> CivilTime {
        CivilTime(year: 2024, month: 3, day: 14, hour: m / 60, minute: m % 60)
    }

    /// Every minute of a day: the changed pixels lie in the changed digits'
    /// cells (`cellX[i] ..< cellX[i] + cellWidth`) and in `rows`. Only rows
    /// above `watched` count (the list's ages change with the time too).
    func checkDay(_ panel: Panel, _ screen: Screen, _ notifications: NotificationConsumer,
                  cellX: [Int], cellWidth: Int, rows: ClosedRange<Int>, maxData: Int, watched: Int = .max) {
        var worst = 0
        for m in Self.minutes {
            let before = (m + 24 * 60 - 1) % (24 * 60)
            let previous = panel.render(screen, status(time: Self.time(before)), notifications)
            let image = panel.render(screen, status(time: Self.time(m)), notifications)
            let changed = (0..<4).filter { Self.digits(m)[$0] != Self.digits(before)[$0] }
            let diff = Self.changes(previous, image).filter { $0.y < watched }
            #expect(!diff.isEmpty, "minute \(m): the time changed")
            let outside = diff.filter { p in
                !rows.contains(p.y) || !changed.contains { cellX[$0] <= p.x && p.x < cellX[$0] + cellWidth }
            }
            #expect(outside.isEmpty, "minute \(m) (digits \(changed) changed): \(outside.prefix(4)) lie outside their cells")
            // What a flush of this tick sends: its pages x its columns.
            let pages = Set(diff.map { $0.y / 8 })
            #expect(pages.count <= 3)
            if changed.count == 1 {
                let cols = diff.map(\.x).max()! - diff.map(\.x).min()! + 1
                worst = max(worst, pages.count * cols)
            }
        }
        #expect(worst <= maxData, "a one-digit tick is at most \(maxData) display bytes")
    }

    @Test("idle clock, 128x64: digits in pages 0...2, a one-digit tick 27 display bytes at most")
    func idleClockTall() {
        let x0 = (128 - 51) / 2
        checkDay(Panel(), .idleClock, Fixture().consumer, cellX: [0, 12, 30, 42].map { x0 + $0 }, cellWidth: 9,
                 rows: 0...23, maxData: 27)
    }

    @Test("idle clock, 128x32: the same digits, on the left")
    func idleClockShort() {
        checkDay(Panel(height: 32), .idleClock, Fixture().consumer, cellX: [0, 12, 30, 42].map { 2 + $0 }, cellWidth: 9,
                 rows: 0...23, maxData: 27)
    }

    @Test("the status bar's time: 6-column cells in page 0, on the waiting screen, the list and a notification")
    func statusBar() {
        let f = Fixture()
        f.post(1, title: "Lunch?", message: "At one")
        let cells = [0, 1, 3, 4].map { 1 + 6 * $0 }
        checkDay(Panel(), .waitingForPhone, f.consumer, cellX: cells, cellWidth: 6, rows: 0...7, maxData: 6)
        // The list's ages and the detail's date follow the time as well: the status bar's rows only.
        checkDay(Panel(), .list(selected: 0), f.consumer, cellX: cells, cellWidth: 6, rows: 0...7, maxData: 6, watched: 11)
        checkDay(Panel(), .detail(NotificationUID(1), scroll: 0), f.consumer, cellX: cells, cellWidth: 6, rows: 0...7,
                 maxData: 6, watched: 11)
    }
}
