import BoardConfig
import Foundation
import Glibc
import HAL
import LinuxHAL
import LinuxLoop
import Log
import SimBoard
import Testing
import WristCore

@testable import WristCore

/// The two endpoints as doors into the daemon, over real Unix sockets: who
/// may open them, how many may come in, and what a misbehaving client or a
/// second daemon can do (issue 14 items 5, 7, 8; issue 19 item 13).
@Suite(.serialized) struct HarnessEndpointTests {
    // MARK: - issue 14, item 7: private, never stolen, never removed when not ours

    @Test func bothSocketFilesAreOwnerOnlyWhateverTheUmask() throws {
        let rig = try SimBoardRig()
        for path in [rig.phonePath, rig.harnessPath] {
            var st = stat()
            try #require(lstat(path, &st) == 0)
            #expect(st.st_mode & S_IFMT == S_IFSOCK)
            #expect(st.st_mode & 0o777 == 0o600, "\(path) has mode \(String(st.st_mode & 0o777, radix: 8))")
        }
    }

    @Test func aSecondDaemonOnTheSameHarnessPathRefusesToStart() throws {
        let rig = try SimBoardRig()
        var options = WatchDaemon.Options()
        options.harnessEndpoint = "unix:" + rig.harnessPath
        options.phoneEndpoint = "unix:" + rig.directory + "/second-phone.sock"
        let second = WatchDaemon(board: BoardLoader.builtInSimulated, logger: Self.quiet, options: options)
        let loop = try EpollLoop()
        let error = #expect(throws: (any Error).self) { try second.start(on: loop) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("another wristcore is listening on \(rig.harnessPath)"), "\(String(describing: error))")
        // The first one keeps its socket and still answers on it.
        #expect(access(rig.harnessPath, F_OK) == 0)
        #expect(try rig.state()["display"] as? String == "on", "the harness's own client is still served")
    }

    @Test func aSecondDaemonOnTheSamePhonePathRefusesToStart() throws {
        let rig = try SimBoardRig()
        var options = WatchDaemon.Options()
        options.phoneEndpoint = "unix:" + rig.phonePath
        let second = WatchDaemon(board: BoardLoader.builtInSimulated, logger: Self.quiet, options: options)
        let loop = try EpollLoop()
        let error = #expect(throws: (any Error).self) { try second.start(on: loop) }
        #expect("\(error.map { "\($0)" } ?? "")".contains("another wristcore is listening on \(rig.phonePath)"), "\(String(describing: error))")
        // The probe was a connection that closed at once: let the first daemon see it go.
        try rig.idle(.milliseconds(100))
        try rig.connectPhone()
        #expect(try rig.state()["connected"] as? Bool == true)
    }

    @Test func aStaleSocketFileNobodyAnswersOnIsReplaced() throws {
        let directory = "/tmp/wristcore-stale-\(getpid())"
        mkdir(directory, 0o700)
        defer { rmdir(directory) }
        let path = directory + "/harness.sock"
        try Self.leaveStaleSocket(at: path)
        let listener = try UnixSocketListener(path: path, kind: .stream)
        let client = try UnixSocketListener.connect(path: path, kind: .stream)
        #expect(try listener.accept() != nil, "the new listener took the path")
        client.close()
        listener.close()
        #expect(access(path, F_OK) != 0, "its own file is removed on close")
    }

    @Test func onExitTheSocketFileIsRemovedOnlyIfItIsStillOurs() throws {
        let rig = try SimBoardRig()
        // Someone replaced the file (another daemon, a user): not ours to remove.
        unlink(rig.harnessPath)
        try Self.leaveStaleSocket(at: rig.harnessPath)
        rig.daemon.stop()
        #expect(access(rig.harnessPath, F_OK) == 0, "the file that replaced ours is still there")
        #expect(access(rig.phonePath, F_OK) != 0, "our own phone socket is removed")
    }

    // MARK: - issue 19, item 13: the backlog

