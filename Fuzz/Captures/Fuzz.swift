// libFuzzer target: `wristcore decode --btsnoop` on any file (module Decode):
// btsnoop (datalinks 1001, 1002, 2001) and Apple PacketLogger .pklg, through
// HCI events, ACL reassembly, L2CAP, ATT conversations with discovery, ANCS
// (Control Point, Data Source reassembly with pipelining and optional
// attributes), CTS and Gadgetbridge's lines on the Nordic UART, down to
// every record's text and JSON line.
//
// The input is the file itself (the seeds are real-shaped captures).
// Invariants:
// - nothing traps (index, arithmetic, timestamps at the ends of UInt64);
// - a file that is rejected is rejected at its start (offset ≤ 16); one that
//   is read keeps its packets in file order with increasing offsets;
// - records come in packet order (records about the end of the capture,
//   with no packet, last), each packet a record of the file;
// - text and JSON lines hold no control character: what the phone sent is
//   escaped, so a capture cannot end a line or drive the terminal;
// - decoding the capture as taken on the phone gives the same records with
//   every direction swapped.

import Decode

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

    let file: CaptureFile
    do {
        file = try CaptureFile.parse(bytes)
    } catch {
        guard case .capture(_, nil, let offset) = error.location else { preconditionFailure("a rejected file names no record") }
        precondition(offset <= 16, "a rejected file is rejected at its header")
        return 0
    }
    var lastOffset = -1
    for (i, p) in file.packets.enumerated() {
        precondition(p.record == i + 1 && p.fileOffset > lastOffset && p.fileOffset < bytes.count)
        lastOffset = p.fileOffset
    }

    let watch: CaptureDecoding
    let phone: CaptureDecoding
    do {
        watch = try CaptureDecoder(side: .watch).decode(bytes)
        phone = try CaptureDecoder(side: .phone).decode(bytes)
    } catch {
        preconditionFailure("parse accepted the file, decode rejected it: \(error)")
    }
    precondition(watch.format == file.format && watch.error == file.error)

    var lastPacket = 0
    var ended = false
    for r in watch.records {
        if let packet = r.packet {
            precondition(!ended, "a record of a packet after the end-of-capture records")
            precondition(packet >= lastPacket && packet <= file.packets.count, "records out of packet order")
            precondition(r.timeMicroseconds == file.packets[packet - 1].timeMicroseconds)
            lastPacket = packet
        } else {
            ended = true
        }
        check(r.textLine)
        check(r.jsonLine)
    }

    precondition(phone.records.count == watch.records.count, "the side changed the records")
    for (w, p) in zip(watch.records, phone.records) {
        var swapped = w
        swapped.direction = w.direction?.opposite
        precondition(p == swapped, "the side changed more than the directions")
    }
    return 0
}

/// One line of output: no control characters (C0, DEL, C1).
func check(_ line: String) {
    for s in line.unicodeScalars {
        precondition(s.value >= 0x20 && !(0x7F...0x9F).contains(s.value), "a raw control character in \(line)")
    }
}
