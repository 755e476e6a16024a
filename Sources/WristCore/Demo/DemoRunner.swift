import LinuxLoop
import BoardConfig
import Graphics
import HAL
import LinuxHAL
import Log
import Loop
import Peripheral
import Screens
import SimBoard

/// `wristcore demo`: the watch on simulated hardware, a simulated iPhone
/// playing a scenario, the OLED drawn in the terminal, keys for buttons.
///
/// Two ways to run:
/// - interactive (a terminal): real time, raw keys, redrawn in place; the
///   terminal is restored on exit and on Ctrl-C;
/// - headless (`--frames N`, or `--png DIR` without a terminal): a manual
///   clock steps 100 ms of watch time a frame, so the frames are the same on
///   every run (the tests compare some with golden images).
public final class DemoRunner {
    public struct Options {
        public var scenario: DemoScenario
        public var speed: Double = 1
        public var pngDirectory: String?
        public var style: TerminalPanel.Style?
        public var duration: Duration?
        public init(scenario: DemoScenario) { self.scenario = scenario }
    }

    /// Watch time per headless frame.
    public static let frameInterval = Duration.milliseconds(100)

    let board: Board
    let options: Options
    let logger: Logger
    /// Called with each headless frame (tests).
    public var frameHandler: ((Int, MonoImage) -> Void)?

    /// - Parameter board: gives the display geometry and the buttons; the demo
    ///   always runs on simulated devices, whatever board file it comes from.
    public init(board: Board, options: Options, logger: Logger) {
        self.board = board
        self.options = options
        self.logger = logger
    }

    /// The time the watch shows before the simulated phone sends its own:
    /// the same as the phone's, so every frame is reproducible.
    static let demoTime = WallClockTime(year: 2024, month: 5, day: 1, hour: 12, minute: 0, second: 0, weekday: 3)

    /// - Parameter pinnedClock: the system time to show until the phone sends
    ///   its own (headless runs pin it so every frame is reproducible).
    private func makeDaemon(pinnedClock: Bool = false) -> WatchDaemon {
        var o = WatchDaemon.Options()
        if pinnedClock { o.settings.systemClock = { DemoRunner.demoTime } }
        o.phoneScript = options.scenario.scaled(by: options.speed).phoneEvents
        // Awake for the whole show; it still dims and sleeps like a watch after a while.
        o.settings.dimAfter = .seconds(45)
        o.settings.offAfter = .seconds(600)
        o.keepPowerSettings = true
        return WatchDaemon(board: board, logger: logger, options: o, devices: .simulated)
    }

    private func scheduleButtons(_ daemon: WatchDaemon, loop: EpollLoop) {
        for step in options.scenario.scaled(by: options.speed).buttonSteps {
            // The daemon lives as long as the demo's loop runs: strong captures are fine.
            loop.schedule(after: step.at) {
                _ = daemon.setButton(step.role, active: true)
                loop.schedule(after: step.hold) { _ = daemon.setButton(step.role, active: false) }
            }
        }
    }

    // MARK: - headless

    /// Renders `frames` frames without a terminal.
    public func runHeadless(frames: Int) throws(WristCoreFailure) {
        let loop = try WristCoreFailure.during("cannot start the event loop") { () throws(HALError) in try EpollLoop(clock: .manual(ManualClock())) }
        let daemon = makeDaemon(pinnedClock: true)
        try daemon.start(on: loop)
        defer { daemon.stop() }
        scheduleButtons(daemon, loop: loop)
        if let dir = options.pngDirectory { try makeDirectory(dir) }
        let step = Duration.milliseconds(10)
        for frame in 0..<frames {
            // Advance in small steps, letting the socket traffic between the
            // phone and the watch settle after each.
            var elapsed = Duration.zero
            while elapsed < Self.frameInterval {
                loop.advanceClock(by: step)
                elapsed += step
                while try WristCoreFailure.during("event loop failed", { () throws(HALError) in try loop.runOnce(timeout: .zero) }) > 0 {}
            }
            let image = daemon.screenImage(daemon.watch!)
            frameHandler?(frame, image)
            if let dir = options.pngDirectory { try writePNG(image, dir: dir, frame: frame) }
        }
        logger.info("wrote \(frames) frames\(options.pngDirectory.map { " to \($0)" } ?? "")")
    }

    // MARK: - interactive