    @Test func a100ConnectBurstIsQueuedAndEveryoneAnswered() throws {
        let rig = try SimBoardRig()
        // The loop is not running: connections wait in the backlog (4 before: 90 of 100 got EAGAIN).
        var harnessClients: [Int32] = []
        var phones: [Int32] = []
        defer { for fd in harnessClients + phones { close(fd) } }
        for _ in 0..<100 {
            harnessClients.append(Self.connectWithoutWaiting(to: rig.harnessPath, type: SOCK_STREAM))
            phones.append(Self.connectWithoutWaiting(to: rig.phonePath, type: SOCK_SEQPACKET))
        }
        #expect(harnessClients.filter { $0 < 0 }.count == 0 && phones.filter { $0 < 0 }.count == 0,
                "refused: \(harnessClients.filter { $0 < 0 }.count) harness, \(phones.filter { $0 < 0 }.count) phone")
        // Then the harness serves 16 at once (its own client is one): 15 more, and tells the other 85 why not.
        let refusal = "error too many harness clients (16 connected); try again later\n"
        var told = 0
        try #require(try rig.run(until: {
            told = harnessClients.filter { Self.peek($0) == refusal }.count
            return told == 85
        }), "\(told) told")
        try rig.idle(.milliseconds(50))
        #expect(harnessClients.filter { !Self.hungUp($0) }.count == 15, "15 served")
        #expect(try rig.state()["display"] as? String == "on", "the harness's own client is still served")
    }

    // MARK: - issue 14, item 5: a client that never reads

    @Test func aHarnessClientThatNeverReadsIsDisconnectedAndTheOthersAreServed() throws {
        let rig = try SimBoardRig()
        let greedy = try UnixSocketListener.connect(path: rig.harnessPath, kind: .stream)
        let request = Array(String(repeating: "snapshot pbm\n", count: 300).utf8)
        var sent = 0
        try #require(try rig.run(until: {
            if sent < request.count {
                let n = request.withUnsafeBytes { send(greedy.rawValue, $0.baseAddress! + sent, $0.count - sent, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }
                if n > 0 { sent += n }
            }
            return Self.hungUp(greedy.rawValue)
        }), "the greedy client was disconnected")
        #expect(try rig.state()["display"] as? String == "on", "the other client is served")
        // What it left unread: the socket buffer and at most 256 KiB, never 300 snapshots (4.9 MB).
        var unread = 0
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(greedy.rawValue, &chunk, chunk.count, Int32(MSG_DONTWAIT))
            if n <= 0 { break }
            unread += n
        }
        #expect(unread < 300 * 16_403 / 2, "\(unread) bytes")
    }

    // MARK: - issue 14, item 8: the state follows the link

    @Test func afterThePhoneLeavesTheLinkIsAdvertisingAgain() throws {
        let rig = try SimBoardRig()
        #expect(try rig.state()["link"] as? String == "advertising")
        let phone = try rig.connectPhone()
        var state = try rig.state()
        #expect(state["link"] as? String == "connected" && state["connected"] as? Bool == true)
        phone.perform(.disconnect)
        try #require(try rig.run(until: { (try? rig.state()["connected"] as? Bool) == false }))
        state = try rig.state()
        #expect(state["link"] as? String == "advertising", "not \(state["link"] ?? "nil") with connected false")
        try rig.connectPhone()
        #expect(try rig.state()["link"] as? String == "connected")
    }

    @Test func aLinkClosedDuringDiscoveryDoesNotBlameShareSystemNotifications() throws {
        // Control: a phone that has no ANCS does get the hint.
        let control = LogBox()
        try Self.phoneThatLeaves(afterPDUs: .max, log: control)
        #expect(control.lines.contains { $0.contains("Share System Notifications") }, "\(control.lines)")

        // A link that closes in the middle of discovery is not a phone without ANCS.
        let log = LogBox()
        try Self.phoneThatLeaves(afterPDUs: 2, log: log)
        #expect(log.lines.contains { $0.contains("phone link closed") })
        #expect(!log.lines.contains { $0.contains("Share System Notifications") }, "\(log.lines)")
    }

    // MARK: - helpers

    static var quiet: Logger {
        var l = Logger(label: "e2e")
        l.logLevel = .critical
        return l
    }

    /// A non-blocking connect: the descriptor, or -1 (EAGAIN: the backlog is full).
    static func connectWithoutWaiting(to path: String, type: __socket_type) -> Int32 {
        let fd = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buf in
            for (i, b) in path.utf8.enumerated() { buf[i] = b }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if rc != 0 {
            close(fd)
            return -1
        }
        return fd
    }

    /// What is waiting on `fd`, left unread.
    static func peek(_ fd: Int32) -> String {
        var buf = [UInt8](repeating: 0, count: 256)
        let n = recv(fd, &buf, buf.count, Int32(MSG_DONTWAIT | MSG_PEEK))
        return n > 0 ? String(decoding: buf[..<n], as: UTF8.self) : ""
    }

    /// Whether the daemon closed its end (without reading what it sent).
    static func hungUp(_ fd: Int32) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, 0) == 1 && p.revents & Int16(POLLHUP) != 0
    }

    /// A socket file with nobody listening, as a crashed run leaves it.
    static func leaveStaleSocket(at path: String) throws {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buf in
            for (i, b) in path.utf8.enumerated() { buf[i] = b }
        }
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(rc == 0, "bind \(path): \(errno)")
    }

    /// A phone on the endpoint that answers Exchange MTU and every discovery
    /// request with "Attribute Not Found" (no services at all), and hangs up
    /// after `afterPDUs` PDUs from the watch (`.max`: when discovery is over).
    static func phoneThatLeaves(afterPDUs: Int, log: LogBox) throws {
        let rig = try SimBoardRig(logger: Logger.capturing(log))
        let phone = try UnixSocketListener.connect(path: rig.phonePath, kind: .seqPacket)
        var received = 0
        var closed = false
        try #require(try rig.run(until: {
            var pdu = [UInt8](repeating: 0, count: 600)
            while !closed {
                let n = recv(phone.rawValue, &pdu, pdu.count, Int32(MSG_DONTWAIT))
                guard n > 0 else { break }
                received += 1
                if received >= afterPDUs {
                    shutdown(phone.rawValue, Int32(SHUT_RDWR))
                    closed = true
                    break
                }
                let answer: [UInt8] = pdu[0] == 0x02 ? [0x03, 23, 0] : [0x01, pdu[0], pdu[1], pdu[2], 0x0A]
                _ = send(phone.rawValue, answer, answer.count, Int32(MSG_NOSIGNAL))
            }
            if afterPDUs == .max && log.lines.contains(where: { $0.contains("Share System Notifications") }) {
                shutdown(phone.rawValue, Int32(SHUT_RDWR))
                closed = true
            }
            return closed && rig.daemon.watch?.session == nil && log.lines.contains { $0.contains("phone link closed") }
        }), "the link ended; log: \(log.lines)")
        try rig.idle(.milliseconds(50))
    }
}

/// Keeps what is logged, for tests that look for a line.
final class LogBox: @unchecked Sendable {
    var lines: [String] = []
}

extension Logger {
    /// A logger at debug whose lines land in `box` ("level: message").
    static func capturing(_ box: LogBox) -> Logger {
        Logger(label: "e2e", sink: LogSink { level, _, message in box.lines.append("\(level): \(message)") }, level: .debug)
    }
}
