import LinuxHAL
import Peripheral
import Testing
@testable import Peripheral

@Suite struct AdvertisingTests {
    @Test func advertisingDataBytes() {
        let p = AdvertisingPayload(name: "WristCore")
        #expect(p.advertisingData == [
            0x02, 0x01, 0x06,
            0x11, 0x15, 0xD0, 0x00, 0x2D, 0x12, 0x1E, 0x4B, 0x0F, 0xA4, 0x99, 0x4E, 0xCE, 0xB5, 0x31, 0xF4, 0x05, 0x79,
            0x03, 0x19, 0xC0, 0x00,
        ])
        #expect(p.advertisingData.count <= 31)
        #expect(p.scanResponse == [0x0A, 0x09] + Array("WristCore".utf8))
        let cmd = p.command
        #expect(cmd.instance == 1 && cmd.flags == .connectable && cmd.duration == 0 && cmd.timeout == 0)
    }

    @Test func ancsUUIDMatchesTheSpecString() {
        let text = "7905F431-B5CE-4E99-A40F-4B1E122D00D0".replacing("-", with: "")
        var bigEndian: [UInt8] = []
        var i = text.startIndex
        while i < text.endIndex {
            let j = text.index(i, offsetBy: 2)
            bigEndian.append(UInt8(text[i..<j], radix: 16)!)
            i = j
        }
        #expect(AdvertisingPayload.ancsServiceUUID == bigEndian.reversed())
    }

    @Test func longNamesAreShortenedOnACharacterBoundary() {
        let p = AdvertisingPayload(name: String(repeating: "a", count: 27) + "é" + "xyz")
        #expect(p.scanResponse.count == 31)
        #expect(p.scanResponse[1] == 0x08)  // Shortened Local Name
        #expect(Array(p.scanResponse[2...]) == Array((String(repeating: "a", count: 27) + "é").utf8))
        let q = AdvertisingPayload(name: String(repeating: "b", count: 28) + "€")  // 3-byte char crossing byte 29
        #expect(q.scanResponse == [29, 0x08] + Array(String(repeating: "b", count: 28).utf8))
    }
}
