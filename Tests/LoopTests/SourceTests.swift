import Glibc
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import Testing

@testable import LinuxLoop
import Loop

@Suite("Descriptor sources")
struct SourceTests {
    private func send(_ fd: borrowing FileDescriptor, _ bytes: [UInt8]) throws {
        _ = try bytes.withUnsafeBytes { try fd.write($0) }
    }

    @Test func readableSourceGetsItsEvents() throws {
        let loop = try EpollLoop()
        let pair = try SeqPacketPair()
        var received: [[UInt8]] = []
        let reader = pair.second.rawValue
        try loop.addSource(fd: reader, events: .readable) { events in
            #expect(events.contains(.readable))
            var buf = [UInt8](repeating: 0, count: 64)
            let n = buf.withUnsafeMutableBytes { Glibc.read(reader, $0.baseAddress, 64) }
            received.append(Array(buf[0..<n]))
        }
        try send(pair.first, [1, 2, 3])
        try send(pair.first, [4])
        #expect(try loop.runUntil(timeout: .seconds(5)) { received.count == 2 })
        #expect(received == [[1, 2, 3], [4]], "SEQPACKET keeps message boundaries")
    }

    @Test func removingAndClosingTheDescriptorInsideItsOwnHandlerIsSafe() throws {
        let loop = try EpollLoop()
        let pair = try SeqPacketPair()
        let writer = pair.first
        let reader = pair.second.release()  // the handler owns and closes it
        var calls = 0
        var id: SourceID!
        id = try loop.addSource(fd: reader, events: .readable) { _ in
            calls += 1
            loop.removeSource(id)
            _ = Glibc.close(reader)
        }
        try send(writer, [9])
        try send(writer, [9])
        _ = try loop.runUntil(timeout: .milliseconds(200)) { false }
        #expect(calls == 1, "never fires again for a removed, closed descriptor")
        #expect(!loop.isLive(id))
    }

    @Test func anEventForASourceRemovedEarlierInTheSameWakeupIsDropped() throws {
        let loop = try EpollLoop()
        let a = try SeqPacketPair(), b = try SeqPacketPair()
        var fired: [String] = []
        var idA: SourceID!, idB: SourceID!
        let fdA = a.second.rawValue, fdB = b.second.rawValue
        // Whichever handler runs first removes the other; both are ready in one epoll_wait.
        idA = try loop.addSource(fd: fdA, events: .readable) { _ in
            fired.append("a"); loop.removeSource(idB); loop.removeSource(idA)
        }
        idB = try loop.addSource(fd: fdB, events: .readable) { _ in
            fired.append("b"); loop.removeSource(idA); loop.removeSource(idB)
        }
        try send(a.first, [1])
        try send(b.first, [1])
        _ = try loop.runUntil(timeout: .milliseconds(200)) { false }
        #expect(fired.count == 1)
    }

    @Test func aReusedSlotDoesNotReceiveTheOldSourcesEvents() throws {
        let loop = try EpollLoop()
        let old = try SeqPacketPair(), new = try SeqPacketPair()
        var newCalls = 0
        var oldCalls = 0
        let oldID = try loop.addSource(fd: old.second.rawValue, events: .readable) { _ in oldCalls += 1 }
        loop.removeSource(oldID)
        let newID = try loop.addSource(fd: new.second.rawValue, events: .readable) { _ in newCalls += 1 }
        #expect(newID != oldID)
        try send(old.first, [1])  // the old descriptor is readable, but no longer watched
        _ = try loop.runUntil(timeout: .milliseconds(100)) { false }
        #expect(oldCalls == 0 && newCalls == 0)
        loop.removeSource(oldID)  // stale: ignored, the new source stays
        #expect(loop.isLive(newID))
    }

    @Test func hangUpIsReportedWhenThePeerCloses() throws {
        let loop = try EpollLoop()
        let pair = try SeqPacketPair()
        var events: IOEvents = []
        let keep = pair.second
        var id: SourceID!
        id = try loop.addSource(fd: keep.rawValue, events: .readable) { e in events = e; loop.removeSource(id) }
        pair.first.close()  // the peer goes away
        #expect(try loop.runUntil(timeout: .seconds(5)) { !events.isEmpty })
        #expect(events.contains(.hangUp))
    }

    @Test func writableInterestCanBeAddedAndDropped() throws {
        let loop = try EpollLoop()
        let pair = try SeqPacketPair()
        var writableCalls = 0
        var id: SourceID!
        id = try loop.addSource(fd: pair.first.rawValue, events: .readable) { e in
            if e.contains(.writable) {
                writableCalls += 1
                try? loop.updateSource(id, events: .readable)  // output drained
            }
        }
        try loop.updateSource(id, events: [.readable, .writable])
        _ = try loop.runUntil(timeout: .milliseconds(100)) { false }
        #expect(writableCalls == 1)
    }
}

@Suite("Signals and shutdown")
struct ShutdownTests {
    @Test func sigtermRunsShutdownStepsInReverseOrderThenRunReturns() throws {
        let loop = try EpollLoop()
        try loop.handleTerminationSignals()
        var steps: [String] = []
        loop.onShutdown { steps.append("motor off") }
        loop.onShutdown { steps.append("display off") }
        loop.schedule(after: .milliseconds(1)) {
            steps.append("raising")
            pthread_kill(pthread_self(), SIGTERM)  // thread-directed: this thread has it blocked
        }
        let safety = loop.schedule(after: .seconds(10)) { loop.stop() }
        try loop.run()
        loop.destroyTimer(safety)
        #expect(steps == ["raising", "display off", "motor off"])
        #expect(loop.receivedSignal == SIGTERM)
    }

    @Test func sigintIsHandledTheSameWayAndShutdownRunsOnce() throws {
        let loop = try EpollLoop()
        try loop.handleTerminationSignals()
        var count = 0
        loop.onShutdown { count += 1 }
        loop.schedule(after: .milliseconds(1)) {
            pthread_kill(pthread_self(), SIGINT)
            pthread_kill(pthread_self(), SIGTERM)
        }
        let safety = loop.schedule(after: .seconds(10)) { loop.stop() }
        try loop.run()
        loop.destroyTimer(safety)
        loop.shutdown()
        #expect(count == 1)
        #expect(loop.receivedSignal != nil)
    }
}
