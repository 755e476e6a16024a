import Glibc
import HAL
import LinuxHAL
import Log
import Loop
import Peripheral
import Testing
@testable import Peripheral

/// Issue 14.4: a full disk during pairing lost the key with nothing but
/// `disconnected: unspecified` in the log. Now the failure is logged with the
/// fix, reported once through `onBondSaveFailed` (the watch shows it), and
/// the key is written again once there is space.
extension PeripheralTests {
    static let noSpace = HALError(operation: "write /state/bonds.tmp", errno: 28, reason: "No space left on device")

    func pairingEvents(_ address: BluetoothAddress) -> (ltk: [UInt8], irk: [UInt8], key: LongTermKey, identity: IdentityResolvingKey) {
        let key = ltk(address)
        var ltkEvent: [UInt8] = [1]
        key.encode(into: &ltkEvent)
        let irk = IdentityResolvingKey(address: address, addressType: .lePublic, value: Array(0x30...0x3F))
        var irkEvent: [UInt8] = [1] + BluetoothAddress("5A:11:22:33:44:55")!.wireBytes
        irk.encode(into: &irkEvent)
        return (ltkEvent, irkEvent, key, irk)
    }

    @Test func aBondThatCannotBeSavedIsLoggedReportedAndRetried() throws {
        let files = InMemoryStateFiles()
        let log = LogRecorder()
        let keys = BondStore(directory: "/state", files: files)
        let p = makePeripheral(keyStore: keys, logger: log.logger)
        var failures: [BondSaveFailure] = []
        p.onBondSaveFailed = { failures.append($0) }
        try started(p)  // the watch's own IRK is written while there is space
        rig.offer(try FakeLink(peer: phone))
        rig.pump { p.link != nil }

        files.writeFailure = Self.noSpace  // the disk is full
        let events = pairingEvents(phone)
        fake.send(.newLongTermKey, events.ltk)
        fake.send(.newIdentityResolvingKey, events.irk)
        rig.pump { p.hasUnsavedBonds && failures.count == 1 && log.lines.contains { $0.hasPrefix("error: bond could not be saved") } }
        rig.pump()
        #expect(failures.count == 1, "one report per phone, not one per key")
        let failure = try #require(failures.first)
        #expect(failure.address == phone && failure.isOutOfSpace)
        #expect(failure.notice == "Bond not saved: disk full. Free space or pair again after a restart")
        #expect(failure.description == "bond could not be saved: disk full (write /state/bonds.tmp: No space left on device)")
        let errors = log.lines.filter { $0.hasPrefix("error:") }
        #expect(errors == [
            "error: bond could not be saved: the key of F0:99:B6:12:34:56 was not written (write /state/bonds.tmp: No space left on device). "
                + "The phone stays connected, but if the watch restarts before the key is saved the phone will need to pair again "
                + "(on the iPhone: Settings > Bluetooth, forget the watch, then connect). Fix: the filesystem holding /state is full: "
                + "free some space ('df -h /state'; e.g. 'sudo journalctl --vacuum-size=50M', 'sudo apt-get clean', or delete old files). "
                + "The watch retries saving it on its own.",
        ])
        #expect(!keys.isBonded(phone))

        // Still full a minute later: tried again, not reported again.
        loop.advance(by: .seconds(60))
        rig.pump()
        #expect(failures.count == 1 && p.hasUnsavedBonds)

        // Space freed: the next retry writes both keys.
        files.writeFailure = nil
        loop.advance(by: .seconds(60))
        rig.pump { !p.hasUnsavedBonds }
        #expect(!p.hasUnsavedBonds)
        let saved = try BondStore.decode(try #require(files.files["/state/bonds"]).bytes).get()
        #expect(saved.longTermKeys == [events.key] && saved.irks == [events.identity])
        #expect(log.lines.contains("notice: bond with F0:99:B6:12:34:56 saved after all (/state/bonds): the phone reconnects after a restart"))
        loop.advance(by: .seconds(600))
        rig.pump()
        #expect(failures.count == 1)
    }

    @Test func aKeyThatWasNeverSavedIsDroppedWhenThePhoneIsUnpaired() throws {
        let files = InMemoryStateFiles()
        let p = makePeripheral(keyStore: BondStore(directory: "/state", files: files))
        var failures: [BondSaveFailure] = []
        p.onBondSaveFailed = { failures.append($0) }
        try started(p)
        files.writeFailure = HALError(operation: "write /state/bonds.tmp", errno: 122, reason: "Disk quota exceeded")
        fake.send(.newLongTermKey, pairingEvents(phone).ltk)
        rig.pump { p.hasUnsavedBonds }
        #expect(failures.map(\.isOutOfSpace) == [true])
        fake.send(.deviceUnpaired, phone.wireBytes + [1])
        rig.pump { !p.hasUnsavedBonds }
        #expect(!p.hasUnsavedBonds)
        files.writeFailure = nil
        loop.advance(by: .seconds(60))
        rig.pump()
        let saved = try BondStore.decode(try #require(files.files["/state/bonds"]).bytes).get()
        #expect(saved.longTermKeys.isEmpty)
    }

    @Test func otherSaveFailuresSayWhatToFix() {
        let denied = BondSaveFailure(
            address: phone, error: HALError(operation: "create /state/bonds.tmp", errno: 13, reason: "Permission denied"), directory: "/state")
        #expect(denied.notice == "Bond not saved: no permission. Fix it or pair again after a restart")
        #expect(denied.logMessage.contains("Fix: /state and its files must belong to the watch's user: 'sudo chown -R wristcore:wristcore /state'"))
        let readOnly = BondSaveFailure(
            address: phone, error: HALError(operation: "create /state/bonds.tmp", errno: 30, reason: "Read-only file system"), directory: "/state")
        #expect(readOnly.shortReason == "read-only disk")
        let refused = BondSaveFailure(
            address: phone,
            error: HALError(operation: "use the state directory /state", errno: 0, reason: "it is world-writable (owner root (uid 0), mode 0777): another user could replace the bond file", hint: "'sudo chmod 700 /state'"),
            directory: "/state")
        #expect(refused.logMessage.contains("Fix: 'sudo chmod 700 /state'."))
    }

    /// A full disk at the first start (the watch's own IRK cannot be stored) says so.
    @Test func aFullDiskAtTheFirstStartSaysHowToFreeSpace() throws {
        let files = InMemoryStateFiles()
        files.writeFailure = Self.noSpace
        let p = makePeripheral(keyStore: BondStore(directory: "/state", files: files))
        let e = try #require(startFailure(p))
        #expect(e.message == "cannot store the watch's identity key: write /state/bonds.tmp: No space left on device")
        #expect(e.hint?.hasPrefix("the filesystem holding /state is full: free some space ('df -h /state'") == true)
    }
}
