import BoardConfig
import Graphics
import HAL
import LinuxHAL
import LinuxLoop
import Log
import Loop
import Peripheral
import Screens
import SimBoard
import TextFormat
import Watch
import WristCore

/// `wristcore demo`: the watch on simulated hardware, a simulated phone (an
/// iPhone, or Gadgetbridge on Android) playing a scenario, the OLED drawn in the terminal, keys for buttons.
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
    static let demoTime = CivilTime(year: 2024, month: 5, day: 1, hour: 12)

    /// - Parameter pinnedClock: the system time to show until the phone sends
    ///   its own (headless runs pin it so every frame is reproducible).
    private func makeDaemon(pinnedClock: Bool = false) -> WatchDaemon {
        var o = WatchDaemon.Options()
        if pinnedClock { o.settings.systemClock = { DemoRunner.demoTime } }
        let scenario = options.scenario.scaled(by: options.speed)
        o.phoneScript = scenario.phoneEvents
        if scenario.phone == .android { o.androidPhoneScript = scenario.androidEvents }
        // Awake for the whole show; it still dims and sleeps like a watch after a while.
        o.settings.dimAfter = .seconds(45)
        o.settings.offAfter = .seconds(600)
        o.keepPowerSettings = true
        // Do Not Disturb is one key away in the demo: it must not touch the real watch's state.
        o.keepsDoNotDisturb = false
        return WatchDaemon(board: board, logger: logger, options: o, devices: .simulated)
    }

    /// Plays the scenario's button steps with `hand`, each named through `noted` as it starts.
    private func scheduleScenarioPresses(_ hand: ButtonHand, loop: EpollLoop, noted: @escaping (String) -> Void) {
        let timing = board.input
        for step in options.scenario.scaled(by: options.speed).buttonSteps {
            // The hand lives as long as the demo's loop runs: strong captures are fine.
            loop.schedule(after: step.at) {
                hand.perform(step.press, on: step.role)
                noted(Self.scenarioPressText(step.role, step.press, timing: timing))
            }
        }
    }

    /// "scenario: positive (long)": the footer's name for a press the scenario makes.
    static func scenarioPressText(_ role: ButtonRole, _ press: ButtonPress, timing: InputTiming) -> String {
        "scenario: " + role.rawValue + press.suffix(timing)
    }

    /// "you: positive (double)": the footer's name for a key the user typed.
    static func keyText(_ key: DemoKey, timing: InputTiming) -> String {
        "you: " + DemoKeyNames.describe(key, timing: timing)
    }

    /// Presses the buttons `keys` name (quit is the caller's); returns the
    /// footer's text for the last of them.
    private static func press(_ keys: [DemoKey], with hand: ButtonHand) -> String? {
        var text: String?
        for key in keys {
            if case .button(let role, let press) = key { hand.perform(press, on: role) }
            if key != .quit { text = keyText(key, timing: hand.timing) }
        }
        return text
    }

    // MARK: - headless

    /// Keys typed during a headless run, by frame (tests): as if typed at the frame's start.
    var keysAtFrame: [Int: [UInt8]] = [:]
    /// Called with each headless frame and the watch (tests).
    var watchHandler: ((Int, WatchController) -> Void)?
    /// Called once a headless run's daemon has started (tests look at its simulated phone).
    var daemonHandler: ((WatchDaemon) -> Void)?
    /// The footer's text about the last press, as the interactive demo shows it (tests).
    private(set) var lastPressText: String?

    /// Renders `frames` frames without a terminal.
    public func runHeadless(frames: Int) throws(WristCoreFailure) {
        let loop = try WristCoreFailure.during("cannot start the event loop") { () throws(HALError) in try EpollLoop(clock: .manual(ManualClock())) }
        let daemon = makeDaemon(pinnedClock: true)
        try daemon.start(on: loop)
        defer { daemon.stop() }
        daemonHandler?(daemon)
        let hand = ButtonHand(timing: board.input, loop: loop) { role, active in daemon.setButton(role, active: active) }
        scheduleScenarioPresses(hand, loop: loop) { [unowned(unsafe) self] text in self.lastPressText = text }
        if let dir = options.pngDirectory { try makeDirectory(dir) }
        let step = Duration.milliseconds(10)
        var decoder = DemoKeyDecoder()
        for frame in 0..<frames {
            if let bytes = keysAtFrame[frame], let text = Self.press(decoder.decode(bytes), with: hand) { lastPressText = text }
            // Advance in small steps, letting the socket traffic between the
            // phone and the watch settle after each.
            var elapsed = Duration.zero
            while elapsed < Self.frameInterval {
                loop.advanceClock(by: step)
                elapsed += step
                while try WristCoreFailure.during("event loop failed", { () throws(HALError) in try loop.runOnce(timeout: .zero) }) > 0 {}
            }
            let image = daemon.shownImage!
            frameHandler?(frame, image)
            watchHandler?(frame, daemon.watch!)
            if let dir = options.pngDirectory { try writePNG(image, dir: dir, frame: frame) }
        }
        logger.info("wrote \(frames) frames\(options.pngDirectory.map { " to \($0)" } ?? "")")
    }

    // MARK: - interactive

    /// Rows under the panel at the least: the status line and one line of keys.
    static let footerRows = 2

    /// Runs in the terminal until 'q', Ctrl-C or `duration`.
    public func runInteractive(terminal: Terminal) throws(WristCoreFailure) {
        let loop = try WatchDaemon.signalHandlingLoop()
        let daemon = makeDaemon()
        try daemon.start(on: loop)
        defer { daemon.stop() }
        let screen = TerminalScreen(terminal: terminal, forcedStyle: options.style, footerRows: Self.footerRows)
        let hand = ButtonHand(timing: board.input, loop: loop) { role, active in daemon.setButton(role, active: active) }
        var lastPress: String?
        try screen.begin(on: loop) { keys in
            if let text = Self.press(keys, with: hand) { lastPress = text }
            if keys.contains(.quit) { loop.shutdown() }
        }
        defer { screen.end() }
        scheduleScenarioPresses(hand, loop: loop) { text in lastPress = text }
        if let d = options.duration { loop.schedule(after: d) { loop.shutdown() } }
        if let dir = options.pngDirectory { try makeDirectory(dir) }

        var lastImage: MonoImage?
        var frame = 0
        let started = loop.now
        let redraw = loop.makeTimer { [unowned(unsafe) self] in
            let image = daemon.shownImage!
            let motorOn = daemon.watch?.motor?.isMotorOn == true
            let seconds = Double(loop.now.duration(since: started).nanosecondsClamped) / 1e9
            screen.draw(image) { layout, columns in
                Self.footer(motorOn: motorOn, lastPress: lastPress, seconds: seconds, ascii: layout.ascii, columns: columns, rows: layout.footerRows)
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

    /// The lines under the panel: the motor, the last press (the
    /// scenario's or the user's) and the time, then the keys in what rows are
    /// left. Plain ASCII when `ascii`.
    static func footer(motorOn: Bool, lastPress: String?, seconds: Double, ascii: Bool, columns: Int, rows: Int) -> [String] {
        let motor = motorOn ? (ascii ? "== BZZZ ==" : "≋≋ BZZZ ≋≋") : "off       "
        let status = "motor \(motor)   \(lastPress ?? "no press yet")   \(NumberText.fixed(seconds, fractionDigits: 1, width: 5)) s"
        return [status] + TerminalScreen.legend(ascii: ascii, gestures: true, columns: columns, rows: rows - 1)
    }

    // MARK: - keys

    /// Decodes typed bytes (one read; a `2` at its end is forgotten).
    static func keys(_ bytes: [UInt8]) -> [DemoKey] {
        var decoder = DemoKeyDecoder()
        return decoder.decode(bytes)
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
