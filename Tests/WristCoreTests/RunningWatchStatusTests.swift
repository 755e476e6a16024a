import BoardConfig
import Glibc
import HAL
import LinuxHAL
import LinuxLoop
import Log
import Loop
import SimBoard
import Testing
@testable import LinuxBoard
@testable import WristCore

/// Issue 25 item 1: the causes the Status screen explains reach
/// `wristcore doctor` on a running watch, through the status file the
/// daemon keeps in its runtime directory (and STATUS=).
@Suite struct RunningWatchStatusTests {
    static func directory() -> String {
        let d = "/tmp/wristcore-status-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        mkdir(d, 0o700)
        return d
    }

    @Test func theFileRoundTripsAndAnythingElseIsRefused() throws {
        let report = RunningWatchStatus.Report(pid: 4242, status: "advertising as \"WristCore\" on hci0", causes: [
            .init(name: "notPaired", words: "no phone is paired: tap it"),
            .init(name: "silent", words: "3 notifications came Silent"),
        ])
        let text = String(decoding: report.bytes, as: UTF8.self)
        #expect(text == "pid 4242\nstatus advertising as \"WristCore\" on hci0\ncause notPaired no phone is paired: tap it\ncause silent 3 notifications came Silent\n")
        #expect(RunningWatchStatus.Report(parsing: report.bytes) == report)
        // A line break inside a field cannot forge a line.
        let forged = RunningWatchStatus.Report(pid: 1, status: "ok\ncause x y", causes: [])
        #expect(RunningWatchStatus.Report(parsing: forged.bytes)?.causes == [])
        for bad in ["", "pid 12\n", "status x\n", "pid x\nstatus y\n", "pid 0\nstatus y\n", "pid 1\npid 2\nstatus y\n",
                    "pid 1\nstatus y\nwhat z\n", "pid 1\nstatus y\ncause nowords\n", "pid 12345678901\nstatus y\n"] {
            #expect(RunningWatchStatus.Report(parsing: Array(bad.utf8)) == nil, "\(bad)")
        }
        #expect(RunningWatchStatus.Report(parsing: [UInt8](repeating: 0x41, count: RunningWatchStatus.maxBytes + 1)) == nil)
    }

    @Test func writtenAtomicallyReadableByAllAndReadBackBounded() throws {
        let dir = Self.directory()
        defer { rmdir(dir) }
        let path = dir + "/status"
        defer { unlink(path) }
        #expect(try RunningWatchStatus.read(at: path) == nil)
        let report = RunningWatchStatus.Report(pid: getpid(), status: "running", causes: [.init(name: "adapterGone", words: "gone")])
        try RunningWatchStatus.write(report, to: path)
        var st = stat()
        #expect(stat(path, &st) == 0 && st.st_mode & 0o777 == 0o644)
        #expect(try RunningWatchStatus.read(at: path) == report)
        #expect(RunningWatchStatus.isRunning(getpid()))
        // Something else at the path: refused with what it is.
        try FileBytes.write(Array("hello\n".utf8), to: path)
        #expect(throws: HALError.self) { try RunningWatchStatus.read(at: path) }
    }

