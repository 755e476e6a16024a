import Decode
import HAL
import Testing
import TextFormat

@Suite("Hex input")
struct HexBytesTests {
    @Test func parsesCommonForms() throws {
        #expect(try HexBytes.parse("00 01 0a FF") == [0, 1, 10, 255])
        #expect(try HexBytes.parse("00:01:0A") == [0, 1, 10])
        #expect(try HexBytes.parse("00010a") == [0, 1, 10])
        #expect(throws: WristCoreFailure.self) { try HexBytes.parse("0g") }
        #expect(throws: WristCoreFailure.self) { try HexBytes.parse("001") }
    }
}
