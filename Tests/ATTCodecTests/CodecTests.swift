import ATTCodec
import Testing

@Suite("ATT codec")
struct CodecTests {
    /// Decodes then re-encodes every kind of PDU; the bytes must survive unchanged.
    @Test(arguments: [
        pdu(0x01, 0x12, 0x2A, 0x00, 0x05),  // error response
        pdu(0x02, 0x05, 0x02),  // exchange MTU request 517
        pdu(0x03, 0xB9, 0x00),  // exchange MTU response 185
        pdu(0x04, 0x01, 0x00, 0xFF, 0xFF),
        pdu(0x05, 0x01, 0x0A, 0x00, 0x02, 0x29, 0x0B, 0x00, 0x01, 0x29),
        pdu(0x05, 0x02, 0x10, 0x00) + BluetoothUUID.ancsControlPoint.littleEndianBytes,
        pdu(0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28, 0x05, 0x18),
        pdu(0x07, 0x30, 0x00, 0x39, 0x00, 0x40, 0x00, 0x44, 0x00),
        pdu(0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28),
        pdu(0x08, 0x01, 0x00, 0xFF, 0xFF) + BluetoothUUID.ancsService.littleEndianBytes,
        pdu(0x09, 0x07, 0x02, 0x00, 0x02, 0x03, 0x00, 0x00, 0x2A, 0x04, 0x00, 0x02, 0x05, 0x00, 0x01, 0x2A),
        pdu(0x0A, 0x03, 0x00),
        pdu(0x0B, 0x69, 0x50, 0x68, 0x6F, 0x6E, 0x65),
        pdu(0x0B),
        pdu(0x0C, 0x03, 0x00, 0x16, 0x00),
        pdu(0x0D, 0x41, 0x42),
        pdu(0x0E, 0x03, 0x00, 0x05, 0x00),
        pdu(0x0F, 0x01, 0x02, 0x03),
        pdu(0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00, 0x28),
        pdu(0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18, 0x06, 0x00, 0x09, 0x00, 0x01, 0x18),
        pdu(0x12, 0x33, 0x00, 0x01, 0x00),
        pdu(0x13),
        pdu(0x52, 0x33, 0x00, 0xAA),
        pdu(0xD2, 0x33, 0x00, 0xAA, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
        pdu(0x16, 0x33, 0x00, 0x00, 0x00, 0x01),
        pdu(0x17, 0x33, 0x00, 0x00, 0x00, 0x01),
        pdu(0x18, 0x01),
        pdu(0x19),
        pdu(0x1B, 0x30, 0x00, 0x00, 0x18, 0x04, 0x01, 0x01, 0x00, 0x00, 0x00),
        pdu(0x1D, 0x08, 0x00, 0x30, 0x00, 0x40, 0x00),
        pdu(0x1E),
    ])
    func roundTrip(_ bytes: [UInt8]) throws {
        let reencoded: [UInt8] = try ATTPDU.decode(bytes) { p in
            #expect(p.opcode == bytes[0])
            switch p {
            case .errorResponse(let x): return try x.encoded()
            case .exchangeMTURequest(let x): return try x.encoded()
            case .exchangeMTUResponse(let x): return try x.encoded()
            case .findInformationRequest(let x): return try x.encoded()
            case .findInformationResponse(let x): return try x.encoded()
            case .findByTypeValueRequest(let x): return try x.encoded()
            case .findByTypeValueResponse(let x): return try x.encoded()
            case .readByTypeRequest(let x): return try x.encoded()
            case .readByTypeResponse(let x): return try x.encoded()
            case .readRequest(let x): return try x.encoded()
            case .readResponse(let x): return try x.encoded()
            case .readBlobRequest(let x): return try x.encoded()
            case .readBlobResponse(let x): return try x.encoded()
            case .readMultipleRequest(let x): return try x.encoded()
            case .readMultipleResponse(let x): return try x.encoded()
            case .readByGroupTypeRequest(let x): return try x.encoded()
            case .readByGroupTypeResponse(let x): return try x.encoded()
            case .writeRequest(let x): return try x.encoded()
            case .writeResponse(let x): return try x.encoded()
            case .writeCommand(let x): return try x.encoded()
            case .signedWriteCommand(let x): return try x.encoded()
            case .prepareWriteRequest(let x): return try x.encoded()
            case .prepareWriteResponse(let x): return try x.encoded()
            case .executeWriteRequest(let x): return try x.encoded()
            case .executeWriteResponse(let x): return try x.encoded()
            case .handleValueNotification(let x): return try x.encoded()
            case .handleValueIndication(let x): return try x.encoded()
            case .handleValueConfirmation(let x): return try x.encoded()
            case .other: return []
            }
        }
        #expect(hex(reencoded) == hex(bytes))
    }

    @Test func decodedFieldsMatchTheSpecificationLayout() throws {
        try ATTPDU.decode(pdu(0x01, 0x12, 0x2A, 0x00, 0x05)) { p in
            guard case .errorResponse(let e) = p else { Issue.record("not an error response"); return }
            #expect(e.requestOpcode == 0x12)
            #expect(e.handle == 0x002A)
            #expect(e.error == .insufficientAuthentication)
        }
        try ATTPDU.decode(pdu(0x11, 0x06, 0x01, 0x00, 0x05, 0x00, 0x00, 0x18, 0x06, 0x00, 0x09, 0x00, 0x01, 0x18)) { p in
            guard case .readByGroupTypeResponse(let r) = p else { Issue.record("wrong type"); return }
            #expect(r.count == 2)
            #expect(r[1].range == ATTHandleRange(start: 6, end: 9))
            #expect(BluetoothUUID(littleEndian: r[1].value) == .genericAttribute)
        }
        let fi = pdu(0x05, 0x02, 0x10, 0x00) + BluetoothUUID.ancsControlPoint.littleEndianBytes
        try ATTPDU.decode(fi) { p in
            guard case .findInformationResponse(let r) = p else { Issue.record("wrong type"); return }
            #expect(r.format == .uuid128)
            #expect(r[0].handle == 0x10)
            #expect(r[0].type == .ancsControlPoint)
        }
        try ATTPDU.decode(pdu(0xD2, 0x33, 0x00, 0xAA, 0xBB, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)) { p in
            guard case .signedWriteCommand(let c) = p else { Issue.record("wrong type"); return }
            #expect(Array(c.value) == [0xAA, 0xBB])
            #expect(c.signature.count == 12)
        }
    }

    @Test(arguments: [
        (pdu(0x01, 0x12, 0x2A, 0x00), ATTPDUError.wrongLength(opcode: 0x01, expectedLength: 5, actualLength: 4)),
        (pdu(0x01, 0x12, 0x2A, 0x00, 0x05, 0x00), .wrongLength(opcode: 0x01, expectedLength: 5, actualLength: 6)),
        (pdu(0x02, 0x17), .wrongLength(opcode: 0x02, expectedLength: 3, actualLength: 2)),
        (pdu(0x04, 0x01, 0x00, 0xFF), .wrongLength(opcode: 0x04, expectedLength: 5, actualLength: 4)),
        (pdu(0x05, 0x03, 0x01, 0x00, 0x00, 0x28), .invalidField(opcode: 0x05, field: .format)),
        (pdu(0x05, 0x01, 0x01, 0x00, 0x00), .invalidField(opcode: 0x05, field: .listLength)),
        (pdu(0x05, 0x01), .invalidField(opcode: 0x05, field: .listLength)),
        (pdu(0x05), .truncated(opcode: 0x05, minimumLength: 2, actualLength: 1)),
        (pdu(0x06, 0x01, 0x00, 0xFF, 0xFF, 0x00), .truncated(opcode: 0x06, minimumLength: 7, actualLength: 6)),
        (pdu(0x07), .invalidField(opcode: 0x07, field: .listLength)),
        (pdu(0x07, 0x01, 0x00, 0x05), .invalidField(opcode: 0x07, field: .listLength)),
        (pdu(0x08, 0x01, 0x00, 0xFF, 0xFF, 0x03, 0x28, 0x00), .invalidField(opcode: 0x08, field: .uuidLength)),
        (pdu(0x09, 0x01, 0x00), .invalidField(opcode: 0x09, field: .elementLength)),
        (pdu(0x09, 0x04, 0x01, 0x00, 0x00), .invalidField(opcode: 0x09, field: .listLength)),
        (pdu(0x0A, 0x01), .wrongLength(opcode: 0x0A, expectedLength: 3, actualLength: 2)),
        (pdu(0x0C, 0x01, 0x00, 0x00), .wrongLength(opcode: 0x0C, expectedLength: 5, actualLength: 4)),
        (pdu(0x0E, 0x01, 0x00), .truncated(opcode: 0x0E, minimumLength: 5, actualLength: 3)),
        (pdu(0x0E, 0x01, 0x00, 0x02, 0x00, 0x03), .invalidField(opcode: 0x0E, field: .listLength)),
        (pdu(0x10, 0x01, 0x00, 0xFF, 0xFF, 0x00), .truncated(opcode: 0x10, minimumLength: 7, actualLength: 6)),
        (pdu(0x11, 0x03, 0x01, 0x00, 0x05), .invalidField(opcode: 0x11, field: .elementLength)),
        (pdu(0x12, 0x01), .truncated(opcode: 0x12, minimumLength: 3, actualLength: 2)),
        (pdu(0x13, 0x00), .wrongLength(opcode: 0x13, expectedLength: 1, actualLength: 2)),
        (pdu(0xD2, 0x01, 0x00, 1, 2, 3), .truncated(opcode: 0xD2, minimumLength: 15, actualLength: 6)),
        (pdu(0x16, 0x01, 0x00, 0x00), .truncated(opcode: 0x16, minimumLength: 5, actualLength: 4)),
        (pdu(0x18, 0x02), .invalidField(opcode: 0x18, field: .flags)),
        (pdu(0x1B, 0x30), .truncated(opcode: 0x1B, minimumLength: 3, actualLength: 2)),
        (pdu(0x1D), .truncated(opcode: 0x1D, minimumLength: 3, actualLength: 1)),
        (pdu(0x1E, 0x00), .wrongLength(opcode: 0x1E, expectedLength: 1, actualLength: 2)),
        ([], .empty),
    ])
    func malformedPDUsAreTypedErrors(_ bytes: [UInt8], _ expected: ATTPDUError) {
        #expect(throws: expected) { try ATTPDU.decode(bytes) { _ in () } }
    }

    @Test func pduLongerThanMTUIsRejected() {
        let long = pdu(0x1B, 0x30, 0x00) + [UInt8](repeating: 0x41, count: 21)  // 24 bytes
        #expect(throws: ATTPDUError.exceedsMTU(length: 24, mtu: 23)) { try ATTPDU.decode(long, mtu: 23) { _ in () } }
        #expect(throws: Never.self) { try ATTPDU.decode(long, mtu: 24) { _ in () } }
        // Encoding refuses too.
        let value = [UInt8](repeating: 0, count: 21)
        value.withUnsafeBytes { v in
            _ = #expect(throws: ATTPDUError.exceedsMTU(length: 24, mtu: 23)) {
                _ = try ATTHandleValueNotification(handle: 1, value: v).encoded(mtu: 23)
            }
        }
    }

