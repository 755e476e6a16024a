import BoardConfig
import Foundation
import Testing

/// The board file's `battery` (docs/boards.md): which gauge, its bus and
/// address, and the low and critical levels.
@Suite struct BatteryWiringTests {
    func board(_ battery: String) -> String {
        validBoard.replacingOccurrences(of: "\"motor\": { \"chip\": \"gpiochip0\", \"line\": 18 },",
                                        with: "\"motor\": { \"chip\": \"gpiochip0\", \"line\": 18 },\n  \"battery\": \(battery),")
    }

    @Test func noBatteryByDefault() throws {
        #expect(try BoardLoader.parse(validBoard, file: "t.json").battery == nil)
    }

    @Test func aMAX17048OnABusWithTheDefaults() throws {
        let b = try #require(try BoardLoader.parse(board(#"{ "gauge": "max17048", "bus": 1 }"#), file: "t.json").battery)
        #expect(b.gauge == .max17048(bus: 1, address: 0x36))
        #expect(b.lowPercent == 15 && b.criticalPercent == 5 && b.powerOffWhenCritical && b.interval == .seconds(120))
    }

    @Test func aMAX17043AtAnotherAddressWithItsOwnLevels() throws {
        let text = board(#"{ "gauge": "max17043", "bus": 3, "address": "0x37", "lowPercent": 20, "criticalPercent": 8, "powerOffWhenCritical": false, "intervalSeconds": 30 }"#)
        let b = try #require(try BoardLoader.parse(text, file: "t.json").battery)
        #expect(b.gauge == .max17043(bus: 3, address: 0x37))
        #expect(b.lowPercent == 20 && b.criticalPercent == 8 && !b.powerOffWhenCritical)
        #expect(b.interval == .seconds(30))
    }

    @Test func aPowerSupplyByNameOrTheFirstBattery() throws {
        #expect(try BoardLoader.parse(board(#"{ "gauge": "power-supply", "name": "BAT0" }"#), file: "t.json").battery?.gauge
            == .powerSupply(name: "BAT0"))
        #expect(try BoardLoader.parse(board(#"{ "gauge": "power-supply" }"#), file: "t.json").battery?.gauge == .powerSupply(name: nil))
    }

    @Test func mistakesNameTheFieldAndWhatIsAllowed() {
        let cases: [(String, String)] = [
            (#"{ "bus": 1 }"#, "battery.gauge: missing (required); allowed: power-supply, max17048, max17043"),
            (#"{ "gauge": "max17049", "bus": 1 }"#, #"battery.gauge: "max17049" is not a supported gauge; allowed: power-supply, max17048, max17043"#),
            (#"{ "gauge": "max17048" }"#, "battery.bus: missing (required)"),
            (#"{ "gauge": "max17048", "bus": 1, "name": "BAT0" }"#, #"battery.name: only for "gauge": "power-supply""#),
            (#"{ "gauge": "power-supply", "bus": 1 }"#, "battery.bus: only for a gauge read over I2C"),
            (#"{ "gauge": "power-supply", "name": "../../etc" }"#, "battery.name: \"../../etc\" is not a power supply's name"),
            (#"{ "gauge": "max17048", "bus": 1, "criticalPercent": 15 }"#, "battery.criticalPercent: 15 is not below lowPercent (15)"),
            (#"{ "gauge": "max17048", "bus": 1, "lowPercent": 80 }"#, "battery.lowPercent:"),
            (#"{ "gauge": "max17048", "bus": 1, "intervalSeconds": 1 }"#, "battery.intervalSeconds:"),
            (#"{ "gauge": "max17048", "bus": 1, "volts": 3 }"#, "battery.volts: unknown field; allowed: gauge, name, bus, address"),
        ]
        for (battery, expected) in cases {
            let found = problems(board(battery))
            #expect(found.count >= 1 && found.contains { $0.contains(expected) }, "\(battery): \(found)")
            #expect(found.allSatisfy { $0.hasPrefix("Boards/broken.json:") }, "\(found)")
        }
    }
}
