import BoardConfig
import Glibc
import HAL
import Harness
import Log
import Loop
import SimBoard
import Testing

/// The harness line protocol over an in-memory connection (docs/harness.md).
@Suite("Harness server")
struct HarnessServerTests {
    final class Rig {
        let loop = ManualLoop()
        let sockets = MemorySockets()
        let server: HarnessServer
        let box: LevelBox
        let log = LogBox()
        let client = MemoryLineChannel(fd: 7)
        var listener: MemoryListener<any LineChannel> { sockets.lineListeners[0] }

        /// - Parameter snapshotBytes: the size of every snapshot (a 128x64 PBM is 16,403 bytes).
        init(snapshotBytes: Int? = nil) throws {
            let box = LevelBox()
            let snapshot = snapshotBytes.map { [UInt8](repeating: 0x30, count: $0) } ?? Array("P1\n1 1\n1\n".utf8)
            server = try HarnessServer(
                path: "/tmp/harness.sock", sockets: sockets, loop: loop, logger: .capturing(log),
                hooks: .init(
                    setButton: { role, active in
                        guard role == .positive || role == .negative else { return false }
                        box.levels.append("\(role.rawValue) \(active ? "down" : "up")")
                        return true
                    },
                    snapshot: { _ in snapshot },
                    notificationsJSON: { "[]" },
                    stateJSON: { "{}" }))
            self.box = box
            let listener = try #require(sockets.lineListeners.first)
            listener.pending.append(client)
            loop.signal(fd: listener.pollDescriptor, .readable)
        }

        func send(_ line: String, from client: MemoryLineChannel? = nil) {
            let c = client ?? self.client
            c.incoming.append(line)
            loop.signal(fd: c.pollDescriptor, .readable)
        }

        /// Connects another client.
        @discardableResult
        func connect(fd: Int32) -> MemoryLineChannel {
            let c = MemoryLineChannel(fd: fd)
            listener.pending.append(c)
            loop.signal(fd: listener.pollDescriptor, .readable)
            return c
        }

        func logLines(containing s: String) -> [String] { log.lines.filter { $0.contains(s) } }
    }

    final class LevelBox { var levels: [String] = [] }

    @Test("press: down, up after 80 ms, the reply after 50 ms more")
    func press() throws {
        let rig = try Rig()
        rig.send("press positive")
        #expect(rig.box.levels == ["positive down"] && rig.client.text.isEmpty)
        rig.loop.advance(by: .milliseconds(80))
        #expect(rig.box.levels == ["positive down", "positive up"])
        rig.loop.advance(by: .milliseconds(49))
        #expect(rig.client.text.isEmpty)
        rig.loop.advance(by: .milliseconds(1))
        #expect(rig.client.text == "ok press positive\n")
    }

    @Test("snapshots, state and errors, byte for byte")
    func replies() throws {
        let rig = try Rig()
        rig.send("snapshot pbm")
        rig.send("state")
        rig.send("press up")
        rig.send("jump")
        #expect(rig.client.text == "snapshot pbm 9\nP1\n1 1\n1\nstate {}\nerror this board has no 'up' button\nerror unknown command 'jump'; try 'help'\n")
        rig.send("quit")
        #expect(rig.client.text.hasSuffix("ok quit\n") && !rig.client.isOpen)
        #expect(rig.loop.sourceCount == 1, "the client is dropped; the listener stays")
    }

    // MARK: - issue 19, item 13

    @Test("an empty or blank line gets an error reply like any malformed line")
    func emptyLines() throws {
        let rig = try Rig()
        rig.send("")
        rig.send("  \t ")
        #expect(rig.client.text == "error empty line; try 'help'\nerror empty line; try 'help'\n")
    }

    @Test("help and quit take no arguments")
    func helpAndQuitRejectArguments() throws {
        let rig = try Rig()
        rig.send("help me")
        rig.send("quit now")
        #expect(rig.client.text == "error too many arguments for help\nerror too many arguments for quit\n")
        #expect(rig.client.isOpen)
        #expect(HarnessCommand.parse("help") == .success(.help) && HarnessCommand.parse("QUIT") == .success(.quit))
    }

