import BoardConfig
import Testing

@testable import BoardConfig

/// `bluetooth.adapterLossTimeoutSeconds`: how long the adapter may stay away
/// before the daemon exits for systemd to restart it.
@Suite struct AdapterLossTimeoutTests {
    @Test func defaultsToTwoMinutes() throws {
        let b = try BoardLoader.parse(validBoard, file: "t.json")
        #expect(b.bluetooth.adapterLossTimeout == .seconds(120))
        #expect(BluetoothSettings.defaults.adapterLossTimeout == .seconds(120))
    }

    @Test func readFromTheBoardFile() throws {
        let text = validBoard.replacingOccurrences(of: "\"name\": \"Wrist\" }", with: "\"name\": \"Wrist\", \"adapterLossTimeoutSeconds\": 30 }")
        let b = try BoardLoader.parse(text, file: "t.json")
        #expect(b.bluetooth == BluetoothSettings(hciIndex: 1, name: "Wrist", adapterLossTimeout: .seconds(30)))
    }

    @Test func outOfRangeIsAProblem() {
        let text = validBoard.replacingOccurrences(of: "\"name\": \"Wrist\" }", with: "\"name\": \"Wrist\", \"adapterLossTimeoutSeconds\": 2 }")
        #expect(problems(text) == ["Boards/broken.json:10: bluetooth.adapterLossTimeoutSeconds: 2 is out of range; allowed: an integer from 5 to 3600"])
    }
}
