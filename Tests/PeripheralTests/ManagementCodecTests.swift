import HAL
import LinuxHAL
import Peripheral
import Testing

/// mgmt command encoding and event decoding against byte vectors written
/// from BlueZ doc/mgmt-api.txt (header: opcode, index, length; all LE).
@Suite struct ManagementCodecTests {
    let phone = BluetoothAddress("F0:99:B6:12:34:56")!

    @Test func addressPrintsMostSignificantFirstAndStoresWireOrder() {
        #expect(phone.wireBytes == [0x56, 0x34, 0x12, 0xB6, 0x99, 0xF0])
        #expect(phone.description == "F0:99:B6:12:34:56")
        #expect(BluetoothAddress("f0-99-b6-12-34-56") == phone)
        #expect(BluetoothAddress("F0:99:B6:12:34") == nil)
        #expect(BluetoothAddress("G0:99:B6:12:34:56") == nil)
    }

    @Test func settingCommands() {
        #expect(SetControllerSetting.powered(true).encoded(index: 0) == [0x05, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        #expect(SetControllerSetting.powered(false).encoded(index: 1) == [0x05, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00])
        #expect(SetControllerSetting.lowEnergy(true).encoded(index: 0) == [0x0D, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        #expect(SetControllerSetting.bredr(false).encoded(index: 0) == [0x2A, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
        #expect(SetControllerSetting.bondable(true).encoded(index: 0) == [0x09, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        #expect(SetControllerSetting.connectable(true).encoded(index: 0) == [0x07, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        #expect(SetControllerSetting.secureConnections(.on).encoded(index: 0) == [0x2D, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        #expect(SetIOCapability(.displayYesNo).encoded(index: 0) == [0x18, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        #expect(SetIOCapability(.noInputNoOutput).encodeParameters() == [0x03])
        #expect(ReadControllerInfo().encoded(index: 0) == [0x04, 0x00, 0x00, 0x00, 0x00, 0x00])
        #expect(ReadControllerIndexList().encoded(index: ManagementPacket.noIndex) == [0x03, 0x00, 0xFF, 0xFF, 0x00, 0x00])
    }

    @Test func encodedCommandSendsTheSameBytesAsTheCommandItWraps() {
        let name = SetLocalName(name: "WristCore", shortName: "Wrist")
        #expect(EncodedManagementCommand(name).encoded(index: 2) == name.encoded(index: 2))
        #expect(EncodedManagementCommand(name).opcode == name.opcode)
        let powered = EncodedManagementCommand(SetControllerSetting.powered(true))
        #expect(powered.encoded(index: 0) == [0x05, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01])
        #expect(EncodedManagementCommand(powered) == powered)
    }

    @Test func privacyAndName() {
        let irk: [UInt8] = Array(0x10...0x1F)
        #expect(SetPrivacy(enabled: true, localIRK: irk).encoded(index: 0) == [0x2F, 0x00, 0x00, 0x00, 0x11, 0x00, 0x01] + irk)
        let name = SetLocalName(name: "Watch", shortName: "W").encodeParameters()
        #expect(name.count == 260)
        #expect(Array(name[0..<6]) == Array("Watch".utf8) + [0])
        #expect(name[249] == UInt8(ascii: "W") && name[250] == 0)
    }

    @Test func loadLongTermKeys() {
        let key = LongTermKey(address: phone, addressType: .lePublic, keyType: 3, central: false, encryptionSize: 16,
                              ediv: 0x1234, rand: 0x0102030405060708, value: Array(0xA0...0xAF))
        let bytes = LoadLongTermKeys([key]).encoded(index: 0)
        #expect(Array(bytes[0..<6]) == [0x13, 0x00, 0x00, 0x00, 38, 0x00])
        #expect(Array(bytes[6..<8]) == [0x01, 0x00])
        #expect(Array(bytes[8..<14]) == phone.wireBytes)
        #expect(Array(bytes[14..<18]) == [0x01, 0x03, 0x00, 0x10])
        #expect(Array(bytes[18..<20]) == [0x34, 0x12])
        #expect(Array(bytes[20..<28]) == [0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01])
        #expect(Array(bytes[28..<44]) == Array(0xA0...0xAF))
        #expect(LoadLongTermKeys([]).encoded(index: 0) == [0x13, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00])
        #expect(key.isAuthenticated)
    }

    @Test func loadIRKs() {
        let irk = IdentityResolvingKey(address: phone, addressType: .lePublic, value: Array(0x30...0x3F))
        let bytes = LoadIdentityResolvingKeys([irk]).encoded(index: 2)
        #expect(Array(bytes[0..<6]) == [0x30, 0x00, 0x02, 0x00, 25, 0x00])
        #expect(Array(bytes[6...]) == [0x01, 0x00] + phone.wireBytes + [0x01] + Array(0x30...0x3F))
    }

