import Glibc
import HAL
import LinuxHAL
import Testing

/// sd_notify datagrams to a bound socket, as systemd's NOTIFY_SOCKET.
@Suite struct SystemdNotifierTests {
    /// A bound AF_UNIX datagram socket (path, or abstract when it starts with '@').
    final class Receiver {
        let fd: Int32
        init(_ name: String) {
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var a = sockaddr_un()
            a.sun_family = sa_family_t(AF_UNIX)
            var bytes = Array(name.utf8)
            let abstract = bytes.first == UInt8(ascii: "@")
            if abstract { bytes[0] = 0 }
            withUnsafeMutableBytes(of: &a.sun_path) { p in for (i, b) in bytes.enumerated() { p[i] = b } }
            let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + (abstract ? 0 : 1))
            let rc = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            precondition(rc == 0, "bind \(name): \(errno)")
        }
        deinit { close(fd) }
        func next() -> String? {
            var buffer = [UInt8](repeating: 0, count: 256)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n < 0 ? nil : String(decoding: buffer[0..<n], as: UTF8.self)
        }
    }

    @Test func sendsReadyWatchdogStoppingToAPathSocket() throws {
        let path = "/tmp/wristcore-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        defer { unlink(path) }
        let receiver = Receiver(path)
        let notifier = try SystemdNotifier(socket: path)
        try notifier.ready(status: "advertising")
        try notifier.watchdog()
        try notifier.status("connected to F0:99:B6:12:34:56")
        try notifier.stopping()
        #expect(receiver.next() == "READY=1\nSTATUS=advertising")
        #expect(receiver.next() == "WATCHDOG=1")
        #expect(receiver.next() == "STATUS=connected to F0:99:B6:12:34:56")
        #expect(receiver.next() == "STOPPING=1")
        #expect(receiver.next() == nil)
    }

    @Test func abstractNamespaceSocket() throws {
        let name = "@wristcore-notify-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let receiver = Receiver(name)
        try SystemdNotifier(socket: name).ready()
        #expect(receiver.next() == "READY=1")
    }

    @Test func badNamesAndMissingSocket() throws {
        #expect(throws: HALError.self) { try SystemdNotifier(socket: "relative/path") }
        #expect(throws: HALError.self) { try SystemdNotifier(socket: "/" + String(repeating: "x", count: 200)) }
        let nobody = try SystemdNotifier(socket: "/tmp/wristcore-no-such-socket-\(getpid())")
        #expect(throws: HALError.self) { try nobody.watchdog() }
    }

    @Test func environment() throws {
        unsetenv("NOTIFY_SOCKET")
        #expect(try SystemdNotifier.fromEnvironment() == nil)
        setenv("WATCHDOG_USEC", "20000000", 1)
        unsetenv("WATCHDOG_PID")
        #expect(SystemdNotifier.watchdogPingInterval() == .seconds(10))
        setenv("WATCHDOG_PID", "\(getpid() + 1)", 1)
        #expect(SystemdNotifier.watchdogPingInterval() == nil)
        unsetenv("WATCHDOG_USEC")
        unsetenv("WATCHDOG_PID")
        #expect(SystemdNotifier.watchdogPingInterval() == nil)
    }
}
