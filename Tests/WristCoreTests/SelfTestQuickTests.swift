import BoardConfig
import Glibc
import Graphics
import HAL
import LinuxHAL
import Loop
import SimBoard
import Testing

@testable import WristCore
import TextFormat

/// `--quick` on the simulated board and on devices that fail in the ways real
/// ones do.
@Suite struct SelfTestQuickTests {
    @Test func everyDeviceOpensAndTheMotorPulsesOnThenOff() {
        let bench = SelfTestBench(quick: true)
        var motorChanges: [Bool] = []
        bench.sequence.motorStateHandler = { on, _ in motorChanges.append(on) }
        bench.start()
        #expect(!bench.sequence.finished)  // the pulse takes its time
        #expect(bench.motorOn)
        bench.loop.advance(by: .milliseconds(149))
        #expect(bench.motorOn)
        bench.loop.advance(by: .milliseconds(101))
        #expect(!bench.motorOn && motorChanges == [true, false])
        #expect(bench.sequence.finished)
        let s = bench.sequence.summary
        #expect(s.results.count == 8 && s.allPassed && s.exitCode == WristCoreExit.ok)
        #expect(s.results[0].detail == "ssd1306 128x64 answers at 0x3C on the emulator; pattern drawn")
        #expect(s.results[1].detail == "sim line 0 requested, reads released")
        #expect(s.results[7].detail == "sim line 6 switched on for 150 ms, then off, and read back on, then off")
        // The quick pattern is on the glass (behind the summary drawn at the end? no: the summary replaces it).
        #expect(bench.output.contains("Self-test PASSED: all 8 steps"))
    }

    @Test func aMissingI2CBusSaysHowToEnableIt() {
        let bench = SelfTestBench(quick: true) { base in
            let d = AlteredDevices(base)
            d.display = { _ throws(HALError) in throw I2CErrorHints.open(Errno(ENOENT), path: "/dev/i2c-1") }
            return d
        }
        bench.start()
        bench.loop.advance(by: .seconds(1))
        let display = bench.sequence.summary.results[0]
        #expect(display.outcome == .failed)
        #expect(display.detail == "open /dev/i2c-1: No such file or directory")
        #expect(display.hint?.contains("sudo raspi-config nonint do_i2c 0") == true)
        // The other devices are still checked.
        #expect(bench.sequence.summary.results.dropFirst().allSatisfy { $0.outcome == .passed })
        #expect(bench.sequence.summary.exitCode == WristCoreExit.runtimeFailure)
        #expect(bench.output.contains("        -> The I2C bus is not enabled."))
    }

    @Test func aDisplayThatDoesNotAnswerNamesTheWiringAndAddress() {
        let bench = SelfTestBench(quick: true) { base in
            let d = AlteredDevices(base)
            d.display = { wiring throws(HALError) in
                let panel = EmulatedI2CDisplay(panel: .ssd1306_128x64, address: wiring.address)
                panel.failNextWrite = I2CErrorHints.transfer(Errno(EREMOTEIO), operation: "write to 0x3C on /dev/i2c-1", path: "/dev/i2c-1", address: 0x3C)
                return panel
            }
            return d
        }
        bench.start()
        let display = bench.sequence.summary.results[0]
        #expect(display.outcome == .failed)
        #expect(display.hint?.contains("Nothing answered at 0x3C on /dev/i2c-1") == true)
        #expect(display.hint?.contains("0x3C or 0x3D") == true)
    }

    @Test func aLineStuckPressedFailsWithTheActiveLowHint() {
        let bench = SelfTestBench(quick: true) { base in
            let d = AlteredDevices(base)
            d.button = { wiring throws(HALError) in
                guard wiring.role == .select else { return nil }
                let line = SimulatedButtonLine { .zero }
                line.push(active: true)
                return line
            }
            return d
        }
        bench.start()
        bench.loop.advance(by: .seconds(1))
        let select = bench.sequence.summary.results[3]
        #expect(select.name == "select" && select.outcome == .failed)
        #expect(select.detail == "sim line 2 reads pressed (stuck?)")
        #expect(select.hint?.contains("buttons[select].activeLow (now true) is probably the wrong way round") == true)
    }

    @Test func aLineThatCannotBeRequestedFailsItsStepOnly() {
        let bench = SelfTestBench(quick: true) { base in
            let d = AlteredDevices(base)
            d.button = { wiring throws(HALError) in
                guard wiring.role == .up else { return nil }
                throw HALError(operation: "request line 3 of gpiochip0", errno: EBUSY, reason: "Device or resource busy", hint: "another program holds it ('gpioinfo' shows which)")
            }
            return d
        }
        bench.start()
        bench.loop.advance(by: .seconds(1))
        let outcomes = bench.sequence.summary.results.map { "\($0.name) \($0.outcome.rawValue)" }
        #expect(outcomes == ["display passed", "positive passed", "negative passed", "select passed", "up failed", "down passed", "back passed", "motor passed"])
        #expect(bench.sequence.summary.results[4].hint == "another program holds it ('gpioinfo' shows which)")
    }

    @Test func aSignalDuringThePulseLeavesTheMotorOff() {
        let bench = SelfTestBench(quick: true)
        bench.start()
        #expect(bench.motorOn)
        bench.sequence.interrupt(reason: "SIGTERM")
        #expect(!bench.motorOn)
        bench.loop.advance(by: .seconds(1))
        #expect(!bench.motorOn)
        #expect(bench.sequence.summary.results.last?.outcome == .notRun)
        #expect(bench.sequence.summary.exitCode == WristCoreExit.runtimeFailure)
    }
}
