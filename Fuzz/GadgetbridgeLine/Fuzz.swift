// libFuzzer target: the Gadgetbridge line reader (module Gadgetbridge), as
// the watch runs it on what a phone writes on the UART's RX: the input is
// cut into writes (byte 0 picks the write size), put back together into
// lines, each line told apart, its JSON read and decoded to a message.
// Checks: no trap, lines never longer than the assembler keeps, decoded
// strings valid UTF-8 of bounded length, every value inside the line, and
// reading the same line twice gives the same answer.
import Gadgetbridge

nonisolated(unsafe) let assembler = LineAssembler(capacity: 512)
nonisolated(unsafe) let reader = JSONReader(maxValues: 64, maxDepth: 8, maxLength: 512)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    assembler.reset()
    let write = Int(data[0] % 64) + 1
    let input = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
    var at = 0
    while at < input.count {
        let end = min(input.count, at + write)
        assembler.append(UnsafeRawBufferPointer(rebasing: input[at..<end]), line: check)
        at = end
    }
    precondition(assembler.pendingCount <= assembler.capacity)
    return 0
}

func check(_ line: UnsafeRawBufferPointer) {
    precondition(line.count <= assembler.capacity)
    precondition(!line.contains(0x0A), "a line holds no newline")
    guard case .message(let json) = GadgetbridgeLine(line) else { return }
    let first = describe(json)
    precondition(first == describe(json), "the same line reads the same twice")
}

/// Reads and decodes `json`; returns a summary to compare runs by.
func describe(_ json: UnsafeRawBufferPointer) -> Int {
    let value: JSONValue
    do { value = try reader.read(json) } catch { return -1 }
    var summary = 0
    walk(value, depth: 0, &summary)
    if let message = try? GadgetbridgeMessage(value) {
        switch message {
        case .notify(let n): for t in [n.source, n.title, n.subject, n.body, n.sender] { checkText(t, &summary) }
        case .call(let c): checkText(c.name, &summary); checkText(c.number, &summary)
        case .musicInfo(let m): checkText(m.track, &summary)
        case .vibrate(let n): precondition(n >= 0 && n <= 10)
        default: break
        }
    }
    return summary
}

func walk(_ v: JSONValue, depth: Int, _ summary: inout Int) {
    precondition(depth <= 8)
    summary = summary &* 31 &+ Int(v.kind.rawValue)
    if let s = v.string { checkText(s, &summary) }
    _ = v.integer
    _ = v.scaled(byPowerOfTen: 3)
    _ = v["t"]
    v.forEachElement { walk($0, depth: depth + 1, &summary) }
}

/// Decoded text is valid UTF-8 and at most twice the line's length.
func checkText(_ s: UnsafeRawBufferPointer, _ summary: inout Int) {
    precondition(s.count <= 2 * 512)
    var it = s.makeIterator()
    var decoder = UTF8()
    loop: while true {
        switch decoder.decode(&it) {
        case .scalarValue(let u): summary = summary &* 31 &+ Int(u.value)
        case .emptyInput: break loop
        case .error: preconditionFailure("decoded strings are valid UTF-8")
        }
    }
}
