import Testing
@testable import Log

/// Everything a sink received, in order.
final class Received: @unchecked Sendable {
    var lines: [(level: Logger.Level, label: String, message: String)] = []
    var sink: LogSink { LogSink { level, label, message in self.lines.append((level, label, message)) } }
}

@Suite("Logger")
struct LoggerTests {
    @Test("a message below the level is never built")
    func belowLevelNotEvaluated() {
        let received = Received()
        let logger = Logger(label: "t", sink: received.sink, level: .info)
        var built = 0
        func message() -> String {
            built += 1
            return "built"
        }
        logger.trace(message())
        logger.debug(message())
        logger.log(level: .debug, message())
        #expect(built == 0)
        #expect(received.lines.isEmpty)
        logger.info(message())
        logger.critical(message())
        #expect(built == 2)
        #expect(received.lines.count == 2)
    }

    @Test("the levels are ordered trace < ... < critical, named as swift-log named them")
    func levelsOrder() {
        let all = Logger.Level.allCases
        #expect(all.map { $0.rawValue } == ["trace", "debug", "info", "notice", "warning", "error", "critical"])
        for (i, a) in all.enumerated() {
            for (j, b) in all.enumerated() {
                #expect((a < b) == (i < j))
            }
        }
        #expect(Logger.Level(rawValue: "notice") == .notice)
        #expect("\(Logger.Level.warning)" == "warning")
    }

    @Test("the sink receives the level, the label and the message; every method at its level")
    func sinkReceives() {
        let received = Received()
        let logger = Logger(label: "wristcore", sink: received.sink)
        logger.trace("a")
        logger.debug("b")
        logger.info("c")
        logger.notice("d")
        logger.warning("e")
        logger.error("f")
        logger.critical("g")
        logger.log(level: .notice, "h \(42)")
        #expect(received.lines.map { $0.level } == [.trace, .debug, .info, .notice, .warning, .error, .critical, .notice])
        #expect(received.lines.allSatisfy { $0.label == "wristcore" })
        #expect(received.lines.map { $0.message } == ["a", "b", "c", "d", "e", "f", "g", "h 42"])
    }

    @Test("logLevel can be changed on a copy; the line at the level itself passes")
    func levelChanges() {
        let received = Received()
        var logger = Logger(label: "t", sink: received.sink)
        logger.logLevel = .warning
        logger.notice("dropped")
        logger.warning("kept")
        #expect(received.lines.map { $0.message } == ["kept"])
    }

    @Test("bootstrap sets the sink and level of loggers made afterwards")
    func bootstrap() {
        let (sink, level) = (Logger.defaultSink, Logger.defaultLevel)
        defer { Logger.bootstrap(sink: sink, level: level) }
        let received = Received()
        Logger.bootstrap(sink: received.sink, level: .error)
        let logger = Logger(label: "boot")
        #expect(logger.logLevel == .error)
        logger.warning("dropped")
        logger.error("kept")
        #expect(received.lines.map { $0.label + ": " + $0.message } == ["boot: kept"])
    }

    @Test("the discarding sink takes anything")
    func discarding() {
        Logger(label: "quiet", sink: .discarding).critical("nowhere")
    }
}

@Suite("LogLine")
struct LogLineTests {
    @Test("standard error: swift-log's StreamLogHandler format, one line")
    func text() {
        #expect(LogLine.text(timestamp: "2026-11-26T00:12:34+0000", level: .info, label: "wristcore", message: "message")
            == "2026-11-26T00:12:34+0000 info wristcore : message\n")
        #expect(LogLine.text(timestamp: "2026-01-02T03:04:05-0130", level: .critical, label: "wristcore.demo", message: "")
            == "2026-01-02T03:04:05-0130 critical wristcore.demo : \n")
    }

    @Test("the journal: the sd-daemon priority, no timestamp")
    func journal() {
        #expect(LogLine.journal(level: .info, label: "wristcore", message: "message") == "<6>info wristcore : message\n")
        #expect(LogLine.journal(level: .warning, label: "w", message: "m") == "<4>warning w : m\n")
        #expect(Logger.Level.allCases.map { LogLine.priority($0) } == [7, 7, 6, 5, 4, 3, 2])
    }
}
