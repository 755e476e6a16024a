import BoardConfig
import Display
import Graphics
import HAL
import Haptics
import Input
import Logging
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

    final class Rig {
        static let fonts: ScreenFonts = {
            let loader = FontLoader(searchPath: [FontLoader.packageFontsDirectory], readFile: FileBytes.readIfPresent)
            do { return try ScreenFonts.standard(loader: loader) } catch { fatalError("\(error)") }
        }()
        static let contrast: UInt8 = 127

        let loop = ManualLoop(now: MonotonicInstant(nanoseconds: 1_000_000_000))
        let transport = NullTransport()
        let driver: OLEDDriver
        let watch: WatchController

        init(_ configure: (inout WatchSettings) -> Void = { _ in }) throws {
            var settings = WatchSettings()
            settings.systemClock = { WallClockTime(year: 2024, month: 5, day: 1, hour: 9, minute: 41, second: 0, weekday: 3) }
            configure(&settings)
            driver = OLEDDriver(spec: .ssd1306_128x64, transport: transport)
            let renderer = ScreenRenderer(width: 128, height: 64, fonts: Self.fonts)
            var logger = Logger(label: "watch-tests")
            logger.logLevel = .critical
            watch = WatchController(
                loop: loop, logger: logger, settings: settings, renderer: renderer,
                framebuffer: Framebuffer(width: 128, height: 64), driver: driver, contrast: Self.contrast,
                motor: nil, policy: .standard)
            try watch.start(rotation: .r0)
        }
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

    @Test func idleAndDarkTheLoopWakesOnlyForTheMinuteAndTheShift() throws {
        let rig = try Rig()
        rig.loop.advance(by: .seconds(30))
        #expect(rig.watch.displayState == "off")
        let firings = rig.loop.timerFirings
        rig.loop.advance(by: .seconds(600))
        // Ten minute redraws and three burn-in steps (every 180 s).
        #expect(rig.loop.timerFirings - firings == 10 + 3)
    }

    @Test func staticContentShiftsAgainstBurnIn() throws {
        let rig = try Rig { $0.pixelShiftInterval = .milliseconds(200) }
        let fb = rig.watch.framebuffer
        func image() -> [[Bool]] { (0..<fb.height).map { y in (0..<fb.width).map { x in fb.pixel(x: x, y: y) } } }
        let before = image()
        let writes = rig.transport.writes
        rig.loop.advance(by: .milliseconds(200))
        // The controller moves the picture, not the renderer: the framebuffer
        // stays; the step right waits for a screen change (it would rewrite
        // every lit column of a static screen).
        #expect(image() == before)
        #expect(rig.driver.requestedShift == PanelShift(x: 1, y: 0))
        #expect(rig.driver.appliedShift == .zero)
        #expect(rig.transport.writes == writes, "nothing resent for it")
        // The step down is the start line: one transaction.
        rig.loop.advance(by: .milliseconds(200))
        #expect(rig.driver.appliedShift == PanelShift(x: 0, y: 1))
        #expect(rig.transport.writes == writes + 1)
        #expect(rig.driver.lastFlush.busBytes == 2)
        // A screen change takes the step right with it.
        rig.watch.showNotice("Pair again")
        rig.loop.runDeferred()
        #expect(rig.driver.appliedShift == PanelShift(x: 1, y: 1))
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
