import Glibc
import HAL
import LinuxHAL
import Log
import Loop
import Peripheral
@testable import Peripheral

/// A scripted kernel management interface on the far end of a SEQPACKET
/// socket pair: records every command and answers it (success by default,
/// or the status the test sets per opcode), and can push events.
final class FakeManagementPeer {
    struct Command: Equatable {
        var opcode: UInt16
        var index: UInt16
        var parameters: [UInt8]
    }

    let watchEnd: SeqPacketChannel
    let end: SeqPacketChannel
    private let loop: any EventLoop
    private(set) var commands: [Command] = []
    var info: ControllerInfo
    var settings: ManagementSettings
    /// Status to answer per opcode (default success).
    var statuses: [ManagementOpcode: ManagementStatus] = [:]
    /// Opcodes to leave unanswered.
    var silent: Set<ManagementOpcode> = []
    private var source: SourceID?

    static let controllerAddress = BluetoothAddress("00:AA:01:00:00:01")!

    init(loop: any EventLoop, supported: ManagementSettings = [.powered, .connectable, .bondable, .lowEnergy, .bredr, .secureConnections, .privacy, .advertising]) throws {
        (watchEnd, end) = try SeqPacketChannel.pair(names: ("mgmt", "fake kernel"))
        self.loop = loop
        settings = [.bredr]
        info = ControllerInfo(address: Self.controllerAddress, version: 9, manufacturer: 2, supportedSettings: supported,
                              currentSettings: [.bredr], name: "", shortName: "")
        source = try loop.addSource(fd: end.pollDescriptor, events: .readable) { [unowned self] _ in self.readCommands() }
    }

    var opcodes: [UInt16] { commands.map(\.opcode) }

    func commands(_ opcode: ManagementOpcode) -> [Command] { commands.filter { $0.opcode == opcode.rawValue } }

    func send(_ code: ManagementEventCode, _ parameters: [UInt8], index: UInt16 = 0) {
        let packet = ManagementEvent.packet(code: code, index: index, parameters: parameters)
        _ = try? packet.withUnsafeBytes { try end.send($0) }
    }

    private func readCommands() {
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let r = try? buffer.withUnsafeMutableBytes { try end.receive(into: $0) }
            guard case .packet(let n) = r else { return }
            let parsed = buffer.withUnsafeBytes { b in ManagementPacket.parse(UnsafeRawBufferPointer(rebasing: b[0..<n])).map { ($0.code, $0.index, Array($0.parameters)) } }
            guard let (opcode, index, params) = parsed else { continue }
            commands.append(Command(opcode: opcode, index: index, parameters: params))
            answer(opcode, index, params)
        }
    }

    private func answer(_ opcode: UInt16, _ index: UInt16, _ p: [UInt8]) {
        guard let op = ManagementOpcode(rawValue: opcode) else {
            send(.commandStatus, [UInt8(opcode & 0xFF), UInt8(opcode >> 8), ManagementStatus.unknownCommand.rawValue], index: index)
            return
        }
        if silent.contains(op) { return }
        let status = statuses[op] ?? .success
        if status != .success {
            send(.commandStatus, [UInt8(opcode & 0xFF), UInt8(opcode >> 8), status.rawValue], index: index)
            return
        }
        var reply: [UInt8] = []
        func flag(_ s: ManagementSettings) {
            if p.first == 1 { settings.insert(s) } else { settings.remove(s) }
            reply = le32(settings.rawValue)
        }
        switch op {
        case .readControllerInfo:
            var i = info
            i.currentSettings = settings
            reply = i.encode()
        case .setPowered: flag(.powered)
        case .setLowEnergy: flag(.lowEnergy)
        case .setBREDR: flag(.bredr)
        case .setBondable: flag(.bondable)
        case .setConnectable: flag(.connectable)
        case .setSecureConnections: flag(.secureConnections)
        case .setPrivacy: flag(.privacy)
        case .setAdvertising: flag(.advertising)
        case .addAdvertising, .removeAdvertising: reply = [p.first ?? 0]
        case .userConfirmationReply, .userConfirmationNegativeReply, .unpairDevice, .disconnect: reply = Array(p.prefix(7))
        case .setLocalName: reply = p
        default: reply = []
        }
        send(.commandComplete, [UInt8(opcode & 0xFF), UInt8(opcode >> 8), 0] + reply, index: index)
    }

    func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)] }
}

