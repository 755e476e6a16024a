import Gadgetbridge
import Testing

/// Feeds `writes` to an assembler and collects the lines (as text) and the overlong count.
func lines(_ writes: [[UInt8]], capacity: Int = 2048) -> (lines: [String], overlong: Int) {
    let assembler = LineAssembler(capacity: capacity)
    var out: [String] = []
    var overlong = 0
    for w in writes {
        w.withUnsafeBytes { bytes in
            assembler.append(bytes, line: { out.append(String(decoding: $0, as: UTF8.self)) }, overlong: { overlong += 1 })
        }
    }
    #expect(assembler.overlongLines == overlong)
    return (out, overlong)
}

@Suite struct LineAssemblerTests {
    static let stream = Array("\u{10}GB({\"t\":\"notify\",\"id\":1})\n\u{10}GB({\"t\":\"notify-\",\"id\":1})\n".utf8)

    @Test func splitAtEveryByteTheLinesComeOutWhole() {
        let whole = lines([Self.stream]).lines
        #expect(whole == ["\u{10}GB({\"t\":\"notify\",\"id\":1})", "\u{10}GB({\"t\":\"notify-\",\"id\":1})"])
        for cut in 1..<Self.stream.count {
            #expect(lines([Array(Self.stream[..<cut]), Array(Self.stream[cut...])]).lines == whole, "cut at \(cut)")
        }
        #expect(lines(Self.stream.map { [$0] }).lines == whole, "one byte per write")
    }

    @Test func anOverlongLineIsDroppedWholeAndTheNextIsKept() {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 40)
        let (out, overlong) = lines([Array("ok\n".utf8), long, long, Array("\nnext\n".utf8)], capacity: 32)
        #expect(out == ["ok", "next"])
        #expect(overlong == 1)
    }

    @Test func aLineOfExactlyTheCapacityIsKept() {
        let text = String(repeating: "y", count: 32)
        #expect(lines([Array((text + "\n").utf8)], capacity: 32).lines == [text])
    }

    @Test func resetForgetsAHalfLine() {
        let assembler = LineAssembler()
        var out: [String] = []
        Array("half".utf8).withUnsafeBytes { assembler.append($0, line: { out.append(String(decoding: $0, as: UTF8.self)) }) }
        #expect(assembler.pendingCount == 4)
        assembler.reset()
        Array("whole\n".utf8).withUnsafeBytes { assembler.append($0, line: { out.append(String(decoding: $0, as: UTF8.self)) }) }
        #expect(out == ["whole"])
    }
}

@Suite struct GadgetbridgeLineTests {
    func classify(_ text: String) -> String {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { line in
            switch GadgetbridgeLine(line) {
            case .message(let json): "message " + String(decoding: json, as: UTF8.self)
            case .setTime(let utc, let zone): "setTime \(utc) \(zone.map { "\($0)" } ?? "-")"
            case .empty: "empty"
            case .other: "other"
            }
        }
    }

    @Test func tellsLinesApart() {
        #expect(classify("\u{10}GB({\"t\":\"notify\"})") == "message {\"t\":\"notify\"}")
        #expect(classify("GB({t:'x'});\r") == "message {t:'x'}")
        // Gadgetbridge's time line on connecting (BangleJSDeviceSupport.setTime).
        #expect(classify("\u{10}setTime(1700000000);E.setTimeZone(1.0);(s=>s&&(s.timezone=1.0,require('Storage').write('setting.json',s)))(require('Storage').readJSON('setting.json',1))")
            == "setTime 1700000000 3600")
        #expect(classify("\u{10}setTime(1700000000);E.setTimeZone(5.5);") == "setTime 1700000000 19800")
        #expect(classify("\u{10}setTime(1700000000);E.setTimeZone(-3.5);") == "setTime 1700000000 -12600")
        #expect(classify("setTime(1700000000)") == "setTime 1700000000 -")
        #expect(classify("\u{10}  ") == "empty")
        #expect(classify("\u{3}\u{10}GB({})\r") == "message {}")
        #expect(classify("\u{10}Bangle.buzz()") == "other")
        #expect(classify("setTime(x)") == "other")
        // Found by Fuzz/GadgetbridgeLine: an 18-digit zone overflowed when scaled.
        #expect(classify("setTime(1);E.setTimeZone(999999999999999999)") == "setTime 1 -")
        #expect(classify("setTime(253402300800)") == "other", "past year 9999")
        #expect(classify("setTime(-1)") == "other")
        #expect(classify("GB(") == "message ")
        #expect(classify("GB({\"t\":1") == "message {\"t\":1")
    }
}
