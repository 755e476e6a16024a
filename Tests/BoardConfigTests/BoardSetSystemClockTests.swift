import BoardConfig
import Testing

/// `setSystemClock`: off unless the board file turns it on.
@Suite("Board files: setSystemClock")
struct BoardSetSystemClockTests {
    @Test func itIsOffByDefault() throws {
        #expect(try BoardLoader.parse(validBoard, file: "x.json").setSystemClock == false)
        #expect(BoardLoader.builtInSimulated.setSystemClock == false)
    }

    @Test func aBoardFileTurnsItOn() throws {
        let text = validBoard.replacing("\"name\": \"Test board\",", with: "\"name\": \"Test board\", \"setSystemClock\": true,")
        #expect(try BoardLoader.parse(text, file: "x.json").setSystemClock)
    }

    @Test func anythingButTrueOrFalseIsReported() {
        let text = validBoard.replacing("\"name\": \"Test board\",", with: "\"name\": \"Test board\", \"setSystemClock\": \"yes\",")
        #expect(problems(text) == ["Boards/broken.json:3: setSystemClock: expected true or false, found the string \"yes\""])
    }
}