    @Test func unknownOpcodesDecodeAsOtherWithTheirKind() throws {
        try ATTPDU.decode(pdu(0x30, 1, 2)) { p in
            guard case .other(let op, let params) = p else { Issue.record("not other"); return }
            #expect(op == 0x30)
            #expect(Array(params) == [1, 2])
        }
        #expect(ATTOpcode.kind(ofRaw: 0x30) == .request)
        #expect(ATTOpcode.kind(ofRaw: 0x7F) == .command)
        #expect(ATTOpcode.kind(ofRaw: 0x1B) == .notification)
        #expect(ATTOpcode.readByTypeRequest.responseOpcode == .readByTypeResponse)
        #expect(ATTOpcode.writeCommand.kind == .command)
        #expect(ATTOpcode.signedWriteCommand.kind == .command)
    }

    @Test func everyErrorCodeIsNamed() {
        for raw in UInt8(0x01)...0x13 {
            let name = ATTErrorCode(raw).name
            #expect(name != "Reserved", "0x\(String(raw, radix: 16))")
        }
        #expect(ATTErrorCode.insufficientEncryption.description == "Insufficient Encryption (0x0F)")
        #expect(ATTErrorCode(0xA2).name == "ANCS Invalid Parameter")
        #expect(ATTErrorCode(0x85).isApplicationError)
        #expect(ATTErrorCode(0x14).name == "Reserved")
        #expect(ATTErrorCode.insufficientAuthentication.isSecurityError)
    }

    @Test func uuids() {
        let ancs = BluetoothUUID.ancsService
        #expect(ancs.description == "7905F431-B5CE-4E99-A40F-4B1E122D00D0")
        #expect(ancs.uuid16 == nil)
        #expect(ancs.littleEndianBytes.count == 16)
        #expect(ancs.littleEndianBytes.first == 0xD0)
        #expect(ancs.littleEndianBytes.last == 0x79)
        #expect(BluetoothUUID(littleEndian: ancs.littleEndianBytes) == ancs)
        #expect(BluetoothUUID("2A2B") == .currentTime)
        #expect(BluetoothUUID("00002A2B-0000-1000-8000-00805F9B34FB") == .currentTime)
        #expect(BluetoothUUID.currentTime.littleEndianBytes == [0x2B, 0x2A])
        #expect(BluetoothUUID(littleEndian: [0x2B, 0x2A, 0x00, 0x00]) == .currentTime)
        #expect(BluetoothUUID(uuid32: 0x1234_5678).encodedLength == 16)
        #expect(BluetoothUUID("not a uuid") == nil)
        #expect(BluetoothUUID(littleEndian: [1, 2, 3]) == nil)
    }
}
