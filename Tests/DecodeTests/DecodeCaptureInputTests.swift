import Decode
import HAL
import Testing

@testable import Decode

/// Capture bytes that must give a record or an error, never a trap
/// (issue 14 item 10), and echoed text that must not reach the terminal raw.
@Suite("Decode: hostile capture input")
struct DecodeCaptureInputTests {
    static let t = TestCapture.start

    static func events(_ events: [[UInt8]]) -> [UInt8] {
        var w = BtsnoopWriter(.monitor)
        for e in events { w.hci(h4Type: 4, sent: false, unixMicroseconds: t, e) }
        return w.bytes
    }

    static let address: [UInt8] = [0x66, 0x55, 0x44, 0x33, 0x22, 0x11]

    @Test("LE Connection Complete with 11 parameter bytes: a MALFORMED line, not SIGILL")
    func shortConnectionComplete() throws {
        // Subevent, status, handle, role, peer type and 5 of the 6 address bytes.
        let short = HCIFrames.event(0x3E, [0x01, 0x00, 0x40, 0x00, 0x01, 0x00] + Array(Self.address[..<5]))
        let d = try CaptureDecoder().decode(Self.events([short]))
        #expect(d.records.map(\.textLine) == [
            "#1 18:30:05.000000 MALFORMED HCI LE Connection Complete: 11 parameter bytes, the event has 19",
        ])
    }

    @Test("every event shown is read only as far as its parameters go", arguments: 0...31)
    func everyLength(parameters: Int) throws {
        let full: [[UInt8]] = [
            HCIFrames.event(0x05, [0x00, 0x40, 0x00, 0x13]),
            HCIFrames.event(0x08, [0x00, 0x40, 0x00, 0x01]),
            HCIFrames.event(0x3E, [0x01, 0x00, 0x40, 0x00, 0x01, 0x00] + Self.address + [0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]),
            HCIFrames.event(0x3E, [0x0A, 0x00, 0x40, 0x00, 0x01, 0x00] + Self.address + [UInt8](repeating: 0, count: 12) + [0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00]),
        ]
        for event in full {
            let n = event.count - 2
            // The length byte agrees with the bytes, but there are fewer of them...
            let cut = [event[0], UInt8(min(parameters, n))] + Array(event[2..<(2 + min(parameters, n))])
            // ...or the length byte says more than there is.
            let lying = [event[0], event[1]] + Array(event[2..<(2 + min(parameters, n))])
            let d = try CaptureDecoder().decode(Self.events([cut, lying]))
            for r in d.records { _ = (r.textLine, r.jsonLine) }
            if parameters >= n {
                #expect(d.records.first?.layer == .hci)
            } else if parameters > 0 || event[0] != 0x3E {
                #expect(d.records.first?.layer == .malformed, "\(cut)")
            }
        }
    }

    @Test("LE Enhanced Connection Complete (31 parameter bytes) is shown")
    func enhanced() throws {
        let e = HCIFrames.event(0x3E, [0x0A, 0x00, 0x40, 0x00, 0x01, 0x00] + Self.address + [UInt8](repeating: 0, count: 12) + [0x18, 0x00, 0x00, 0x00, 0x48, 0x00, 0x00])
        let d = try CaptureDecoder().decode(Self.events([e]))
        #expect(d.records.map(\.summary) == ["LE Connection Complete handle 0x0040, status 0x00, local role peripheral, peer 11:22:33:44:55:66"])
    }

    @Test("btsnoop timestamps at the ends of UInt64 (Int64.min's bit pattern included) print, in order")
    func extremeTimestamps() throws {
        var w = BtsnoopWriter(.monitor)
        let pdu = HCIFrames.acl(handle: 0x40, start: true, HCIFrames.l2cap(cid: 4, [0x02, 0xB9, 0x00]))
        let times: [UInt64] = [0, 1, UInt64(DecodeTime.btsnoopEpochOffset), 1 << 63 - 1, 1 << 63, 1 << 63 + 1, .max - 1, .max]
        for ts in times { w.record(flags: 4, btsnoopTime: ts, pdu) }
        let d = try CaptureDecoder().decode(w.bytes)
        #expect(d.records.count == times.count)
        let us = d.records.map { $0.timeMicroseconds! }
        #expect(us == us.sorted(), "a later timestamp never prints as an earlier time")
        #expect(d.records[0].textLine == "#1 00:00:00.000000 watch→phone ATT Exchange MTU Request: client Rx MTU 185")
        #expect(d.records[2].jsonLine.contains(#""time":"1970-01-01T00:00:00.000000Z""#))
        #expect(d.records[7].jsonLine.contains(#""time":"294247-01-10T04:00:54.775807Z""#))
        for r in d.records { _ = (r.textLine, r.jsonLine) }
    }

    @Test("PacketLogger records with the largest seconds and microseconds")
    func packetLoggerTimes() throws {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(truncatingIfNeeded: v >> 16), UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
        let data = HCIFrames.acl(handle: 0x40, start: true, HCIFrames.l2cap(cid: 4, [0x02, 0xB9, 0x00]))
        let d = try CaptureDecoder().decode(be(UInt32(9 + data.count)) + be(.max) + be(.max) + [0x02] + data)
        #expect(d.records.map(\.textLine) == ["#1 06:28:15.967295 watch→phone ATT Exchange MTU Request: client Rx MTU 185"])
        #expect(d.records[0].jsonLine.contains(#""time":"2106-02-07T06:28:15.967295Z""#))
    }

    @Test("echoed text: control characters escaped, C1 controls too")
    func escaping() throws {
        #expect(QuotedText.escaped("watch\u{1b}[31m.btsnoop\n\0\t\u{9b}x\"") == #"watch\u{1b}[31m.btsnoop\n\u{0}\t\u{9b}x""#)
        #expect(QuotedText.show(Array("a\u{7f}\"".utf8)) == #""a\u{7f}\"""#)
        var json = ""
        DecodeValue.string("a\u{1b}\u{85}\u{9f}\u{a0}").writeJSON(to: &json)
        #expect(json == #""a\u001b\u0085\u009f\#u{a0}""#)
        do {
            _ = try HexBytes.parse("00 \u{1b}[2J")
            Issue.record("no error")
        } catch {
            #expect(error.message == #"'\u{1b}' at character 3 is not a hex digit"#)
        }
        do {
            _ = try HexBytes.parse("0é")
            Issue.record("no error")
        } catch {
            #expect(error.message == "'é' at character 1 is not a hex digit")
        }
    }
}
