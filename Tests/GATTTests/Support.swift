import ATTCodec
import GATT
import PhoneServices
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import Testing

/// A raw PDU, BlueZ test-gatt style.
func pdu(_ bytes: UInt8...) -> [UInt8] { bytes }

func hex(_ bytes: [UInt8]) -> String {
    bytes.map { b in
        let s = String(b, radix: 16)
        return s.count == 1 ? "0" + s : s
    }.joined(separator: " ")
}

extension Array where Element == UInt8 {
    var le16: [UInt8] { self }
}

func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

/// A SEQPACKET socket pair and a real EventLoop: the watch's end is used by
/// the code under test, the test plays the peer with raw PDUs on the other.
final class RawLink {
    let loop: EpollLoop
    let clock: ManualClock?
    let watch: SeqPacketChannel
    let peer: SeqPacketChannel
    private var buffer = [UInt8](repeating: 0, count: 1024)

    init(manualClock: Bool = false) throws {
        if manualClock {
            let c = ManualClock()
            clock = c
            loop = try EpollLoop(clock: .manual(c))
        } else {
            clock = nil
            loop = try EpollLoop()
        }
        (watch, peer) = try SeqPacketChannel.pair()
    }

    /// The peer sends one PDU.
    func send(_ bytes: [UInt8]) throws {
        let r = try bytes.withUnsafeBytes { try peer.send($0) }
        #expect(r == .sent)
    }

    private func tryReceive() throws -> [UInt8]? {
        let r = try buffer.withUnsafeMutableBytes { try peer.receive(into: $0) }
        switch r {
        case .packet(let n): return Array(buffer[..<n])
        case .wouldBlock: return nil
        case .closed: return []
        }
    }

    /// Runs the loop until the watch sends a PDU to the peer; [] means the
    /// watch closed the link, nil that nothing came within `timeout`.
    func receive(timeout: Duration = .seconds(2)) throws -> [UInt8]? {
        if let p = try tryReceive() { return p }
        var got: [UInt8]?
        var failure: Error?
        _ = try loop.runUntil(timeout: timeout) {
            do { got = try tryReceive() } catch { failure = error }
            return got != nil || failure != nil
        }
        if let failure { throw failure }
        return got
    }

    /// Runs the loop briefly; returns whatever the watch sent meanwhile (nil: nothing).
    func settle(_ duration: Duration = .milliseconds(30)) throws -> [UInt8]? {
        try receive(timeout: duration)
    }

    /// The watch must send exactly `expected` next.
    func expect(_ expected: [UInt8], _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let got = try receive()
        #expect(got.map(hex) == hex(expected), comment, sourceLocation: sourceLocation)
    }

    enum Step {
        /// The watch must send this PDU.
        case watch([UInt8])
        /// The peer sends this PDU.
        case peer([UInt8])
    }

    /// Plays a BlueZ-style conversation.
    func run(_ steps: [Step], sourceLocation: SourceLocation = #_sourceLocation) throws {
        for (i, step) in steps.enumerated() {
            switch step {
            case .watch(let bytes): try expect(bytes, "step \(i)", sourceLocation: sourceLocation)
            case .peer(let bytes): try send(bytes)
            }
        }
    }

    /// Spins the loop until `condition` (real time bound).
    @discardableResult
    func run(until condition: () -> Bool, timeout: Duration = .seconds(3)) throws -> Bool {
        try loop.runUntil(timeout: timeout, condition)
    }
}

/// A LinkSecurityControl the test drives by hand.
final class ManualSecurity: LinkSecurityControl {
    var securityLevel: LinkSecurityLevel = .none
    var securityChangeHandler: ((LinkSecurityLevel) -> Void)?
    var requested: [LinkSecurityLevel] = []
    func requestSecurity(_ level: LinkSecurityLevel) throws(HALError) { requested.append(level) }
    /// Completes the pending request (the kernel reporting the new level).
    func complete(_ level: LinkSecurityLevel) {
        securityLevel = level
        securityChangeHandler?(level)
    }
}

/// Captures request outcomes as comparable values.
enum Outcome: Equatable {
    case response([UInt8])
    case error(ATTErrorCode, UInt16)
    case failed(ATTBearerError)
}

final class OutcomeBox {
    var outcomes: [Outcome] = []
    lazy var handler: ATTResponseHandler = { [unowned self] o in
        switch o {
        case .response(let p): self.outcomes.append(.response(Self.raw(p)))
        case .error(let e): self.outcomes.append(.error(e.error, e.handle))
        case .failed(let f): self.outcomes.append(.failed(f))
        }
    }

    /// Re-encodes the decoded response for comparison.
    static func raw(_ p: ATTPDU) -> [UInt8] {
        switch p {
        case .readResponse(let r): return [0x0B] + Array(r.value)
        case .writeResponse: return [0x13]
        case .exchangeMTUResponse(let r): return [0x03] + le16(r.serverRxMTU)
        case .readByTypeResponse(let r): return [0x09, UInt8(r.elementLength)] + Array(r.data)
        default: return [p.opcode]
        }
    }
}
