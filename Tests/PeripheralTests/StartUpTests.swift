import HAL
import LinuxHAL
import LinuxLoop
import Loop
import Peripheral
import Testing
@testable import Peripheral

/// Start-up reports through its completion, from the loop: never from inside
/// `start`, never by running a loop of its own.
extension PeripheralTests {
    @Test func startUpCompletesThroughTheCompletion() throws {
        let p = makePeripheral()
        var outcomes: [Result<Void, BluetoothError>] = []
        p.start { outcomes.append($0) }
        #expect(outcomes.isEmpty)
        #expect(fake.commands.isEmpty)  // nothing ran yet: the test is the loop
        rig.pump { !outcomes.isEmpty }
        guard outcomes.count == 1, case .success = outcomes[0] else {
            Issue.record("expected one success, got \(outcomes)")
            return
        }
        #expect(p.state == .advertising)
        rig.pump()
        #expect(outcomes.count == 1)
    }

    @Test func startUpTimesOutWhileSettingUp() throws {
        fake.silent = [.readControllerInfo]
        let p = makePeripheral(startTimeout: .seconds(2))  // shorter than the mgmt command timeout (5 s)
        var outcome: Result<Void, BluetoothError>?
        p.start { outcome = $0 }
        rig.pump()
        #expect(outcome == nil)
        loop.advance(by: .milliseconds(1999))
        #expect(outcome == nil)
        loop.advance(by: .milliseconds(1))
        guard case .failure(let e) = outcome else {
            Issue.record("no timeout: \(String(describing: outcome))")
            return
        }
        #expect(e.message == "timed out trying to set up hci0")
        #expect(e.hint!.contains("dmesg"))
        #expect(!fake.watchEnd.isOpen)
        #expect(!listener.closed)  // never opened
        #expect(loop.armedTimerCount == 0)
        #expect(p.state == .stopped)
    }

    @Test func startUpTimesOutWhileStartingToAdvertise() throws {
        fake.silent = [.addAdvertising]
        let p = makePeripheral(startTimeout: .seconds(2))
        var outcomes: [Result<Void, BluetoothError>] = []
        p.start { outcomes.append($0) }
        rig.pump { fake.commands(.addAdvertising).count == 1 }
        #expect(outcomes.isEmpty)
        loop.advance(by: .seconds(2))
        guard outcomes.count == 1, case .failure(let e) = outcomes[0] else {
            Issue.record("expected one failure, got \(outcomes)")
            return
        }
        #expect(e.message == "timed out trying to start advertising")
        #expect(listener.closed)
        #expect(!fake.watchEnd.isOpen)
        loop.advance(by: .seconds(10))  // the mgmt command timeout finds nothing to complete
        #expect(outcomes.count == 1)
    }

    @Test func stopDuringStartUpCancelsIt() throws {
        let p = makePeripheral()
        var called = false
        p.start { _ in called = true }
        rig.pump { fake.commands.count == 3 }
        p.stop()
        rig.pump()
        loop.advance(by: .seconds(60))
        #expect(!called)
        #expect(!fake.watchEnd.isOpen)
        #expect(fake.commands(.removeAdvertising).isEmpty)  // never advertised
        #expect(p.state == .stopped)

        // Also a failure found before any command, whose report waits for the loop.
        let refused = makePeripheral(bluetoothd: true)
        var reported = false
        refused.start { _ in reported = true }
        refused.stop()
        loop.runDeferred()
        #expect(!reported)
    }

    @Test func unreadableBondStoreFailsStartUpWithTheDirectory() throws {
        let files = InMemoryStateFiles()
        files.readFailure = HALError(operation: "open /state/bonds", errno: 13, reason: "Permission denied")
        let p = makePeripheral(keyStore: BondStore(directory: "/state", files: files))
        let e = try #require(startFailure(p))
        #expect(e.message == "cannot read the bond store: open /state/bonds: Permission denied")
        #expect(e.hint == "the state directory (/state) and its files must be readable and writable by the watch's user: 'sudo chown -R wristcore:wristcore /state' (or the user the daemon runs as)")
        #expect(fake.commands.isEmpty)
    }

    @Test func theWatchIdentityKeyIsKeptInTheStore() throws {
        let files = InMemoryStateFiles()
        let p = makePeripheral(keyStore: BondStore(directory: "/state", files: files))
        try started(p)
        let saved = try #require(files.files["/state/bonds"])
        #expect(saved.mode == 0o600 && files.directories["/state"] == 0o700)
        let irk = try #require(try BondStore.decode(saved.bytes).get().localIRK)
        #expect(fake.commands(.setPrivacy).first?.parameters == [1] + irk)
    }
}

/// The daemon's way: `EpollLoop.run()` drives start-up, and the completion,
/// called from inside that run, stops it.
@Suite struct RealLoopStartUpTests {
    @Test func startUpCompletesInsideTheRunningLoop() throws {
        let loop = try EpollLoop()
        let fake = try FakeManagementPeer(loop: loop)
        let listener = try FakeListener()
        let state = TemporaryDirectory()
        let management = fake.watchEnd
        let p = BluetoothPeripheral(
            hciIndex: 0, name: "WristCore", ioCapability: .displayYesNo,
            keyStore: BondStore(directory: state.path, files: AtomicFileStore()), loop: loop, logger: quietLogger,
            bluetoothdRunning: { false },
            transports: { () throws(HALError) in .init(management: management, makeListener: { _ throws(HALError) in listener }) })
        var outcome: Result<Void, BluetoothError>?
        p.start { result in
            outcome = result
            loop.stop()
        }
        #expect(outcome == nil)
        let guardTimer = loop.schedule(after: .seconds(10)) { loop.stop() }
        try loop.run()
        loop.destroyTimer(guardTimer)
        guard case .success = outcome else {
            Issue.record("start-up did not complete: \(String(describing: outcome))")
            return
        }
        #expect(p.state == .advertising)
        #expect(fake.commands(.addAdvertising).count == 1)
        p.stop()
    }
}