    @Test("history clear: the one history subcommand; without a history kept, an error")
    func historyClear() throws {
        #expect(HarnessCommand.parse("history clear") == .success(.clearHistory))
        #expect(HarnessCommand.parse("History CLEAR") == .success(.clearHistory))
        #expect(HarnessCommand.parse("history") == .failure(.init("history: the one subcommand is 'history clear'")))
        #expect(HarnessCommand.parse("history show") == .failure(.init("history: the one subcommand is 'history clear'")))
        let rig = try Rig()
        rig.send("history clear")
        #expect(rig.client.text.hasPrefix("error history clear: no notification history is kept"))
    }

    // MARK: - issue 14, item 5: bounded output, bounded clients

    @Test("a client that asks for snapshots and never reads is disconnected at 256 KiB, once logged; others are served")
    func aClientThatNeverReadsIsDisconnected() throws {
        let rig = try Rig(snapshotBytes: 16_403)
        let other = rig.connect(fd: 8)
        rig.client.peerReads = false
        var asked = 0
        while rig.client.isOpen && asked < 1000 {
            rig.send("snapshot pbm")
            asked += 1
        }
        #expect(!rig.client.isOpen, "disconnected")
        #expect(asked == 16, "16 snapshots (about 16 KB each) fit in 256 KiB; the 17th does not")
        #expect(rig.client.mostQueued <= 256 * 1024)
        #expect(rig.server.clientCount == 1 && rig.loop.sourceCount == 2, "the listener and the other client remain")
        #expect(rig.logLines(containing: "does not read its replies").count == 1)
        rig.send("state", from: other)
        #expect(other.text == "state {}\n")
    }

    @Test("a motor subscriber that never reads is disconnected at the limit, not buffered without end")
    func aMotorSubscriberThatNeverReads() throws {
        let rig = try Rig()
        rig.send("motor")
        rig.client.peerReads = false
        var transitions = 0
        while rig.client.isOpen && transitions < 100_000 {
            rig.server.motorChanged(on: transitions & 1 == 0, at: MonotonicInstant(nanoseconds: 1_000_000_000_000))
            transitions += 1
        }
        #expect(!rig.client.isOpen && rig.client.mostQueued <= 256 * 1024)
        #expect(transitions > 10_000, "about 256 KiB of 'motor on 1000000000000' lines")
        #expect(rig.server.clientCount == 0)
        let formatted = rig.server.motorLinesFormatted
        rig.server.motorChanged(on: true, at: .zero)
        #expect(rig.server.motorLinesFormatted == formatted, "no subscriber left: no formatting")
    }

    @Test("16 clients at most: the 17th is told so and closed, logged once until a place frees")
    func atMostSixteenClients() throws {
        let rig = try Rig()
        var clients = [rig.client]
        for fd in Int32(8)..<23 { clients.append(rig.connect(fd: fd)) }
        #expect(rig.server.clientCount == 16)
        let seventeenth = rig.connect(fd: 30)
        let eighteenth = rig.connect(fd: 31)
        #expect(seventeenth.text == "error too many harness clients (16 connected); try again later\n" && !seventeenth.isOpen)
        #expect(!eighteenth.isOpen && rig.server.clientCount == 16)
        #expect(rig.logLines(containing: "refusing more").count == 1)
        rig.send("quit", from: clients[3])
        let next = rig.connect(fd: 32)
        #expect(next.isOpen && rig.server.clientCount == 16)
        rig.send("state", from: next)
        #expect(next.text == "state {}\n")
    }

    // MARK: - issue 28, item 8: idle clients, held buttons, long lines