    @Test func doctorSaysWhatTheRunningWatchSays() throws {
        let system = FakeDoctorSystem()
        let board = DoctorTests().board
        // None running: nothing said.
        #expect(Doctor(board: board, system: system).check().lines == DoctorTests.healthy)
        #expect(system.watchStatusPaths == ["/run/wristcore/status"])
        system.watchStatus = .success(RunningWatchStatus.Report(pid: 77, status: "advertising as \"WristCore\" on hci0", causes: [
            .init(name: "notPaired", words: "no phone is paired: on the phone, Settings > Bluetooth, tap the watch's name"),
        ]))
        system.runningPIDs = [77]
        var report = Doctor(board: board, system: system).check()
        #expect(Array(report.lines.suffix(2)) == [
            "ok    running watch (pid 77): advertising as \"WristCore\" on hci0",
            "WARN  running watch: no phone is paired: on the phone, Settings > Bluetooth, tap the watch's name",
        ])
        #expect(!report.failed)
        system.runningPIDs = []
        report = Doctor(board: board, system: system).check()
        #expect(report.lines.last == "WARN  /run/wristcore/status names pid 77, which is not running: the service stopped without removing it (systemd removes it on a clean stop)")
        system.watchStatus = .failure(HALError(operation: "read /run/wristcore/status", errno: EINVAL, reason: "not a watch's status file (pid, status, cause lines)"))
        report = Doctor(board: board, system: system, runtimeDirectory: "/run/other").check()
        #expect(report.lines.last?.hasPrefix("WARN  running watch: read /run/wristcore/status") == true)
        #expect(system.watchStatusPaths.last == "/run/other/status")
    }

    /// The daemon end to end: a link that keeps bonds says none is stored,
    /// then the adapter goes: STATUS= and the status file name each cause,
    /// the live doctor reads them, and a clean stop removes the file.
    @Test func theDaemonWritesItsCausesAndDoctorReadsThem() throws {
        let dir = Self.directory()
        defer { rmdir(dir) }
        let path = dir + "/status"
        let receiver = AdapterLossDaemonTests.NotifyReceiver()
        let loop = try EpollLoop()
        var messages: [String] = []
        _ = try loop.addSource(fd: receiver.fd, events: .readable) { _ in messages += receiver.drain() }
        var files: [String: RunningWatchStatus.Report?] = [:]
        var doctor: [String: [String]] = [:]
        let board = BoardLoader.builtInSimulated
        func look(_ when: String) {
            files[when] = try? RunningWatchStatus.read(at: path)
            var r = Doctor.Report()
            Doctor(board: board, system: LiveDoctorSystem(), runtimeDirectory: dir).checkRunningWatch(&r)
            doctor[when] = r.lines
        }
        let script: (PhoneLinkHandlers) -> Void = { h in
            h.statusChanged("advertising as \"WristCore\" on hci0")
            h.stateChanged(.advertising)
            h.pairedChanged(false)
            loop.schedule(after: .milliseconds(400)) {
                look("unpaired")
                h.stateChanged(.off)
                h.adapterChanged(false)
            }
            loop.schedule(after: .milliseconds(800)) {
                look("gone")
                loop.shutdown()
            }
        }
        var options = WatchDaemon.Options()
        options.systemdNotify = (receiver.path, .milliseconds(100))
        options.runningStatusPath = path
        options.keepsDoNotDisturb = false  // the state directory is not the test's
        let daemon = WatchDaemon(
            board: board, logger: Logger(label: "test", sink: .discarding), options: options,
            devices: BoardDevicesFactory { context in
                AdapterLossDaemonTests.ScriptedLinkDevices(
                    base: SimulatedBoardDevices(board: context.board, loop: context.loop, sockets: UnixLocalSockets(), logger: context.logger),
                    loop: context.loop, script: script)
            })
        try daemon.run(on: loop)
        messages += receiver.drain()

        let unpaired = try #require(files["unpaired"] ?? nil)
        #expect(unpaired.pid == getpid())
        #expect(unpaired.causes.map(\.name) == ["notPaired"])
        #expect(unpaired.status.contains("no phone is paired"))
        #expect(doctor["unpaired"] == [
            "ok    running watch (pid \(getpid())): \(unpaired.status)",
            "WARN  running watch: no phone is paired: on the phone, Settings > Bluetooth, tap the watch's name",
        ])
        let gone = try #require(files["gone"] ?? nil)
        #expect(gone.causes.map(\.name) == ["adapterGone"])
        #expect(doctor["gone"]?.last == "WARN  running watch: the Bluetooth adapter is gone: waiting for it (check its USB connection, 'dmesg')")
        #expect(messages.contains { $0.hasPrefix("STATUS=") && $0.contains("no phone is paired") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("STATUS=") && $0.contains("the Bluetooth adapter is gone") }, "\(messages)")
        // A clean stop takes it away (systemd would remove the directory too).
        #expect(access(path, F_OK) != 0)
    }
}
