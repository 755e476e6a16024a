import HAL
import Log
import Loop
import Testing
import Watch

/// Issue 25 item 5: the history file is never written in a burst. A change
/// only marks the list dirty; the file is written after a quiet period, at
/// most once a minute, and on a clean shutdown (on the manual clock).
@Suite("Notification history: when the file is written")
final class NotificationHistoryKeeperTests {
    let loop = ManualLoop(now: MonotonicInstant(nanoseconds: 1_000_000_000))
    var written: [MonotonicInstant] = []
    var removed = 0
    var encoded = 0
    var failing = false
    var keeper: NotificationHistoryKeeper!

    init() {
        let storage = NotificationHistoryKeeper.Storage(
            path: "/state/notification-history",
            write: { [unowned self] _ throws(HALError) in
                if self.failing { throw HALError(operation: "write", errno: 28, reason: "No space left on device") }
                self.written.append(self.loop.now)
            },
            remove: { [unowned self] () throws(HALError) in self.removed += 1 })
        keeper = NotificationHistoryKeeper(loop: loop, logger: Logger(label: "history", sink: .discarding, level: .critical), storage: storage) {
            [unowned self] in
            self.encoded += 1
            return [1, 2, 3]
        }
    }

    var quiet: Duration { NotificationHistoryKeeper.quietPeriod }
    var interval: Duration { NotificationHistoryKeeper.minimumInterval }

    @Test("a burst of 20 notifications is one write, a quiet period after the last")
    func burst() {
        let start = loop.now
        for _ in 0..<20 {
            keeper.changed(now: loop.now)
            loop.advance(by: .milliseconds(100))
        }
        #expect(written.isEmpty && encoded == 0, "nothing is written or even encoded during the burst")
        let last = start.advanced(by: .milliseconds(1_900))
        loop.advance(to: last.advanced(by: quiet).advanced(by: .milliseconds(-1)))
        #expect(written.isEmpty)
        loop.advance(by: .milliseconds(1))
        #expect(written == [last.advanced(by: quiet)] && encoded == 1)
        loop.advance(by: .seconds(600))
        #expect(written.count == 1 && !keeper.isDirty && loop.armedTimerCount == 0, "idle: no timer left armed")
    }

    @Test("a steady trickle is written at most once per minimumInterval")
    func trickle() {
        let start = loop.now
        for _ in 0..<100 {  // one every 3 s for 5 minutes: never quiet for 5 s
            keeper.changed(now: loop.now)
            loop.advance(by: .seconds(3))
        }
        #expect(written.count >= 4 && written.count <= 5, "\(written.count)")
        for (a, b) in zip(written, written.dropFirst()) { #expect(b.duration(since: a) >= interval) }
        #expect(written.first == start.advanced(by: interval), "a change waits at most minimumInterval")
    }

    @Test("two bursts a few seconds apart: the second waits for the minimum interval")
    func secondBurstWaits() {
        keeper.changed(now: loop.now)
        loop.advance(by: quiet)
        #expect(written.count == 1)
        let first = loop.now
        loop.advance(by: .seconds(10))
        keeper.changed(now: loop.now)
        loop.advance(by: .seconds(20))
        #expect(written.count == 1)
        loop.advance(to: first.advanced(by: interval))
        #expect(written.count == 2 && written.last == first.advanced(by: interval))
    }

    @Test("a clean shutdown writes what is unwritten, and nothing when clean")
    func flush() {
        keeper.flush()
        #expect(written.isEmpty)
        keeper.changed(now: loop.now)
        keeper.flush()
        #expect(written.count == 1 && !keeper.isDirty)
        loop.advance(by: .seconds(120))
        #expect(written.count == 1, "the pending timer does not write again")
    }

    @Test("clear deletes the file and drops the pending write")
    func clear() {
        keeper.changed(now: loop.now)
        #expect(keeper.clear())
        #expect(removed == 1)
        loop.advance(by: .seconds(120))
        #expect(written.isEmpty)
    }

    @Test("a failed write is not retried in a loop; the next change writes again")
    func failure() {
        failing = true
        keeper.changed(now: loop.now)
        loop.advance(by: .seconds(120))
        #expect(written.isEmpty && encoded == 1 && loop.armedTimerCount == 0)
        failing = false
        keeper.changed(now: loop.now)
        loop.advance(by: .seconds(120))
        #expect(written.count == 1)
    }
}