/// A link over a socket pair, with scripted security.
final class FakeLink: BluetoothLink {
    let channel: SeqPacketChannel
    let phoneEnd: SeqPacketChannel
    let peerAddress: BluetoothAddress
    let peerAddressType: BluetoothAddressType
    var level: LinkSecurityLevel = .none
    private(set) var requested: [LinkSecurityLevel] = []
    var securityChangeHandler: ((LinkSecurityLevel) -> Void)?
    var securityObserver: ((LinkSecurityLevel) -> Void)?
    var securityRequestStarted: (() -> Void)?
    /// Set by the test: the kernel finished SMP at this level.
    var completedLevel: LinkSecurityLevel?
    private(set) var failedRequests = 0
    /// Always writable, like the L2CAP socket once SMP is over.
    private let watch: SeqPacketChannel
    private let watchPeer: SeqPacketChannel

    init(peer: BluetoothAddress, type: BluetoothAddressType = .lePublic) throws {
        (channel, phoneEnd) = try SeqPacketChannel.pair()
        (watch, watchPeer) = try SeqPacketChannel.pair()
        peerAddress = peer
        peerAddressType = type
    }

    var pollDescriptor: Int32 { channel.pollDescriptor }
    var isOpen: Bool { channel.isOpen }
    func send(_ m: UnsafeRawBufferPointer) throws(HALError) -> PacketSendResult { try channel.send(m) }
    func receive(into b: UnsafeMutableRawBufferPointer) throws(HALError) -> PacketReceiveResult { try channel.receive(into: b) }
    func close() { channel.close() }

    var securityLevel: LinkSecurityLevel { level }
    func requestSecurity(_ l: LinkSecurityLevel) throws(HALError) {
        requested.append(l)
        securityRequestStarted?()
    }
    var securityWatchDescriptor: Int32 { watch.pollDescriptor }
    func pollSecurity() -> Bool {
        guard let done = completedLevel else { return false }
        completedLevel = nil
        level = done
        securityObserver?(done)
        securityChangeHandler?(done)
        return true
    }
    func securityRequestFailed() {
        failedRequests += 1
        securityObserver?(level)
        securityChangeHandler?(level)
    }
}

/// Hands out queued links; the listening descriptor is made readable by a knock.
final class FakeListener: BluetoothLinkListener {
    private let knock: SeqPacketChannel
    private let door: SeqPacketChannel
    private var queue: [FakeLink] = []
    private(set) var closed = false

    init() throws { (door, knock) = try SeqPacketChannel.pair() }

    var pollDescriptor: Int32 { door.pollDescriptor }

    func offer(_ link: FakeLink) {
        queue.append(link)
        _ = try? [UInt8(1)].withUnsafeBytes { try knock.send($0) }
    }

    func acceptLink() throws(HALError) -> (any BluetoothLink)? {
        let b = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 1)
        defer { b.deallocate() }
        let r = try door.receive(into: b)
        guard case .packet = r, !queue.isEmpty else { return nil }
        return queue.removeFirst()
    }

    func close() {
        closed = true
        door.close()
    }
}

