import BoardConfig
import Glibc
import Graphics
import HAL
import LinuxHAL
import LinuxLoop
import Log
import Loop
import Screens
import SimBoard
import Testing
import WristCore
@testable import WristCore
import TextFormat
@testable import Systemd

/// What systemd hears while the Bluetooth adapter goes and comes back: the
/// `SystemdSupervisor` on a manual clock, then the daemon itself with a phone
/// link that reports a lost adapter, both writing real sd_notify datagrams
/// to a bound socket (as systemd's NOTIFY_SOCKET).
@Suite struct AdapterLossDaemonTests {
    /// A bound, non-blocking AF_UNIX datagram socket: systemd's end.
    final class NotifyReceiver {
        let fd: Int32
        let path: String
        init() {
            path = "/tmp/wristcore-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
            var a = sockaddr_un()
            a.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &a.sun_path) { p in for (i, b) in bytes.enumerated() { p[i] = b } }
            let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + bytes.count + 1)
            let rc = withUnsafePointer(to: &a) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
            precondition(rc == 0, "bind \(path): \(errno)")
        }
        deinit {
            close(fd)
            unlink(path)
        }
        func next() -> String? {
            var buffer = [UInt8](repeating: 0, count: 512)
            let n = recv(fd, &buffer, buffer.count, 0)
            return n < 0 ? nil : String(decoding: buffer[0..<n], as: UTF8.self)
        }
        func drain() -> [String] {
            var all: [String] = []
            while let m = next() { all.append(m) }
            return all
        }
    }

    @Test func supervisorStopsPingingWhileTheAdapterIsGone() throws {
        let receiver = NotifyReceiver()
        let loop = ManualLoop()
        let s = SystemdSupervisor(
            notifier: try SystemdNotifier(socket: receiver.path), loop: loop, watchdogTimeout: .seconds(30),
            adapterLossTimeout: .seconds(120), status: "running on test")
        s.setStatus("advertising as \"WristCore\" on hci0")
        #expect(receiver.next() == nil)  // nothing before READY=1
        s.ready()
        #expect(receiver.drain() == ["READY=1\nSTATUS=advertising as \"WristCore\" on hci0"])
        loop.advance(by: .seconds(15))
        #expect(receiver.drain() == ["WATCHDOG=1"])

        // Gone: the last ping stretches systemd's timeout past our own deadline (120 s + 15 s).
        s.setPhoneLinkHealthy(false)
        s.setStatus("Bluetooth adapter hci0 gone since 2024-05-01T09:41:00 (removed)")
        #expect(receiver.drain() == ["WATCHDOG=1\nWATCHDOG_USEC=135000000", "STATUS=Bluetooth adapter hci0 gone since 2024-05-01T09:41:00 (removed)"])
        for _ in 0..<8 {
            loop.advance(by: .seconds(15))
            #expect(receiver.drain() == [])
        }
        // Back: the unit's own timeout again, and the pings resume.
        s.setPhoneLinkHealthy(true)
        #expect(receiver.drain() == ["WATCHDOG=1\nWATCHDOG_USEC=30000000"])
        loop.advance(by: .seconds(15))
        #expect(receiver.drain() == ["WATCHDOG=1"])
        s.setStatus("advertising as \"WristCore\" on hci0")
        s.setStatus("advertising as \"WristCore\" on hci0")  // unchanged: not sent again
        s.stopping()
        #expect(receiver.drain() == ["STATUS=advertising as \"WristCore\" on hci0", "STOPPING=1"])
        loop.advance(by: .seconds(60))
        #expect(receiver.drain() == [])
    }

    @Test func stretchedTimeoutIsNeverShorterThanTheUnits() throws {
        let receiver = NotifyReceiver()
        let loop = ManualLoop()
        let s = SystemdSupervisor(
            notifier: try SystemdNotifier(socket: receiver.path), loop: loop, watchdogTimeout: .seconds(300),
            adapterLossTimeout: .seconds(60), status: "x")
        s.ready()
        _ = receiver.drain()
        s.setPhoneLinkHealthy(false)
        #expect(receiver.drain() == ["WATCHDOG=1\nWATCHDOG_USEC=300000000"])
    }

    @Test func withoutAWatchdogOnlyReadyAndStatus() throws {
        let receiver = NotifyReceiver()
        let loop = ManualLoop()
        let s = SystemdSupervisor(
            notifier: try SystemdNotifier(socket: receiver.path), loop: loop, watchdogTimeout: nil,
            adapterLossTimeout: .seconds(60), status: "running")
        s.ready()
        s.setPhoneLinkHealthy(false)
        loop.advance(by: .seconds(600))
        #expect(receiver.drain() == ["READY=1\nSTATUS=running"])
        #expect(loop.armedTimerCount == 0)
    }

    /// The simulated board's devices, except that the phone link is the
    /// test's: it reports ready, then whatever `script` makes it say.
    final class ScriptedLinkDevices: BoardDevices {
        let base: SimulatedBoardDevices
        let loop: EpollLoop
        let script: (PhoneLinkHandlers) -> Void
        init(base: SimulatedBoardDevices, loop: EpollLoop, script: @escaping (PhoneLinkHandlers) -> Void) {
            self.base = base
            self.loop = loop
            self.script = script
        }
        var hardwareNote: String? { base.hardwareNote }
        var displayLocation: String { base.displayLocation }
        var isWired: Bool { base.isWired }
        func preflight() throws(WristCoreFailure) { try base.preflight() }
        func openDisplay(_ wiring: DisplayWiring) throws(HALError) -> any I2CTransport { try base.openDisplay(wiring) }
        func openButton(_ wiring: ButtonWiring, debounce: Duration) throws(HALError) -> any ButtonLine {
            try base.openButton(wiring, debounce: debounce)
        }
        func openMotor(_ wiring: MotorWiring) throws(HALError) -> any MotorLine { try base.openMotor(wiring) }
        func openBattery(_ wiring: BatteryWiring) throws(HALError) -> any BatteryGauge { try base.openBattery(wiring) }
        func setBattery(percent: Int, charging: Bool) -> Bool { base.setBattery(percent: percent, charging: charging) }
        func startPhoneLink(_ handlers: PhoneLinkHandlers) throws(WristCoreFailure) {
            loop.deferWork { [script] in
                handlers.ready(nil)
                script(handlers)
            }
        }
        func stopPhoneLink() {}
        func setButton(_ role: ButtonRole, active: Bool) -> Bool { base.setButton(role, active: active) }
        func panelImage() -> MonoImage? { base.panelImage() }
    }

    /// The real daemon: READY=1, pings, no pings while the link says the
    /// adapter is gone (the screen says so and the link indicator is off),
    /// pings again once it is back, and a link failure ends `run` with a
    /// non-zero exit (systemd's Restart=on-failure restarts it).
    @Test func daemonPingsOnlyWhileTheAdapterIsThereAndExitsOnFailure() throws {
        let receiver = NotifyReceiver()
        let loop = try EpollLoop()
        var messages: [String] = []
        _ = try loop.addSource(fd: receiver.fd, events: .readable) { _ in messages += receiver.drain() }
        var seen: [String: (Screen, PhoneLinkState)] = [:]
        var daemon: WatchDaemon!
        func look(_ when: String) {
            guard let watch = daemon.watch else { return }
            seen[when] = (watch.screen, watch.link)
        }
        let why = "Bluetooth: adapter hci0 removed and not back within 120 s"
        let script: (PhoneLinkHandlers) -> Void = { h in
            h.statusChanged("advertising as \"WristCore\" on hci0")
            h.stateChanged(.advertising)
            loop.schedule(after: .milliseconds(400)) {
                h.stateChanged(.off)
                h.statusChanged("Bluetooth adapter hci0 gone since 2024-05-01T09:41:00 (removed)")
                h.adapterChanged(false)
                look("lost")
            }
            loop.schedule(after: .milliseconds(1400)) {
                h.adapterChanged(true)
                h.stateChanged(.advertising)
                look("back")
            }
            loop.schedule(after: .milliseconds(1900)) { h.failed(why) }
        }
        var options = WatchDaemon.Options()
        options.systemdNotify = (receiver.path, .milliseconds(100))
        let board = BoardLoader.builtInSimulated
        options.keepsDoNotDisturb = false  // the state directory is not the test's
        daemon = WatchDaemon(
            board: board, logger: Logger(label: "test", sink: .discarding), options: options,
            devices: BoardDevicesFactory { context in
                ScriptedLinkDevices(
                    base: SimulatedBoardDevices(board: context.board, loop: context.loop, sockets: UnixLocalSockets(), logger: context.logger),
                    loop: context.loop, script: script)
            })
        var failure: WristCoreFailure?
        do { try daemon.run(on: loop) } catch { failure = error }
        messages += receiver.drain()

        #expect(failure?.message == why)
        #expect(failure?.exitCode == WristCoreExit.runtimeFailure)
        #expect(messages.first == "READY=1\nSTATUS=running on \(board.name)" || messages.first == "READY=1\nSTATUS=advertising as \"WristCore\" on hci0")
        let lost = try #require(messages.firstIndex(of: "WATCHDOG=1\nWATCHDOG_USEC=135000000"), "\(messages)")
        let back = try #require(messages.firstIndex(of: "WATCHDOG=1\nWATCHDOG_USEC=100000"), "\(messages)")
        #expect(lost < back)
        #expect(messages[..<lost].contains("WATCHDOG=1"))  // pinging while healthy
        #expect(!messages[(lost + 1)..<back].contains("WATCHDOG=1"), "pinged while the adapter was gone: \(messages)")
        #expect(messages[..<back].contains("STATUS=Bluetooth adapter hci0 gone since 2024-05-01T09:41:00 (removed)"))
        #expect(messages[(back + 1)...].contains("WATCHDOG=1"))  // pinging again
        #expect(messages.last == "STOPPING=1")
        #expect(seen["lost"]?.0 == .message("Bluetooth adapter gone"))
        #expect(seen["lost"]?.1 == .off)
        #expect(seen["back"]?.0 == .message("Bluetooth adapter back"))
        #expect(seen["back"]?.1 == .advertising)
    }
}
