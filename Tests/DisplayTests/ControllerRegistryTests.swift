import BoardConfig
import Display
import HAL
import SimBoard
import Testing

/// The controller registry (`ControllerSpec.all`) is the one identity of a
/// panel: board files validate against it, the daemon and the self-test
/// drive what it lists, and the emulator must model every entry on its own.
@Suite("Controller registry")
struct ControllerRegistryTests {
    @Test("every registered panel has an emulator model with the same RAM and glass", arguments: ControllerSpec.all)
    func emulatorCoversTheRegistry(spec: ControllerSpec) throws {
        let panel = try #require(EmulatedPanel.named(spec.name), "no emulator model of \(spec.name)")
        #expect(panel.chip.rawValue == spec.family.rawValue)
        #expect(panel.width == spec.width && panel.height == spec.height)
        #expect(panel.chip.ramColumns == spec.ramColumns)
        #expect(panel.firstSegment == spec.columnOffset)
    }

    @Test("families are the registry's, in its order; a name no panel has is no family")
    func families() {
        #expect(ControllerFamily.allCases.map(\.rawValue) == ["ssd1306", "sh1106", "ssd1309"])
        #expect(ControllerFamily(rawValue: "ssd1306") == .ssd1306)
        #expect(ControllerFamily(rawValue: "ssd1315") == nil)
        #expect(ControllerSpec.all.filter { $0.family == .ssd1306 }.map(\.height) == [64, 32])
        #expect(ControllerSpec.panel(.sh1106, width: 128, height: 32) == nil)
        #expect(ControllerSpec.panel(.sh1106, width: 128, height: 64) == .sh1106_128x64)
    }

    @Test("a board file may name every registered panel, and the column offset defaults to the registry's", arguments: ControllerSpec.all)
    func boardFilesFollowTheRegistry(spec: ControllerSpec) throws {
        let text = """
            { "name": "t", "display": { "controller": "\(spec.family.rawValue)", "bus": 1, "address": "0x3C",
              "width": \(spec.width), "height": \(spec.height) },
              "buttons": [ { "role": "positive", "chip": "gpiochip0", "line": 17 },
                           { "role": "negative", "chip": "gpiochip0", "line": 27 } ] }
            """
        let board = try BoardLoader.parse(text, file: "t.json")
        #expect(board.display.controller == spec.family)
        #expect(board.display.columnOffset == spec.columnOffset)
    }

    @Test("an unregistered controller or height is refused with the registry's choices")
    func refusals() {
        func problems(_ display: String) -> [String] {
            do {
                _ = try BoardLoader.parse("{ \"name\": \"t\", \"display\": { \(display) } }", file: "t.json")
                return []
            } catch {
                return error.problems.map { $0.description }
            }
        }
        #expect(problems(#""controller": "ssd1315", "bus": 1, "address": "0x3C", "width": 128, "height": 64"#).contains {
            $0.contains("display.controller") && $0.contains("allowed: ssd1306, sh1106, ssd1309")
        })
        #expect(problems(#""controller": "sh1106", "bus": 1, "address": "0x3C", "width": 128, "height": 32"#).contains {
            $0.contains("display.height") && $0.contains("64 (only the ssd1306 comes in 128x32)")
        })
    }

    @Test("the driver for every registered panel comes from one place")
    func oneFactory() {
        final class Bus: I2CTransport {
            let address: UInt8 = 0x3C
            let functionality: I2CFunctionality = .plainI2C
            let maxMessageLength = 4096
            func writeMessage(_ message: UnsafeRawBufferPointer) throws(HALError) {}
        }
        for spec in ControllerSpec.all {
            let driver = PanelDrivers.make(spec, transport: Bus())
            #expect(driver.spec == spec)
        }
    }
}
