import BoardConfig
import Display
import Graphics
import HAL
import Haptics
import Input
import Log
import LinuxHAL
import Loop
import Screens
import Testing
import Watch

/// The thin controller on a `ManualLoop`: the model's decisions reach the
/// panel driver, the pairing reply and the loop's timers. No descriptors, no
/// sleeping.
@Suite struct WatchControllerTests {
    /// An I2C transport that takes every byte.
    final class NullTransport: I2CTransport {
        let address: UInt8 = 0x3C
        let functionality: I2CFunctionality = .plainI2C
        let maxMessageLength = 4097
        var writes = 0
        func writeMessage(_ message: UnsafeRawBufferPointer) throws(HALError) { writes += 1 }
    }

    /// A motor line that takes every change.
    final class NullMotorLine: MotorLine {
        var on = false
        func setActive(_ on: Bool) throws(HALError) { self.on = on }
        func release() { on = false }
    }

    /// What the daemon wires between the motor and the watch: quiet hours
    /// read the watch's clock (the watch is made after the motor).
    final class WatchReference {
        weak var watch: WatchController?
    }

    final class Rig {
        static let fonts: ScreenFonts = {
            let loader = FontLoader(searchPath: [FontLoader.packageFontsDirectory], readFile: FileBytes.readIfPresent)
            do { return try ScreenFonts.standard(loader: loader) } catch { fatalError("\(error)") }
        }()
        static let contrast: UInt8 = 127

        let loop: ManualLoop
        let transport = NullTransport()
        let driver: OLEDDriver
        let watch: WatchController
        let motor: MotorController?

        /// - Parameters:
        ///   - wallClock: the loop's wall clock at the start (default: as many ns since 1970 as the monotonic clock).
        ///   - quietHours: these quiet hours (as the daemon sets them) and a motor.
        init(
            wallClock: WallClockInstant? = nil, quietHours: QuietHours? = nil, _ configure: (inout WatchSettings) -> Void = { _ in }
        ) throws {
            loop = ManualLoop(now: MonotonicInstant(nanoseconds: 1_000_000_000), wallClock: wallClock)
            var settings = WatchSettings()
            settings.systemClock = { CivilTime(year: 2024, month: 5, day: 1, hour: 9, minute: 41, second: 0) }
            settings.quietHours = quietHours
            configure(&settings)
            driver = OLEDDriver(spec: .ssd1306_128x64, transport: transport)
            let renderer = ScreenRenderer(width: 128, height: 64, fonts: Self.fonts)
            var logger = Logger(label: "watch-tests")
            logger.logLevel = .critical
            let reference = WatchReference()
            if quietHours != nil {
                motor = MotorController(line: NullMotorLine(), scheduler: loop, configuration: HapticsConfiguration())
            } else {
                motor = nil
            }
            watch = WatchController(
                loop: loop, logger: logger, settings: settings, renderer: renderer,
                framebuffer: Framebuffer(width: 128, height: 64), driver: driver, contrast: Self.contrast,
                motor: motor, policy: .standard)
            reference.watch = watch
            try watch.start(rotation: .r0)
        }

        /// The picture the watch should show now: `screen` drawn afresh with
        /// this status (time, link, unread) and the model's burn-in shift.
        func expectedImage(_ screen: Screen = .waitingForPhone, time: CivilTime?) -> MonoImage {
            let fb = Framebuffer(width: 128, height: 64)
            ScreenRenderer(width: 128, height: 64, fonts: Self.fonts).render(
                screen, status: StatusInfo(time: time, link: watch.link, unread: watch.unread),
                // The driver moves the picture against burn-in, not the renderer.
                notifications: watch.notifications, into: fb, callNotice: nil)
            return MonoImage(fb)
        }

        var image: MonoImage { MonoImage(watch.framebuffer) }
    }

