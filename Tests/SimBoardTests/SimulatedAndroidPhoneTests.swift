import BoardConfig
import HAL
import Loop
import PhoneServices
import Testing

@testable import SimBoard

/// The simulated Gadgetbridge phone on its own: how it writes text, and how
/// it starts (by the UART's UUID, not by a handle).
@Suite("Simulated Android phone")
struct SimulatedAndroidPhoneTests {
    static func latin1(_ text: String) -> [UInt8] {
        var line: [UInt8] = []
        SimulatedAndroidPhone.appendLatin1(text, to: &line)
        return line
    }

    @Test("text goes on the UART as Gadgetbridge writes it (the examples worked from its jsonToStringInternal)")
    func gadgetbridgeText() {
        #expect(Self.latin1("René") == Array(#"Ren\xe9"#.utf8))
        #expect(Self.latin1("Здравствуй") == Array(#"\u0417\u0434\u0440\u0430\u0432\u0441\u0442\u0432\u0443\u0439"#.utf8))
        #expect(Self.latin1("Grüße °C") == Array("Gr".utf8) + [0xFC] + Array(#"\xdfe "#.utf8) + [0xB0] + Array("C".utf8))
        #expect(Self.latin1("🍝") == Array(#"\ud83c\udf5d"#.utf8), "an emoji is a surrogate pair")
        #expect(Self.latin1(#"{"t":"find","n":true}"#) == Array(#"{"t":"find","n":true}"#.utf8))
    }

    @Test("with an Android script the built-in phone is Gadgetbridge's, and looks the UART up by its UUID")
    func builtInAndroidPhone() throws {
        let sockets = MemorySockets()
        let devices = SimulatedBoardDevices(
            board: BoardLoader.builtInSimulated, loop: ManualLoop(), sockets: sockets, logger: SimulatedBoardDevicesTests.logger,
            options: .init(androidScript: [.message(#"{"t":"find","n":true}"#)]))
        let events = SimulatedBoardDevicesTests.Events()
        try devices.startPhoneLink(events.handlers)
        #expect(events.log == ["connected"])
        let (watchEnd, phoneEnd) = try #require(sockets.pairs.first)
        #expect(phoneEnd.name == "simulated Android phone")
        #expect(devices.builtInAndroidPhone != nil && devices.builtInPhone == nil)
        // Find By Type Value: primary services (0x2800) whose UUID is the Nordic UART's.
        let first = try #require(watchEnd.inbox.first)
        #expect(first.prefix(7) == [0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28])
        #expect(Array(first.dropFirst(7)) == GadgetbridgeSession.uartService.littleEndianBytes)
        #expect(devices.builtInAndroidPhone?.log == ["connected"])
    }
}
