import BoardConfig
import HAL
import Testing

@testable import BoardConfig

/// BoardConfig reads no files: it takes bytes, or a reader the composition
/// root passes in (LinuxHAL's `FileBytes.readIfPresent`).
@Suite("Board files from bytes")
struct BoardBytesTests {
    @Test func parsesUTF8BytesAndSkipsAByteOrderMark() throws {
        let plain = try BoardLoader.parse(Array(validBoard.utf8), file: "t.json")
        #expect(plain.name == "Test board")
        let withMark = try BoardLoader.parse([0xEF, 0xBB, 0xBF] + Array(validBoard.utf8), file: "t.json")
        #expect(withMark == plain)
    }

    @Test func bytesThatAreNotUTF8AreOneProblem() {
        #expect(throws: BoardError(problems: [BoardProblem(file: "t.json", line: 0, field: "board", message: "not UTF-8 text")])) {
            try BoardLoader.parse([0x7B, 0xFF, 0x7D], file: "t.json")
        }
    }

    @Test func aMissingFileSaysSo() {
        do {
            _ = try BoardLoader.load(path: "/x/board.json", readFile: { _ throws(HALError) in nil })
            Issue.record("loaded a missing file")
        } catch {
            #expect(error.problems.map(\.description) == [
                "/x/board.json:0: board: no such file; shipped boards are in Boards/ (try --board Boards/rpi-zero2w.json or --board sim)"
            ])
        }
    }

    @Test func anUnreadableFileSaysWhy() {
        let denied: BoardLoader.ReadFile = { path throws(HALError) in
            throw HALError(operation: "open \(path)", errno: 13, reason: "Permission denied")
        }
        do {
            _ = try BoardLoader.load(path: "/x/board.json", readFile: denied)
            Issue.record("loaded an unreadable file")
        } catch {
            #expect(error.problems.map(\.description) == [
                "/x/board.json:0: board: cannot be read (Permission denied; check its permissions); shipped boards are in Boards/ (try --board Boards/rpi-zero2w.json or --board sim)"
            ])
        }
    }

    @Test func simReadsBoardsSimJsonWhenPresentElseTheBuiltInBoard() throws {
        var asked: [String] = []
        let none = try BoardLoader.load(argument: "sim", readFile: { path throws(HALError) in asked.append(path); return nil })
        #expect(asked == ["Boards/sim.json"])
        #expect(none == BoardLoader.builtInSimulated)
        let file = try BoardLoader.load(argument: "sim", readFile: { _ throws(HALError) in Array(validBoard.utf8) })
        #expect(file.name == "Test board" && file.source == "Boards/sim.json")
    }

    @Test func quietHoursMayHaveSpacesAroundTheTimes() throws {
        let text = validBoard.replacing(#""line": 18 }"#, with: #""line": 18, "quietHours": " 22:30 - 07:00 " }"#)
        let b = try BoardLoader.parse(Array(text.utf8), file: "t.json")
        #expect(b.motor?.quietHours?.start == 22 * 60 + 30)
        #expect(b.motor?.quietHours?.end == 7 * 60)
    }
}