    @Test func theDisplayDimsSleepsAndWakesThroughTheDriver() throws {
        let rig = try Rig {
            $0.dimAfter = .milliseconds(300)
            $0.offAfter = .milliseconds(600)
        }
        #expect(rig.driver.options.contrast == Rig.contrast)
        rig.loop.advance(by: .milliseconds(300))
        #expect(rig.watch.displayState == "dimmed")
        #expect(rig.driver.options.contrast == WatchSettings().dimContrast)
        rig.loop.advance(by: .milliseconds(300))
        #expect(rig.watch.displayState == "off")
        #expect(rig.driver.isOn == false)
        // Dark: a redraw draws but sends nothing.
        let writes = rig.transport.writes
        rig.watch.requestRender()
        rig.loop.runDeferred()
        #expect(rig.transport.writes == writes)
        // A press wakes it at full contrast, and it is redrawn.
        rig.watch.button(.back, .press)
        rig.loop.runDeferred()
        #expect(rig.watch.displayState == "on")
        #expect(rig.driver.isOn)
        #expect(rig.driver.options.contrast == Rig.contrast)
        #expect(rig.transport.writes > writes)
    }

    @Test func oneTimerFollowsTheModelsNextDeadline() throws {
        let rig = try Rig()
        // The model's timer and the minute redraw; nothing else is armed.
        #expect(rig.loop.armedTimerCount == 2)
        #expect(rig.loop.nextDeadline == rig.watch.model.nextDeadline)
        rig.loop.advance(by: .seconds(15))
        #expect(rig.watch.displayState == "dimmed")
        rig.watch.button(.back, .press)
        // The press moved the model's deadline; the timer followed it.
        #expect(rig.loop.nextDeadline == rig.loop.now.advanced(by: .seconds(15)))
        #expect(rig.loop.armedTimerCount == 2)
    }

    @Test func staticContentShiftsAgainstBurnInOnTheMinuteTick() throws {
        let rig = try Rig {
            $0.pixelShiftInterval = .milliseconds(200)
            $0.offAfter = .seconds(7200)
            $0.dimAfter = .seconds(7200)
        }
        let fb = rig.watch.framebuffer
        func image() -> [[Bool]] { (0..<fb.height).map { y in (0..<fb.width).map { x in fb.pixel(x: x, y: y) } } }
        let before = image()
        let writes = rig.transport.writes
        rig.loop.advance(by: .milliseconds(200))
        #expect(image() == before, "due, but it waits for the minute tick")
        #expect(rig.watch.model.shiftStep == 0)
        #expect(rig.transport.writes == writes, "nothing resent for it")
        // The loop's wall clock starts 1 s after a whole minute.
        rig.loop.advance(by: .seconds(59) - .milliseconds(200))
        #expect(rig.watch.model.shiftStep == 1)
        // The controller moves the picture, not the renderer: the step right
        // is asked of the driver and goes out with the next screen change.
        #expect(rig.driver.requestedShift == PanelShift(x: 1, y: 0))
        rig.watch.showNotice("Pair again")
        rig.loop.runDeferred()
        #expect(rig.driver.appliedShift == PanelShift(x: 1, y: 0))
    }

    @Test func pairingRepliesOnceThroughItsClosure() throws {
        let rig = try Rig { $0.pairingTimeout = .milliseconds(300) }
        var answers: [Bool] = []
        rig.watch.showPairing(passkey: 12345) { answers.append($0) }
        #expect(rig.watch.screen == .pairing(passkey: 12345))
        rig.watch.button(.positive, .press)
        #expect(answers == [true])
        #expect(rig.watch.screen == .waitingForPhone)

        rig.watch.showPairing(passkey: 1) { answers.append($0) }
        rig.watch.button(.negative, .press)
        #expect(answers == [true, false])

        rig.watch.showPairing(passkey: 2) { answers.append($0) }
        rig.watch.showPairing(passkey: 3) { answers.append($0) }
        #expect(answers == [true, false, false], "a newer request rejects the one waiting")
        rig.loop.advance(by: .milliseconds(300))
        #expect(answers == [true, false, false, false], "the timeout rejects")

        rig.watch.showPairing(passkey: 4) { answers.append($0) }
        rig.watch.pairingFinished()
        rig.loop.advance(by: .seconds(1))
        #expect(answers.count == 4, "a request that ended elsewhere is not answered")
    }

    @Test func theLinkIndicatorGoesThroughTheModel() throws {
        let rig = try Rig()
        rig.watch.link = .advertising
        #expect(rig.watch.model.link == .advertising)
        #expect(rig.watch.link == .advertising)
    }
}
