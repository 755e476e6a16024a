// libFuzzer target for the ATT PDU decoder (the ATTCodec module). The
// Current Time values have their own target, CTSValues.
//
// Input: byte 0 picks the ATT_MTU (23...517), the rest is one PDU.
// Invariants:
// - decoding never traps; a PDU longer than the MTU is rejected as exceedsMTU;
// - every list entry of a decoded response can be read;
// - re-encoding a decoded PDU gives a PDU no longer than the input, that
//   decodes to a PDU with the same opcode and re-encodes to itself (a fixed
//   point; 128-bit forms of 16-bit UUIDs legitimately shrink to 2 bytes);
// - when no UUID can shrink, re-encoding gives back the input exactly.

import ATTCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 1 else { return 0 }
    let mtu = 23 + Int(data[0]) * 2  // 23 ... 533: also exercises MTUs above 517
    let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)

    if input.count == 2 || input.count == 4 || input.count == 16 { _ = BluetoothUUID(littleEndian: input) }

    let first: [UInt8]
    do {
        let pdu = try ATTPDU.decode(input, mtu: mtu)
        precondition(input.count <= mtu)
        touchEntries(pdu)
        guard let bytes = reencode(pdu, mtu: mtu) else { return 0 }
        first = bytes
    } catch {
        switch error {
        case .exceedsMTU(let length, let m): precondition(length == input.count && m == mtu && length > mtu)
        case .empty: precondition(input.isEmpty)
        case .truncated(let op, _, let actual), .wrongLength(let op, _, let actual):
            precondition(op == input[0] && actual == input.count)
        case .invalidField(let op, _): precondition(op == input[0])
        }
        return 0
    }
    precondition(first.count <= input.count, "re-encoding grew the PDU")
    precondition(first[0] == input[0], "re-encoding changed the opcode")
    let second: [UInt8]? = first.withUnsafeBytes { buf in
        guard let again = try? ATTPDU.decode(buf, mtu: mtu) else {
            preconditionFailure("a re-encoded PDU does not decode")
        }
        return reencode(again, mtu: mtu)
    }
    precondition(second == first, "re-encoding is not a fixed point")
    if first.count == input.count {
        precondition(first.elementsEqual(input), "same length but different bytes")
    }
    return 0
}

private func touchEntries(_ pdu: ATTPDU) {
    var sum = 0
    switch pdu {
    case .findInformationResponse(let r):
        for i in 0..<r.count { sum &+= Int(r[i].handle) &+ r[i].type.hashValue }
    case .findByTypeValueResponse(let r):
        for i in 0..<r.count { sum &+= Int(r[i].start) &+ Int(r[i].end) }
    case .readByTypeResponse(let r):
        for i in 0..<r.count { sum &+= Int(r[i].handle) &+ r[i].value.count }
    case .readByGroupTypeResponse(let r):
        for i in 0..<r.count { sum &+= Int(r[i].range.start) &+ r[i].value.count }
    case .readMultipleRequest(let r):
        for i in 0..<r.count { sum &+= Int(r[i]) }
    default: break
    }
    precondition(sum != Int.min)
}

private func reencode(_ pdu: ATTPDU, mtu: Int) -> [UInt8]? {
    do {
        switch pdu {
        case .errorResponse(let x): return try x.encoded(mtu: mtu)
        case .exchangeMTURequest(let x): return try x.encoded(mtu: mtu)
        case .exchangeMTUResponse(let x): return try x.encoded(mtu: mtu)
        case .findInformationRequest(let x): return try x.encoded(mtu: mtu)
        case .findInformationResponse(let x): return try x.encoded(mtu: mtu)
        case .findByTypeValueRequest(let x): return try x.encoded(mtu: mtu)
        case .findByTypeValueResponse(let x): return try x.encoded(mtu: mtu)
        case .readByTypeRequest(let x): return try x.encoded(mtu: mtu)
        case .readByTypeResponse(let x): return try x.encoded(mtu: mtu)
        case .readRequest(let x): return try x.encoded(mtu: mtu)
        case .readResponse(let x): return try x.encoded(mtu: mtu)
        case .readBlobRequest(let x): return try x.encoded(mtu: mtu)
        case .readBlobResponse(let x): return try x.encoded(mtu: mtu)
        case .readMultipleRequest(let x): return try x.encoded(mtu: mtu)
        case .readMultipleResponse(let x): return try x.encoded(mtu: mtu)
        case .readByGroupTypeRequest(let x): return try x.encoded(mtu: mtu)
        case .readByGroupTypeResponse(let x): return try x.encoded(mtu: mtu)
        case .writeRequest(let x): return try x.encoded(mtu: mtu)
        case .writeResponse(let x): return try x.encoded(mtu: mtu)
        case .writeCommand(let x): return try x.encoded(mtu: mtu)
        case .signedWriteCommand(let x): return try x.encoded(mtu: mtu)
        case .prepareWriteRequest(let x): return try x.encoded(mtu: mtu)
        case .prepareWriteResponse(let x): return try x.encoded(mtu: mtu)
        case .executeWriteRequest(let x): return try x.encoded(mtu: mtu)
        case .executeWriteResponse(let x): return try x.encoded(mtu: mtu)
        case .handleValueNotification(let x): return try x.encoded(mtu: mtu)
        case .handleValueIndication(let x): return try x.encoded(mtu: mtu)
        case .handleValueConfirmation(let x): return try x.encoded(mtu: mtu)
        case .other: return nil
        }
    } catch {
        preconditionFailure("a decoded PDU does not re-encode: \(error)")
    }
}
