import BoardConfig
import Testing

/// `bluetooth.uartRequiresEncryption`: the Gadgetbridge UART only on an
/// encrypted link (docs/android.md, "Security").
@Suite struct UARTEncryptionTests {
    @Test func offByDefault() throws {
        #expect(try BoardLoader.parse(validBoard, file: "t.json").bluetooth.uartRequiresEncryption == false)
    }

    @Test func readFromTheBoardFile() throws {
        let text = validBoard.replacingOccurrences(of: "\"name\": \"Wrist\" }", with: "\"name\": \"Wrist\", \"uartRequiresEncryption\": true }")
        #expect(try BoardLoader.parse(text, file: "t.json").bluetooth.uartRequiresEncryption == true)
    }

    @Test func notABoolIsAProblem() {
        let text = validBoard.replacingOccurrences(of: "\"name\": \"Wrist\" }", with: "\"name\": \"Wrist\", \"uartRequiresEncryption\": 1 }")
        let found = problems(text)
        #expect(found.count == 1 && found[0].hasPrefix("Boards/broken.json:10: bluetooth.uartRequiresEncryption:"), "\(found)")
    }
}