    @Test("16 clients all quiet for 30 s: a new one takes the place of the one quiet longest, which is told why")
    func quietClientsGiveWay() throws {
        let rig = try Rig()
        var clients = [rig.client]
        for fd in Int32(8)..<23 { clients.append(rig.connect(fd: fd)) }
        rig.loop.advance(by: .seconds(20))
        rig.send("state", from: clients[0])  // the first speaks again: the second is now quiet longest
        rig.loop.advance(by: .seconds(9))
        #expect(rig.connect(fd: 30).text.hasPrefix("error too many harness clients"), "nobody quiet for 30 s yet")
        rig.loop.advance(by: .seconds(2))
        let newcomer = rig.connect(fd: 31)
        #expect(newcomer.isOpen && rig.server.clientCount == 16)
        #expect(!clients[1].isOpen && clients[1].text.hasPrefix("error disconnected: quiet for 31 s"))
        #expect(clients[0].isOpen && clients[2].isOpen)
        rig.send("state", from: newcomer)
        #expect(newcomer.text == "state {}\n")
    }

    @Test("a button held open-ended is released when its client goes; a timed hold is released even after it went")
    func heldButtonsAreReleasedWithTheirClient() throws {
        let rig = try Rig()
        rig.send("hold positive")
        #expect(rig.box.levels == ["positive down"])
        rig.send("quit")
        #expect(rig.box.levels == ["positive down", "positive up"])

        let other = rig.connect(fd: 9)
        rig.send("hold negative 500", from: other)
        other.close()
        rig.loop.signal(fd: other.pollDescriptor, .hangUp)
        rig.loop.advance(by: .milliseconds(500))
        #expect(rig.box.levels.suffix(2) == ["negative down", "negative up"])
    }

    // MARK: - issue 14, item 6: EMFILE

    @Test("accept failing (EMFILE) pauses the listener with a back-off and logs once, instead of spinning")
    func acceptFailureBacksOff() throws {
        let rig = try Rig()
        let listener = rig.listener
        listener.failure = HALError(operation: "accept on /tmp/harness.sock", errno: EMFILE, reason: "Too many open files")
        listener.pending.append(MemoryLineChannel(fd: 40))
        let callsBefore = listener.acceptCalls
        #expect(rig.loop.signal(fd: listener.pollDescriptor, .readable))
        #expect(listener.acceptCalls == callsBefore + 1)
        #expect(!rig.loop.signal(fd: listener.pollDescriptor, .readable), "not watched while paused")
        // Over 10 s of failures: 100, 200, 400, 800 ms, then every second: 14 wake-ups, not a spin.
        var wakeUps = 1
        let end = rig.loop.now.advanced(by: .seconds(10))
        while rig.loop.now < end {
            rig.loop.advance(by: .milliseconds(10))
            if rig.loop.signal(fd: listener.pollDescriptor, .readable) { wakeUps += 1 }
        }
        #expect((10...16).contains(wakeUps), "\(wakeUps) wake-ups in 10 s")
        #expect(rig.logLines(containing: "cannot accept").count == 1)
        // Descriptors free again: the pending connection is accepted, the recovery logged once.
        listener.failure = nil
        rig.loop.advance(by: .seconds(1))
        #expect(rig.loop.signal(fd: listener.pollDescriptor, .readable))
        #expect(rig.server.clientCount == 2)
        #expect(rig.logLines(containing: "accepting connections again").count == 1)
    }

    // MARK: - issue 16, item 5: no cost without a subscriber

    @Test("with no motor subscriber a motor transition does no formatting work; with one, its line is exact")
    func motorWithoutSubscriberCostsNothing() throws {
        let rig = try Rig()
        for i in 0..<1000 { rig.server.motorChanged(on: i & 1 == 0, at: MonotonicInstant(nanoseconds: UInt64(i))) }
        #expect(rig.server.motorLinesFormatted == 0)
        #expect(rig.client.output.isEmpty)
        rig.send("motor")
        rig.server.motorChanged(on: true, at: MonotonicInstant(nanoseconds: 81_234_567_890))
        rig.server.motorChanged(on: false, at: .zero)
        rig.server.motorChanged(on: true, at: MonotonicInstant(nanoseconds: .max))
        #expect(rig.client.text == "ok motor\nmotor on 81234567890\nmotor off 0\nmotor on 18446744073709551615\n")
        #expect(rig.server.motorLinesFormatted == 3)
        rig.send("quit")
        rig.server.motorChanged(on: true, at: .zero)
        #expect(rig.server.motorLinesFormatted == 3, "the subscriber left")
    }
}
