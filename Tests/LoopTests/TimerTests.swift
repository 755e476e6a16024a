import Glibc
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import Testing

@testable import LinuxLoop
import Loop

@Suite("Timers")
struct TimerTests {
    @Test func timersFireInDeadlineOrderNotCreationOrder() throws {
        let clock = ManualClock()
        let loop = try EpollLoop(clock: .manual(clock))
        var fired: [Int] = []
        loop.schedule(after: .milliseconds(30)) { fired.append(30) }
        loop.schedule(after: .milliseconds(10)) { fired.append(10) }
        loop.schedule(after: .milliseconds(20)) { fired.append(20) }
        loop.schedule(after: .milliseconds(10)) { fired.append(11) }  // same deadline: arming order
        loop.advanceClock(by: .milliseconds(15))
        #expect(fired == [10, 11])
        loop.advanceClock(by: .milliseconds(100))
        #expect(fired == [10, 11, 20, 30])
        #expect(loop.timerCount == 0, "one-shot schedule() timers free themselves")
    }

    @Test func eachTimerSeesItsOwnDeadlineAsNow() throws {
        let clock = ManualClock()
        let loop = try EpollLoop(clock: .manual(clock))
        var seen: [UInt64] = []
        for ms in [5, 1, 3] as [UInt64] {
            loop.schedule(after: .milliseconds(ms)) { seen.append(loop.now.nanoseconds / 1_000_000) }
        }
        loop.advanceClock(by: .seconds(1))
        #expect(seen == [1, 3, 5])
        #expect(clock.now.nanoseconds == 1_000_000_000)
    }

    @Test func cancellingAnotherTimerFromInsideAHandler() throws {
        let loop = try EpollLoop(clock: .manual(ManualClock()))
        var fired: [String] = []
        let victim = loop.makeTimer { fired.append("victim") }
        loop.arm(victim, after: .milliseconds(20))
        let sameDeadlineVictim = loop.makeTimer { fired.append("same-deadline victim") }
        loop.schedule(after: .milliseconds(10)) {
            fired.append("canceller")
            loop.disarm(victim)
            loop.destroyTimer(sameDeadlineVictim)
        }
        loop.arm(sameDeadlineVictim, after: .milliseconds(10))
        loop.advanceClock(by: .seconds(1))
        #expect(fired == ["canceller"])
        #expect(!loop.isArmed(victim))
        // The disarmed timer can be armed again; the destroyed one is stale and ignored.
        loop.arm(victim, after: .milliseconds(1))
        loop.arm(sameDeadlineVictim, after: .milliseconds(1))
        loop.advanceClock(by: .milliseconds(1))
        #expect(fired == ["canceller", "victim"])
    }

    @Test func aTimerCanRearmAndDestroyItselfInItsHandler() throws {
        let loop = try EpollLoop(clock: .manual(ManualClock()))
        var count = 0
        var id: TimerID!
        id = loop.makeTimer {
            count += 1
            if count < 3 { loop.arm(id, after: .milliseconds(10)) } else { loop.destroyTimer(id) }
        }
        loop.arm(id, after: .milliseconds(10))
        loop.advanceClock(by: .seconds(1))
        #expect(count == 3)
        #expect(loop.timerCount == 0)
    }

    @Test func repeatingTimerDoesNotDrift() throws {
        let clock = ManualClock()
        let loop = try EpollLoop(clock: .manual(clock))
        var fired = 0
        let tick = loop.makeTimer { fired += 1 }
        loop.arm(tick, after: .milliseconds(100), repeating: .milliseconds(100))
        for k in 1...10 as ClosedRange<UInt64> {
            // The loop wakes up 7 ms late every time...
            clock.now = MonotonicInstant(nanoseconds: (k * 100 + 7) * 1_000_000)
            loop.advanceClock(by: .zero)
            // ...yet the next deadline stays on the 100 ms grid.
            #expect(loop.deadline(of: tick) == MonotonicInstant(nanoseconds: (k + 1) * 100 * 1_000_000))
        }
        #expect(fired == 10)
    }