    /// Runs in the terminal until 'q', Ctrl-C or `duration`.
    public func runInteractive(terminal: Terminal) throws(WristCoreFailure) {
        let loop = try WatchDaemon.makeLoop()
        let daemon = makeDaemon()
        try daemon.start(on: loop)
        defer { daemon.stop() }
        do throws(HALError) { try terminal.enterRawMode() } catch { throw WristCoreFailure("terminal: \(error)") }
        defer { terminal.restore() }
        loop.onShutdown { terminal.restore() }
        scheduleButtons(daemon, loop: loop)
        if let d = options.duration { loop.schedule(after: d) { loop.shutdown() } }
        if let dir = options.pngDirectory { try makeDirectory(dir) }

        let utf8 = Self.terminalIsUTF8()
        var lastPress = "—"
        var lastImage: MonoImage?
        var lastScreen: [String] = []
        var frame = 0
        let started = loop.now
        let press: (ButtonRole) -> Void = { role in
            _ = daemon.setButton(role, active: true)
            loop.schedule(after: .milliseconds(80)) { _ = daemon.setButton(role, active: false) }
            lastPress = role.rawValue
        }
        var keyBuffer = [UInt8](repeating: 0, count: 64)
        do throws(HALError) {
            _ = try loop.addSource(fd: terminal.input, events: .readable) { _ in
                let n = terminal.readKeys(into: &keyBuffer)
                guard n > 0 else { return }
                for key in Self.keys(Array(keyBuffer[0..<n])) {
                    switch key {
                    case .button(let role): press(role)
                    case .quit: loop.shutdown()
                    }
                }
            }
        } catch { throw WristCoreFailure("terminal: \(error)") }
        let redraw = loop.makeTimer { [unowned(unsafe) self] in
            let image = daemon.screenImage(daemon.watch!)
            let size = terminal.size
            let style = self.options.style ?? TerminalPanel.Style.choose(
                width: image.width, height: image.height, columns: size.columns, rows: size.rows, reservedRows: 3, utf8: utf8)
            var lines = TerminalPanel.lines(image, style: style)
            let motorOn = daemon.watch?.motor?.isMotorOn == true
            let seconds = Double(loop.now.duration(since: started).nanosecondsClamped) / 1e9
            let motor = motorOn ? (utf8 ? "≋≋ BZZZ ≋≋" : "== BZZZ ==") : "  ·  "
            lines.append("motor \(motor)   last button: \(lastPress)   \(NumberText.fixed(seconds, fractionDigits: 1, width: 5)) s")
            lines.append(utf8 ? "→/y/Enter positive  ←/n negative  ↑↓ up/down  space select  Esc back  q quit"
                              : "y/Enter positive  n negative  arrows up/down  space select  b back  q quit")
            if lines != lastScreen {
                lastScreen = lines
                terminal.write("\u{1B}[H" + lines.map { $0 + "\u{1B}[K" }.joined(separator: "\r\n") + "\u{1B}[J")
            }
            if let dir = self.options.pngDirectory, image != lastImage {
                try? self.writePNG(image, dir: dir, frame: frame)
                frame += 1
            }
            lastImage = image
        }
        loop.arm(redraw, after: .milliseconds(50), repeating: .milliseconds(50))
        do throws(HALError) { try loop.run() } catch { throw WristCoreFailure("event loop failed: \(error)") }
    }

    // MARK: - keys

    enum Key: Equatable { case button(ButtonRole), quit }

    /// Decodes typed bytes (arrow keys are ESC [ A..D).
    static func keys(_ bytes: [UInt8]) -> [Key] {
        var out: [Key] = []
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x1B, i + 2 < bytes.count, bytes[i + 1] == UInt8(ascii: "[") {
                switch bytes[i + 2] {
                case UInt8(ascii: "A"): out.append(.button(.up))
                case UInt8(ascii: "B"): out.append(.button(.down))
                case UInt8(ascii: "C"): out.append(.button(.positive))
                case UInt8(ascii: "D"): out.append(.button(.negative))
                default: break
                }
                i += 3
                continue
            }
            switch b {
            case 0x1B, UInt8(ascii: "b"): out.append(.button(.back))
            case 0x0D, 0x0A, UInt8(ascii: "y"), UInt8(ascii: "p"): out.append(.button(.positive))
            case 0x7F, 0x08, UInt8(ascii: "n"): out.append(.button(.negative))
            case UInt8(ascii: " "), UInt8(ascii: "s"): out.append(.button(.select))
            case UInt8(ascii: "k"): out.append(.button(.up))
            case UInt8(ascii: "j"): out.append(.button(.down))
            case UInt8(ascii: "q"), UInt8(ascii: "Q"): out.append(.quit)
            default: break
            }
            i += 1
        }
        return out
    }

    static func terminalIsUTF8() -> Bool {
        let env = CurrentProcess.environment
        let locale = env("LC_ALL").flatMap { $0.isEmpty ? nil : $0 } ?? env("LC_CTYPE").flatMap { $0.isEmpty ? nil : $0 } ?? env("LANG") ?? ""
        let l = Array(locale.lowercased().utf8)
        return contains(l, "utf-8") || contains(l, "utf8")
    }

    /// Whether `text` holds `word` (the stdlib's substring search is not in Embedded Swift).
    private static func contains(_ text: [UInt8], _ word: StaticString) -> Bool {
        let w = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard w.count <= text.count else { return false }
        return (0...(text.count - w.count)).contains { i in text[i..<(i + w.count)].elementsEqual(w) }
    }

    // MARK: - files

    private func makeDirectory(_ dir: String) throws(WristCoreFailure) {
        do throws(HALError) { try FileSystem.createDirectories(dir) } catch {
            throw WristCoreFailure("--png \(dir): cannot create the directory (\(error))")
        }
    }

    /// `frame-0042.png`: the frame's file name in the PNG directory.
    static func frameFileName(_ frame: Int) -> String {
        "frame-" + NumberText.zeroPadded(frame, width: 4) + ".png"
    }

    private func writePNG(_ image: MonoImage, dir: String, frame: Int) throws(WristCoreFailure) {
        let path = dir + "/" + Self.frameFileName(frame)
        do throws(HALError) { try FileBytes.write(image.png(scale: 4), to: path) } catch {
            throw WristCoreFailure("--png: cannot write \(path) (\(error.reason))")
        }
    }
}
