import Glibc
import HAL
import LinuxHAL
import Testing

/// `FileBytes`: the one reader of files the watch did not write. A FIFO, a
/// device or an oversized file is refused at once and in one line, never
/// waited on or read without end; `RestartHandoff` carries checked bytes
/// across an exec; `SignalFD` leaves signals blocked before it blocked.
@Suite struct OutsideFileTests {
    static func scratch() -> String { FileSystemTests.scratch() }

    @Test func aFIFOIsRefusedAtOnceNotWaitedOn() throws {
        let fifo = Self.scratch() + "/settings.json"
        #expect(mkfifo(fifo, 0o600) == 0)
        // Without O_NONBLOCK the open would wait for a writer forever.
        let error = #expect(throws: HALError.self) { try FileBytes.readIfPresent(fifo, limit: 1024) }
        #expect(error?.reason == "not a regular file (FIFO)")
    }

    @Test func anEndlessDeviceIsRefusedNotRead() {
        let error = #expect(throws: HALError.self) { try FileBytes.readIfPresent("/dev/zero", limit: 1024) }
        #expect(error?.reason.hasPrefix("not a regular file") == true)
    }

    @Test func aFileOverItsKindsLimitIsRefused() throws {
        let path = Self.scratch() + "/big.json"
        try FileBytes.write([UInt8](repeating: 0x20, count: 5000), to: path)
        let error = #expect(throws: HALError.self) { try FileBytes.readIfPresent(path, limit: 4096) }
        #expect(error?.errno == EFBIG)
        #expect(try FileBytes.readIfPresent(path, limit: 5000)?.count == 5000)
    }

    @Test func procFilesThatSayZeroBytesAreReadInChunks() throws {
        let status = try #require(try FileBytes.readIfPresent("/proc/self/status", limit: 64 * 1024))
        #expect(String(decoding: status, as: UTF8.self).contains("VmRSS:"))
        #expect(throws: HALError.self) { try FileBytes.readIfPresent("/proc/self/status", limit: 16) }
    }

    @Test func absentIsNilAndADanglingSymlinkIsAProblemForGuardedFiles() throws {
        let dir = Self.scratch()
        #expect(try FileBytes.readIfPresent(dir + "/none", limit: 10) == nil)
        #expect(try FileBytes.readGuardedIfPresent(dir + "/none", limit: 10) == nil)
        #expect(symlink(dir + "/missing", dir + "/link") == 0)
        #expect(try FileBytes.readIfPresent(dir + "/link", limit: 10) == nil)
        #expect(throws: HALError.self) { try FileBytes.readGuardedIfPresent(dir + "/link", limit: 10) }
    }

    @Test func aGuardedFileOthersMayWriteIsRefused() throws {
        let dir = Self.scratch()
        let path = dir + "/settings.json"
        try FileBytes.write(Array("{}".utf8), to: path)
        #expect(chmod(path, 0o600) == 0)
        #expect(try FileBytes.readGuardedIfPresent(path, limit: 100) == Array("{}".utf8))
        #expect(chmod(path, 0o666) == 0)
        let error = #expect(throws: HALError.self) { try FileBytes.readGuardedIfPresent(path, limit: 100) }
        #expect(error?.reason.contains("chmod go-w") == true)
        #expect(chmod(path, 0o600) == 0)
        #expect(chmod(dir, 0o777) == 0)  // the state directory's rule too
        #expect(throws: HALError.self) { try FileBytes.readGuardedIfPresent(path, limit: 100) }
    }

    @Test func handedOverBytesAreTakenOnceExactly() throws {
        let bytes = Array("{ \"name\": \"board\" }".utf8)
        try RestartHandoff.hand(bytes, as: "WC_TEST_HANDOFF")
        #expect(RestartHandoff.take("WC_TEST_HANDOFF", limit: 1024) == .bytes(bytes))
        #expect(RestartHandoff.take("WC_TEST_HANDOFF", limit: 1024) == .nothing)  // once
        try RestartHandoff.hand(nil, as: "WC_TEST_HANDOFF")
        #expect(RestartHandoff.take("WC_TEST_HANDOFF", limit: 1024) == .absent)
        #expect(setenv("WC_TEST_HANDOFF", "1", 1) == 0)  // stdout is no handoff
        #expect(RestartHandoff.take("WC_TEST_HANDOFF", limit: 1024) == .nothing)
    }

    @Test func aSignalBlockedBeforeTheSignalFDStaysBlockedAndPending() throws {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGUSR2)
        var old = sigset_t()
        #expect(pthread_sigmask(SIG_BLOCK, &set, &old) == 0)
        defer {
            var none = timespec(tv_sec: 0, tv_nsec: 0)
            while sigtimedwait(&set, nil, &none) > 0 {}
            _ = pthread_sigmask(SIG_SETMASK, &old, nil)
        }
        do {
            let sfd = try SignalFD(signals: [SIGUSR2])
            _ = sfd.rawValue
        }
        // As a restart needs: raised after the loop's signalfd is gone, it waits for the next image.
        #expect(pthread_kill(pthread_self(), SIGUSR2) == 0)
        var pending = sigset_t()
        sigpending(&pending)
        #expect(sigismember(&pending, SIGUSR2) == 1)
        var now = sigset_t()
        pthread_sigmask(SIG_SETMASK, nil, &now)
        #expect(sigismember(&now, SIGUSR2) == 1)
    }
}