    @Test func repeatingTimerSkipsMissedPeriodsInsteadOfBursting() throws {
        let clock = ManualClock()
        let loop = try EpollLoop(clock: .manual(clock))
        var fired = 0
        let tick = loop.makeTimer { fired += 1 }
        loop.arm(tick, after: .seconds(1), repeating: .seconds(1))
        clock.advance(by: .milliseconds(5500))  // the process was stopped for 5.5 s
        loop.advanceClock(by: .zero)
        #expect(fired == 1, "one catch-up expiry, not five")
        loop.advanceClock(by: .milliseconds(499))
        #expect(fired == 1)
        loop.advanceClock(by: .milliseconds(1))  // next grid point: 6 s
        #expect(fired == 2)
    }

    @Test func tenThousandTimersCostOneTimerFD() throws {
        let before = openDescriptorCount()
        let loop = try EpollLoop()
        let afterLoop = openDescriptorCount()
        var fired = 0
        for i in 0..<10_000 {
            loop.schedule(after: .microseconds(Int64(i % 50) * 100)) { fired += 1 }
        }
        // Other tests run in parallel and open descriptors too, so allow a little
        // noise: a descriptor per timer would add 10,000.
        #expect(abs(openDescriptorCount() - afterLoop) < 50, "timers must not open descriptors")
        #expect(afterLoop - before < 50)
        #expect(timerfdCount() >= 1)
        #expect(loop.armedTimerCount == 10_000)
        let done = try loop.runUntil(timeout: .seconds(10)) { fired == 10_000 }
        #expect(done)
        #expect(loop.timerCount == 0)
    }

    @Test func realTimerfdFiresAndDeferredWorkRunsAfterTheHandler() throws {
        let loop = try EpollLoop()
        var order: [String] = []
        loop.schedule(after: .milliseconds(5)) {
            loop.deferWork { order.append("deferred") }
            order.append("timer")
        }
        #expect(try loop.runUntil(timeout: .seconds(5)) { order.count == 2 })
        #expect(order == ["timer", "deferred"])
    }

    @Test func timerQueueHeapStaysOrderedUnderRandomArmAndDisarm() {
        var queue = TimerQueue()
        var rng = SystemRandomNumberGenerator()
        var ids: [TimerID] = []
        var deadlines: [TimerID: UInt64] = [:]
        for _ in 0..<500 { ids.append(queue.make({})) }
        for _ in 0..<5000 {
            let id = ids.randomElement(using: &rng)!
            if Bool.random(using: &rng) {
                let d = UInt64.random(in: 1...1_000_000, using: &rng)
                queue.arm(id, at: MonotonicInstant(nanoseconds: d), repeating: nil)
                deadlines[id] = d
            } else {
                queue.disarm(id)
                deadlines[id] = nil
            }
        }
        var popped: [UInt64] = []
        var last: UInt64 = 0
        while let first = queue.earliestDeadline {
            #expect(first.nanoseconds >= last)
            last = first.nanoseconds
            popped.append(first.nanoseconds)
            _ = queue.popDue(now: first)
        }
        #expect(popped == deadlines.values.sorted())
    }
}

func openDescriptorCount() -> Int {
    guard let dir = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(dir) }
    var n = 0
    while readdir(dir) != nil { n += 1 }
    return n - 3  // ".", "..", and the directory's own descriptor
}

/// Descriptors of this process that are timerfds.
func timerfdCount() -> Int {
    guard let dir = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(dir) }
    var n = 0
    var target = [CChar](repeating: 0, count: 256)
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
        let len = readlink("/proc/self/fd/" + name, &target, 255)
        if len > 0, String(decoding: target[..<len].map { UInt8(bitPattern: $0) }, as: UTF8.self).contains("timerfd") { n += 1 }
    }
    return n
}
