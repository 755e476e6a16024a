import BoardConfig
import Foundation
import HAL
import Testing

@testable import BoardConfig

/// The package root, found from this file, so tests run from any directory.
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let validBoard = """
    {
      // a comment
      "name": "Test board",
      "display": { "controller": "sh1106", "bus": 1, "address": "0x3C", "width": 128, "height": 64 },
      "buttons": [
        { "role": "positive", "chip": "gpiochip0", "line": 17 },
        { "role": "negative", "chip": "gpiochip0", "line": "GPIO27", "activeLow": false, "bias": "pull-down" }
      ],
      "motor": { "chip": "gpiochip0", "line": 18 },
      "bluetooth": { "hci": 1, "name": "Wrist" }
    }
    """

/// The single problem line a broken board produces.
func problems(_ text: String) -> [String] {
    do {
        _ = try BoardLoader.parse(text, file: "Boards/broken.json")
        return []
    } catch {
        return error.problems.map(\.description)
    }
}

@Suite("Board files")
struct BoardLoaderTests {
    @Test func everyShippedBoardLoads() throws {
        let dir = packageRoot.appendingPathComponent("Boards")
        let files = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count >= 6, "Zero 2 W/3/4, Pi 5, Orange Pi Zero 3, Radxa Zero 3, generic, sim")
        for f in files {
            do {
                let board = try BoardLoader.load(path: dir.appendingPathComponent(f).path)
                #expect(board.button(.positive) != nil && board.button(.negative) != nil, "\(f)")
            } catch {
                Issue.record("\(f) does not load:\n\(error)")
            }
        }
    }

    @Test func simBoardIsSimulated() throws {
        let board = try BoardLoader.load(path: packageRoot.appendingPathComponent("Boards/sim.json").path)
        #expect(board.simulated)
        #expect(BoardLoader.builtInSimulated.simulated)
    }

    @Test func rpi5MatchesTheRP1ChipByLabel() throws {
        let board = try BoardLoader.load(path: packageRoot.appendingPathComponent("Boards/rpi5.json").path)
        #expect(board.buttons.allSatisfy { $0.chip == "pinctrl-rp1" })
    }

    @Test func validBoardParsesWithDefaults() throws {
        let b = try BoardLoader.parse(validBoard, file: "t.json")
        #expect(b.name == "Test board")
        #expect(b.display.controller == .sh1106)
        #expect(b.display.address == 0x3C)
        #expect(b.display.columnOffset == 2, "sh1106 defaults to column offset 2")
        #expect(b.display.contrast == 127 && b.display.rotation == 0 && !b.display.flip)
        #expect(b.button(.positive) == ButtonWiring(role: .positive, chip: "gpiochip0", line: .offset(17), activeLow: true, bias: .pullUp))
        #expect(b.button(.negative)?.line == .name("GPIO27"))
        #expect(b.button(.negative)?.bias == .pullDown)
        #expect(b.motor == MotorWiring(chip: "gpiochip0", line: .offset(18), activeLow: false))
        #expect(b.bluetooth == BluetoothSettings(hciIndex: 1, name: "Wrist"))
        #expect(b.input == .defaults)
    }

    @Test func wrongType() {
        let p = problems(validBoard.replacingOccurrences(of: "\"bus\": 1", with: "\"bus\": \"one\""))
        #expect(p == ["Boards/broken.json:4: display.bus: expected a number, found the string \"one\"; allowed: the N of /dev/i2c-N, 0-255"])
    }

    @Test func unknownController() {
        let p = problems(validBoard.replacingOccurrences(of: "sh1106", with: "ssd1305"))
        #expect(p == ["Boards/broken.json:4: display.controller: \"ssd1305\" is not a supported display controller; allowed: ssd1306, sh1106, ssd1309"])
    }

    @Test func missingLine() {
        let p = problems(validBoard.replacingOccurrences(of: ", \"line\": 17", with: ""))
        #expect(p == ["Boards/broken.json:6: buttons[0].line: missing (required); allowed: a line offset (integer) or a line name (string, e.g. \"GPIO17\")"])
    }

    @Test func badAddress() {
        let p = problems(validBoard.replacingOccurrences(of: "\"0x3C\"", with: "\"0x78\""))
        #expect(p == ["Boards/broken.json:4: display.address: \"0x78\" is out of range; allowed: a 7-bit I2C address 0x03-0x77 (OLEDs use 0x3C or 0x3D)"])
        let q = problems(validBoard.replacingOccurrences(of: "\"0x3C\"", with: "\"0x3G\""))
        #expect(q == ["Boards/broken.json:4: display.address: \"0x3G\" is not a number; allowed: a 7-bit I2C address 0x03-0x77 (OLEDs use 0x3C or 0x3D) (decimal, or hex as \"0x3C\")"])
    }

    @Test func duplicateRole() {
        let p = problems(validBoard.replacingOccurrences(of: "\"role\": \"negative\"", with: "\"role\": \"positive\""))
        #expect(p.contains("Boards/broken.json:7: buttons[1].role: \"positive\" is already used by buttons[0]; each role at most once"))
        #expect(p.contains("Boards/broken.json:5: buttons: no button has role \"negative\"; the positive and negative buttons are required"))
        #expect(p.count == 2)
    }

    @Test func unknownKey() {
        let p = problems(validBoard.replacingOccurrences(of: "\"width\": 128", with: "\"width\": 128, \"colour\": \"blue\""))
        #expect(p == ["Boards/broken.json:4: display.colour: unknown field; allowed: controller, bus, address, width, height, columnOffset, rotation, contrast, flip, dimAfterSeconds, offAfterSeconds"])
    }

    @Test func everyProblemIsReportedNotJustTheFirst() {
        let broken = validBoard
            .replacingOccurrences(of: "sh1106", with: "oled")
            .replacingOccurrences(of: "\"0x3C\"", with: "200")
            .replacingOccurrences(of: "\"hci\": 1", with: "\"hci\": -1")
            .replacingOccurrences(of: "\"line\": 18", with: "\"line\": 17")
        let p = problems(broken)
        #expect(p.count == 4, "\(p)")
        #expect(p.contains { $0.contains("display.controller") })
        #expect(p.contains { $0.contains("display.address: 200 is out of range") })
        #expect(p.contains { $0.contains("bluetooth.hci: -1 is out of range") })
        #expect(p.contains { $0.contains("motor.line") && $0.contains("already used by buttons[positive]") })
    }

    @Test func heightDependsOnTheController() {
        #expect(problems(validBoard.replacingOccurrences(of: "\"height\": 64", with: "\"height\": 32")) == [
            "Boards/broken.json:4: display.height: 32 is not supported for sh1106; allowed: 64 (only the ssd1306 comes in 128x32)"
        ])
        let ok = validBoard.replacingOccurrences(of: "\"height\": 64", with: "\"height\": 32").replacingOccurrences(of: "sh1106", with: "ssd1306")
        #expect(problems(ok).isEmpty)
    }

    @Test func syntaxErrorsNameLineAndColumn() {
        #expect(problems("{\n  \"name\": \"x\",\n  \"display\": { \"bus\" 1 }\n}") == [
            "Boards/broken.json:3: syntax: expected ':' after \"bus\" (column 22)"
        ])
        #expect(problems("{ \"name\": 'x' }") == ["Boards/broken.json:1: syntax: unexpected character ''' (column 11)"])
        #expect(problems("{ \"a\": 1, }").first?.contains("trailing ','") == true)
    }

    @Test func missingFileIsAClearError() {
        #expect(throws: BoardError.self) { try BoardLoader.load(path: "/nonexistent/board.json") }
    }

    @Test func advertisedNameMustFitInAnAdvertisement() {
        let p = problems(validBoard.replacingOccurrences(of: "\"Wrist\"", with: "\"" + String(repeating: "時", count: 10) + "\""))
        #expect(p == ["Boards/broken.json:10: bluetooth.name: \"時時時時時時時時時時\" is 30 bytes of UTF-8; allowed: 1-29 bytes (it must fit in an advertisement)"])
    }
}