    @Test func pairingCommands() {
        #expect(UserConfirmationReply(address: phone, addressType: .leRandom, accept: true).encoded(index: 0)
            == [0x1C, 0x00, 0x00, 0x00, 0x07, 0x00] + phone.wireBytes + [0x02])
        #expect(UserConfirmationReply(address: phone, addressType: .leRandom, accept: false).encoded(index: 0)
            == [0x1D, 0x00, 0x00, 0x00, 0x07, 0x00] + phone.wireBytes + [0x02])
        #expect(UnpairDevice(address: phone, addressType: .lePublic).encoded(index: 0)
            == [0x1B, 0x00, 0x00, 0x00, 0x08, 0x00] + phone.wireBytes + [0x01, 0x01])
    }

    @Test func advertisingCommands() {
        let add = AddAdvertising(instance: 1, flags: .connectable, advertisingData: [0x02, 0x01, 0x06], scanResponse: [0x02, 0x09, 0x41])
        #expect(add.encoded(index: 0) == [0x3E, 0x00, 0x00, 0x00, 17, 0x00,
                                           0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x03,
                                           0x02, 0x01, 0x06, 0x02, 0x09, 0x41])
        #expect(RemoveAdvertising(instance: 0).encoded(index: 0) == [0x3F, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00])
    }

    func decode(_ bytes: [UInt8]) -> (index: UInt16, event: ManagementEvent)? {
        bytes.withUnsafeBytes { ManagementEvent.decode(packet: $0) }
    }

    @Test func commandCompleteAndStatus() {
        let complete = decode([0x01, 0x00, 0x00, 0x00, 0x07, 0x00, 0x05, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00])
        #expect(complete?.index == 0)
        #expect(complete?.event == .commandComplete(opcode: 0x0005, status: 0, returnParameters: [0x01, 0x02, 0x00, 0x00]))
        let settings = [UInt8]([0x01, 0x02, 0x00, 0x00]).withUnsafeBytes { SetControllerSetting.decodeReply($0) }
        #expect(settings == [.powered, .lowEnergy])
        #expect(decode([0x02, 0x00, 0x01, 0x00, 0x03, 0x00, 0x2A, 0x00, 0x0A])?.event == .commandStatus(opcode: 0x002A, status: 0x0A))
        #expect(ManagementStatus(rawValue: 0x0A) == .busy)
    }

    @Test func connectionEvents() {
        let connected = decode([0x0B, 0x00, 0x00, 0x00, 0x0F, 0x00] + phone.wireBytes + [0x02, 0, 0, 0, 0, 0x02, 0x00, 0x01, 0x06])
        #expect(connected?.event == .deviceConnected(address: phone, addressType: .leRandom, flags: 0, eir: [0x01, 0x06]))
        let disconnected = decode([0x0C, 0x00, 0x00, 0x00, 0x08, 0x00] + phone.wireBytes + [0x01, 0x03])
        #expect(disconnected?.event == .deviceDisconnected(address: phone, addressType: .lePublic, reason: .remoteHost))
        #expect(decode([0x0C, 0x00, 0x00, 0x00, 0x08, 0x00] + phone.wireBytes + [0x01, 0x04])?.event
            == .deviceDisconnected(address: phone, addressType: .lePublic, reason: .authenticationFailure))
        let failed = decode([0x11, 0x00, 0x00, 0x00, 0x08, 0x00] + phone.wireBytes + [0x01, 0x06])
        #expect(failed?.event == .authenticationFailed(address: phone, addressType: .lePublic, status: 0x06))
    }

    @Test func pairingEvents() {
        // 123456 = 0x0001E240
        let confirm = decode([0x0F, 0x00, 0x00, 0x00, 0x0C, 0x00] + phone.wireBytes + [0x01, 0x00, 0x40, 0xE2, 0x01, 0x00])
        #expect(confirm?.event == .userConfirmationRequest(address: phone, addressType: .lePublic, confirmHint: 0, value: 123456))

        var ltk: [UInt8] = [0x01] + phone.wireBytes + [0x01, 0x03, 0x00, 0x10, 0x00, 0x00]
        ltk += [UInt8](repeating: 0, count: 8) + Array(0xA0...0xAF)
        let newKey = decode([0x0A, 0x00, 0x00, 0x00, 37, 0x00] + ltk)
        let expected = LongTermKey(address: phone, addressType: .lePublic, keyType: 3, central: false, encryptionSize: 16,
                                   ediv: 0, rand: 0, value: Array(0xA0...0xAF))
        #expect(newKey?.event == .newLongTermKey(storeHint: true, key: expected))

        let rpa = BluetoothAddress("5A:11:22:33:44:55")!
        let irk = decode([0x18, 0x00, 0x00, 0x00, 30, 0x00, 0x01] + rpa.wireBytes + phone.wireBytes + [0x01] + Array(0x30...0x3F))
        #expect(irk?.event == .newIdentityResolvingKey(
            storeHint: true, randomAddress: rpa,
            key: IdentityResolvingKey(address: phone, addressType: .lePublic, value: Array(0x30...0x3F))))
    }

    @Test func malformedEventsAreRejected() {
        #expect(decode([0x01, 0x00]) == nil)  // shorter than a header
        #expect(decode([0x01, 0x00, 0x00, 0x00, 0x05, 0x00, 0x05]) == nil)  // length says more
        #expect(decode([0x0F, 0x00, 0x00, 0x00, 0x03, 0x00, 1, 2, 3]) == nil)  // truncated confirm request
        #expect(decode([0x0A, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01]) == nil)
        #expect(decode([0x0C, 0x00, 0x00, 0x00, 0x07, 0x00] + phone.wireBytes + [0x09]) == nil)  // bad address type
        #expect(decode([0x99, 0x00, 0x00, 0x00, 0x00, 0x00])?.event == .other(code: 0x99))
    }

    @Test func controllerInfoRoundTrip() {
        let info = ControllerInfo(address: phone, version: 9, manufacturer: 0x05F1,
                                  supportedSettings: [.powered, .lowEnergy, .bredr, .secureConnections, .privacy],
                                  currentSettings: [.lowEnergy], name: "WristCore", shortName: "WC")
        let bytes = info.encode()
        #expect(bytes.count == 280)
        #expect(Array(bytes[0..<13]) == phone.wireBytes + [9, 0xF1, 0x05, 0x81, 0x2A, 0x00, 0x00])
        #expect(bytes.withUnsafeBytes { ControllerInfo.decode($0) } == info)
        #expect(info.supportsLowEnergy)
        #expect([UInt8](repeating: 0, count: 279).withUnsafeBytes { ControllerInfo.decode($0) } == nil)
    }
}
