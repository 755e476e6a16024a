import BoardConfig
import HAL
import Logging
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
        let client = MemoryLineChannel(fd: 7)

        init() throws {
            var logger = Logger(label: "test")
            logger.logLevel = .critical
            let box = LevelBox()
            server = try HarnessServer(
                path: "/tmp/harness.sock", sockets: sockets, loop: loop, logger: logger,
                hooks: .init(
                    setButton: { role, active in
                        guard role == .positive || role == .negative else { return false }
                        box.levels.append("\(role.rawValue) \(active ? "down" : "up")")
                        return true
                    },
                    snapshot: { _ in Array("P1\n1 1\n1\n".utf8) },
                    notificationsJSON: { "[]" },
                    stateJSON: { "{}" }))
            self.box = box
            let listener = try #require(sockets.lineListeners.first)
            listener.pending.append(client)
            loop.signal(fd: listener.pollDescriptor, .readable)
        }

        func send(_ line: String) {
            client.incoming.append(line)
            loop.signal(fd: client.pollDescriptor, .readable)
        }
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
}
