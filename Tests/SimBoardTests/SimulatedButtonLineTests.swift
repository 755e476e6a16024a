import BoardConfig
import HAL
import Input
import Log
import Loop
import SimBoard
import Testing
import Watch

@Suite("Simulated buttons")
struct SimulatedButtonLineTests {
    @Test("a push queues an edge stamped with the clock and tells the owner")
    func pushAndDrain() throws {
        let loop = ManualLoop(now: .init(nanoseconds: 1_000))
        let line = SimulatedButtonLine { loop.now }
        var told = 0
        line.edgesQueued = { told += 1 }
        #expect(line.pollDescriptor == -1 && !line.kernelDebounceActive)
        #expect(line.push(active: true))
        loop.advance(by: .milliseconds(5))
        #expect(line.push(active: false))
        #expect(told == 2)
        #expect(try line.readEdge() == LineEdge(active: true, timestamp: .init(nanoseconds: 1_000)))
        #expect(try line.readEdge() == LineEdge(active: false, timestamp: .init(nanoseconds: 5_001_000)))
        #expect(try line.readEdge() == nil)
        #expect(try !line.isActive())
    }

    @Test("undrained, it keeps the newest 16 edges; released, it refuses pushes")
    func boundedAndReleased() throws {
        let line = SimulatedButtonLine { .zero }
        for i in 0..<20 { line.push(active: i % 2 == 0) }
        var edges = 0
        while try line.readEdge() != nil { edges += 1 }
        #expect(edges == 16)
        line.push(active: true)
        #expect(try line.isActive())
        line.release()
        #expect(!line.push(active: false))
        #expect(try line.readEdge() == nil)
    }

    @Test("WatchButtons reads pushed edges through the ButtonLine path: debounce and gestures as for GPIO")
    func throughWatchButtons() throws {
        let loop = ManualLoop()
        let lines: [ButtonRole: SimulatedButtonLine] = [
            .positive: SimulatedButtonLine { loop.now }, .negative: SimulatedButtonLine { loop.now },
        ]
        var gestures: [String] = []
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        let buttons = try WatchButtons(
            roles: [.positive, .negative, .up, .down], lines: { lines[$0] }, timing: ButtonTiming(debounce: .milliseconds(20)),
            loop: loop, logger: logger
        ) { role, gesture in gestures.append("\(role.rawValue) \(gesture)") }
        #expect(loop.sourceCount == 0, "pushed lines need no descriptor")
        lines[.negative]!.push(active: true)
        loop.advance(by: .milliseconds(5))
        lines[.negative]!.push(active: false)   // a 5 ms bounce: no gesture
        loop.advance(by: .milliseconds(100))
        #expect(gestures.isEmpty)
        lines[.positive]!.push(active: true)
        loop.advance(by: .milliseconds(80))
        lines[.positive]!.push(active: false)
        loop.advance(by: .milliseconds(100))
        #expect(gestures == ["positive press"])
        buttons.close()
        #expect(!lines[.positive]!.push(active: true), "closing releases the lines")
    }
}