/// A temporary state directory, removed at deinit.
final class TemporaryDirectory {
    let path: String
    init() {
        var template = Array("/tmp/wristcore-bt-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
    deinit { _ = system("rm -rf '\(path)'") }
}

let quietLogger: Logger = {
    Logger(label: "test", sink: .discarding, level: .critical)
}()

/// The peripheral's world on a `ManualLoop`: the mgmt fake and the link
/// listener over socket pairs, with `pump` playing epoll's part. Time moves
/// only through `loop.advance(by:)`.
final class ManualRig {
    let loop: ManualLoop
    let fake: FakeManagementPeer
    let listener: FakeListener
    /// Listeners made after the first (the adapter came back): pumped too.
    var laterListeners: [FakeListener] = []
    private var links: [FakeLink] = []

    init() throws {
        let loop = ManualLoop()
        self.loop = loop
        fake = try FakeManagementPeer(loop: loop)
        listener = try FakeListener()
    }

    /// A phone connects: `link` waits on the listener (or on `to`).
    func offer(_ link: FakeLink, to: FakeListener? = nil) {
        links.append(link)
        (to ?? listener).offer(link)
    }

    /// Offers every descriptor to its source (if one watches it) as epoll
    /// would, round after round, until `condition` holds or `rounds` pass.
    /// Sources read until "would block", so an offer with nothing waiting is
    /// harmless; a link's security watch is offered as writable, like the
    /// L2CAP socket once SMP is over.
    @discardableResult
    func pump(rounds: Int = 100, until condition: () -> Bool = { false }) -> Bool {
        for _ in 0..<rounds {
            loop.runDeferred()
            if condition() { return true }
            loop.signal(fd: fake.end.pollDescriptor, .readable)
            loop.signal(fd: fake.watchEnd.pollDescriptor, .readable)
            loop.signal(fd: listener.pollDescriptor, .readable)
            for l in laterListeners { loop.signal(fd: l.pollDescriptor, .readable) }
            for link in links { loop.signal(fd: link.securityWatchDescriptor, .writable) }
        }
        return condition()
    }

    /// `pump` for what waits on the kernel, not on us: a closed socket's EOF.
    /// Another test's fork (`system("rm -rf ...")`) may hold a copy of a
    /// descriptor we closed until its exec, so the peer's EOF can come a
    /// little later. Pumps one round every 10 ms, for at most 3 s.
    @discardableResult
    func pumpWaitingForTheKernel(until condition: () -> Bool) -> Bool {
        for _ in 0..<300 {
            if pump(rounds: 1, until: condition) { return true }
            usleep(10_000)
        }
        return condition()
    }
}

/// The state directory in memory, with failures on demand.
final class InMemoryStateFiles: StateFileStore {
    private(set) var files: [String: (bytes: [UInt8], mode: UInt32)] = [:]
    private(set) var directories: [String: UInt32] = [:]
    var readFailure: HALError?
    var writeFailure: HALError?

    func read(_ path: String) throws(HALError) -> [UInt8]? {
        if let readFailure { throw readFailure }
        return files[path]?.bytes
    }

    func writeAtomically(_ path: String, _ bytes: [UInt8], mode: UInt32) throws(HALError) {
        if let writeFailure { throw writeFailure }
        files[path] = (bytes, mode)
        changes += 1
    }

    func moveAside(_ path: String, to destination: String) throws(HALError) {
        guard files[destination] == nil else {
            throw HALError(operation: "rename \(path) to \(destination)", errno: EEXIST, reason: "File exists")
        }
        guard let file = files.removeValue(forKey: path) else {
            throw HALError(operation: "rename \(path) to \(destination)", errno: ENOENT, reason: "No such file or directory")
        }
        files[destination] = file
        moves.append((path, destination))
    }

    /// Every move, in order.
    private(set) var moves: [(from: String, to: String)] = []
    /// Writes and removals, counted (read-only operations must not add any).
    private(set) var changes = 0

    func remove(_ path: String) throws(HALError) {
        if files.removeValue(forKey: path) != nil { changes += 1 }
    }

    func exists(_ path: String) -> Bool { files[path] != nil || directories[path] != nil }

    func ensureDirectory(_ path: String, mode: UInt32) throws(HALError) {
        if directories[path] == nil { directories[path] = mode }
    }
}

/// Log lines at info and above, recorded as "level: message".
final class LogRecorder: @unchecked Sendable {
    private(set) var lines: [String] = []
    func append(_ line: String) { lines.append(line) }
    var logger: Logger {
        Logger(label: "test", sink: LogSink { level, _, message in self.append("\(level): \(message)") }, level: .info)
    }
}
