import ANCS
import Notifications
import BoardConfig
import Foundation
import GATT
import Glibc
import HAL
import LinuxHAL
import LinuxLoop
import Log
import Loop
import Screens
import SimBoard
import Testing
import Watch
import WristCore

@testable import WristCore

/// The daemon on the simulated board, in this process, with both endpoints on
/// real Unix sockets: a simulated iPhone connects to the phone endpoint and a
/// harness client talks the line protocol. One real run loop drives all three.
final class SimBoardRig {
    let loop: EpollLoop
    let daemon: WatchDaemon
    let directory: String
    let phonePath: String
    let harnessPath: String
    private(set) var phone: SimulatedPhone?
    private(set) var phoneChannel: SeqPacketChannel?
    let harness: HarnessClient

    /// The system clock the watch sees before the phone sends its time (pinned, for golden images).
    static let pinnedTime = CivilTime(year: 2024, month: 5, day: 1, hour: 9, minute: 41, second: 0)

    /// - Parameter logger: the daemon's logger (default: critical only, or
    ///   debug with WRISTCORE_E2E_LOG set).
    /// - Parameter systemdNotify: where sd_notify messages go (as systemd's NOTIFY_SOCKET), and the watchdog timeout.
    init(board: Board = BoardLoader.builtInSimulated, settings: WatchSettings = SimBoardRig.settings(), logger: Logger? = nil,
         systemdNotify: (socket: String, watchdogTimeout: Duration?)? = nil,
         options adjust: (inout WatchDaemon.Options) -> Void = { _ in }) throws {
        directory = "/tmp/wristcore-e2e-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(directory, 0o700)
        phonePath = directory + "/phone.sock"
        harnessPath = directory + "/harness.sock"
        loop = try EpollLoop()
        var options = WatchDaemon.Options()
        options.phoneEndpoint = "unix:" + phonePath
        options.harnessEndpoint = "unix:" + harnessPath
        options.settings = settings
        options.keepPowerSettings = true
        options.systemdNotify = systemdNotify
        // Its own state directory: nothing read from or written to the machine's.
        options.stateDirectory = directory
        adjust(&options)
        // WRISTCORE_E2E_LOG=1: the daemon's lines on standard error, from debug up.
        let defaultLogger = ProcessInfo.processInfo.environment["WRISTCORE_E2E_LOG"] != nil
            ? Logger(label: "e2e", sink: StandardErrorLog.sink(), level: .debug)
            : Logger(label: "e2e", sink: .discarding, level: .critical)
        daemon = WatchDaemon(board: board, logger: logger ?? defaultLogger, options: options)
        try daemon.start(on: loop)
        harness = try HarnessClient(path: harnessPath, loop: loop)
    }

    static func settings() -> WatchSettings {
        var s = WatchSettings()
        s.systemClock = { SimBoardRig.pinnedTime }
        return s
    }

    deinit {
        daemon.stop()
        unlink(phonePath)
        unlink(harnessPath)
        unlink(directory + "/notification-history")
        rmdir(directory)
    }

    var watch: WatchController { daemon.watch! }

    /// Connects a simulated iPhone to the phone endpoint and waits for its
    /// ANCS session to start.
    @discardableResult
    func connectPhone(_ configuration: SimulatedPhone.Configuration = .init()) throws -> SimulatedPhone {
        let fd = try UnixSocketListener.connect(path: phonePath, kind: .seqPacket)
        let channel = try SeqPacketChannel(adopting: fd, name: "test iPhone")
        let phone = SimulatedPhone(channel: channel, loop: loop, configuration: configuration)
        try phone.start()
        self.phone = phone
        phoneChannel = channel
        try #require(try run(until: { phone.ancsSessionActive && self.watch.session != nil }), "the watch subscribed to ANCS")
        return phone
    }

    /// Plays a phone script (PhoneScript text).
    func play(_ script: String) throws {
        let events = try PhoneScript.parse(script)
        phone!.run(events)
    }

    /// Runs the loop until `condition` holds (false after `timeout`: the
    /// timeout only bounds a failing test, it asserts nothing about speed).
    @discardableResult
    func run(until condition: () -> Bool, timeout: Duration = .seconds(10)) throws -> Bool {
        try loop.runUntil(timeout: timeout, condition)
    }

    /// Runs the loop for a while (to show that something does NOT happen).
    func idle(_ d: Duration) throws {
        _ = try loop.runUntil(timeout: d) { false }
    }

    func state() throws -> [String: Any] {
        let line = try harness.request("state", loop: loop)
        return try Self.json(line, prefix: "state ") as! [String: Any]
    }

    func notifications() throws -> [[String: Any]] {
        let line = try harness.request("notifications", loop: loop)
        return try Self.json(line, prefix: "notifications ") as! [[String: Any]]
    }

    static func json(_ line: String, prefix: String) throws -> Any {
        try #require(line.hasPrefix(prefix), "unexpected reply: \(line)")
        return try JSONSerialization.jsonObject(with: Data(line.dropFirst(prefix.count).utf8))
    }
}

/// A harness client over a real Unix stream socket. Replies are read by
/// running the shared loop until a line arrives.
final class HarnessClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private(set) var lines: [String] = []
    private var owner: FileDescriptor?

    init(path: String, loop: EpollLoop) throws {
        let d = try UnixSocketListener.connect(path: path, kind: .stream)
        fd = d.rawValue
        owner = consume d
    }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Reads whatever arrived; returns false when the socket closed.
    @discardableResult
    func pump() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if n > 0 {
                buffer.append(contentsOf: chunk[0..<n])
                continue
            }
            if n == 0 { return false }
            break
        }
        return true
    }

    /// Takes the next complete line, if any.
    func takeLine() -> String? {
        pump()
        guard let nl = buffer.firstIndex(of: 0x0A) else { return nil }
        let line = String(decoding: buffer[..<nl], as: UTF8.self)
        buffer.removeSubrange(...nl)
        lines.append(line)
        return line
    }

    /// Takes `count` raw bytes (a snapshot's payload).
    func takeBytes(_ count: Int, loop: EpollLoop) throws -> [UInt8] {
        try #require(try loop.runUntil(timeout: .seconds(10)) { self.pump(); return self.buffer.count >= count })
        let bytes = Array(buffer[..<count])
        buffer.removeSubrange(..<count)
        return bytes
    }

    /// Sends a command and returns the first reply line that is not a
    /// streamed motor event (those are kept in `motorEvents`).
    func request(_ command: String, loop: EpollLoop) throws -> String {
        send(command)
        var reply: String?
        try #require(
            try loop.runUntil(timeout: .seconds(10)) {
                while reply == nil, let line = self.takeLine() {
                    if line.hasPrefix("motor ") { self.motorEvents.append(line) } else { reply = line }
                }
                return reply != nil
            }, "no reply to '\(command)'")
        return reply!
    }

    /// `motor on|off <ns>` lines received so far.
    var motorEvents: [String] = []

    /// Collects streamed motor events that arrived.
    func collectMotorEvents() {
        while let line = takeLine() {
            if line.hasPrefix("motor ") { motorEvents.append(line) }
        }
    }

    var motorStates: [String] { motorEvents.map { $0.split(separator: " ")[1].description } }
}
