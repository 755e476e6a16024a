import BoardConfig
import HAL
import LinuxBoard
import LinuxHAL
import Log
import Loop
import Peripheral
import Testing
import WatchFiles
@testable import Peripheral

/// The peripheral against a scripted mgmt peer and fake L2CAP links over
/// socket pairs, on a `ManualLoop` (the test plays epoll with `pump` and
/// moves time with `advance`); bonds in a real temporary directory.
@Suite struct PeripheralTests {
    let rig: ManualRig
    var loop: ManualLoop { rig.loop }
    var fake: FakeManagementPeer { rig.fake }
    var listener: FakeListener { rig.listener }
    let state: TemporaryDirectory
    let store: BondStore
    let phone = BluetoothAddress("F0:99:B6:12:34:56")!

    init() throws {
        rig = try ManualRig()
        state = TemporaryDirectory()
        store = BondStore(directory: state.path, files: AtomicFileStore())
    }

    func makePeripheral(
        io: IOCapability = .displayYesNo, bluetoothd: Bool = false, privacy: Bool = true,
        startTimeout: Duration = .seconds(15), keyStore: BondStore? = nil, logger: Logger = quietLogger
    ) -> BluetoothPeripheral {
        var options = BluetoothPeripheral.Options()
        options.privacy = privacy
        options.startTimeout = startTimeout
        let management = fake.watchEnd
        let listener = self.listener
        return BluetoothPeripheral(
            hciIndex: 0, name: "WristCore", ioCapability: io, keyStore: keyStore ?? store, loop: loop,
            logger: logger, options: options, bluetoothdRunning: { bluetoothd },
            transports: { () throws(HALError) in .init(management: management, makeListener: { _ throws(HALError) in listener }) })
    }

    /// Starts `p` and plays the loop until start-up has ended; its outcome
    /// (nil: still starting). The completion never runs inside `start`.
    func start(_ p: BluetoothPeripheral) -> Result<Void, BluetoothError>? {
        var outcome: Result<Void, BluetoothError>?
        p.start { outcome = $0 }
        #expect(outcome == nil, "the completion ran inside start()")
        rig.pump { outcome != nil }
        return outcome
    }

    func started(_ p: BluetoothPeripheral) throws {
        let outcome = start(p)
        guard case .success = outcome else {
            Issue.record("start-up did not succeed: \(String(describing: outcome))")
            throw BluetoothError("start-up failed")
        }
    }

    func startFailure(_ p: BluetoothPeripheral) -> BluetoothError? {
        guard case .failure(let e) = start(p) else { return nil }
        return e
    }

    func ltk(_ address: BluetoothAddress, fill: UInt8 = 0xA0) -> LongTermKey {
        LongTermKey(address: address, addressType: .lePublic, keyType: 3, central: false, encryptionSize: 16,
                    ediv: 0, rand: 0, value: [UInt8](repeating: fill, count: 16))
    }

    @Test func setUpSequenceThenAdvertising() throws {
        try store.store(ltk(phone))
        let p = makePeripheral()
        var states: [BluetoothPeripheral.State] = []
        p.onStateChange = { states.append($0) }
        try started(p)
        let expected: [ManagementOpcode] = [
            .readControllerInfo, .setPowered, .setLowEnergy, .setBREDR, .setBondable, .setConnectable,
            .setSecureConnections, .setIOCapability, .setPrivacy, .setLocalName, .loadLongTermKeys,
            .loadIdentityResolvingKeys, .setPowered, .addAdvertising,
        ]
        #expect(fake.opcodes == expected.map(\.rawValue))
        #expect(fake.commands.allSatisfy { $0.index == 0 })
        let params = fake.commands.map(\.parameters)
        #expect(params[1] == [0] && params[2] == [1] && params[3] == [0] && params[4] == [1] && params[5] == [1])
        #expect(params[6] == [1])  // Secure Connections on
        #expect(params[7] == [IOCapability.displayYesNo.rawValue])
        #expect(params[8] == [1] + (store.localIRK ?? []))
        #expect(params[10] == LoadLongTermKeys([ltk(phone)]).encodeParameters())
        #expect(params[11] == [0, 0])
        #expect(params[12] == [1])
        #expect(params[13] == AdvertisingPayload(name: "WristCore").command.encodeParameters())
        #expect(fake.settings.isSuperset(of: [.powered, .lowEnergy, .bondable, .connectable, .secureConnections, .privacy]))
        #expect(!fake.settings.contains(.bredr))
        #expect(states == [.advertising])
        #expect(AtomicFile.mode(of: store.path) == 0o600)
        #expect(loop.armedTimerCount == 0)  // the start-up timeout was cancelled
    }

    @Test func leOnlyControllerWithoutPrivacySkipsThoseSteps() throws {
        fake.info.supportedSettings = [.powered, .connectable, .bondable, .lowEnergy, .secureConnections]
        fake.statuses[.setSecureConnections] = .notSupported
        let p = makePeripheral(io: .noInputNoOutput, privacy: false)
        try started(p)
        #expect(!fake.opcodes.contains(ManagementOpcode.setBREDR.rawValue))
        #expect(!fake.opcodes.contains(ManagementOpcode.setPrivacy.rawValue))
        #expect(fake.commands(.setIOCapability).first?.parameters == [3])
        #expect(p.state == .advertising)
    }

    @Test func bluetoothdRunningIsRefusedWithTheFix() throws {
        let p = makePeripheral(bluetoothd: true)
        var outcome: Result<Void, BluetoothError>?
        p.start { outcome = $0 }
        #expect(outcome == nil)  // reported from the loop, not from inside start()
        loop.runDeferred()
        guard case .failure(let e) = outcome else {
            Issue.record("not refused: \(String(describing: outcome))")
            return
        }
        #expect(e.message == "bluetoothd is running and owns the Bluetooth adapter")
        #expect(e.hint!.contains("sudo systemctl disable --now bluetooth.service") && e.hint!.contains("Conflicts=bluetooth.service"))
        rig.pump()
        #expect(fake.commands.isEmpty)
    }

    @Test func busyControllerSaysBluetoothdHoldsIt() throws {
        fake.statuses[.setPowered] = .busy
        let p = makePeripheral()
        let e = try #require(startFailure(p))
        #expect(e.status == .busy && e.message == "Set Powered on hci0 failed: Busy" && e.hint!.contains("systemctl disable --now bluetooth"))
        #expect(listener.closed == false)  // never opened
        #expect(!fake.watchEnd.isOpen)  // the mgmt socket was closed again
        #expect(p.state == .stopped)
    }

    @Test func controllerWithoutLowEnergyIsRefused() throws {
        fake.info.supportedSettings = [.powered, .bredr]
        let p = makePeripheral()
        #expect(startFailure(p) != nil)
        #expect(fake.opcodes == [ManagementOpcode.readControllerInfo.rawValue])
    }

    @Test func missingAdapter() throws {
        fake.statuses[.readControllerInfo] = .invalidIndex
        let p = makePeripheral()
        let e = try #require(startFailure(p))
        #expect(e.hint!.contains("ls /sys/class/bluetooth"))
    }

    @Test func onePhoneAtATimeAndAdvertiseAgainAfterDisconnect() throws {
        let p = makePeripheral()
        var connections: [BluetoothAddress] = []
        var reasons: [DisconnectReason] = []
        p.onConnection = { connections.append($0.peerAddress) }
        p.onDisconnected = { reasons.append($0) }
        try started(p)
        let first = try FakeLink(peer: phone)
        rig.offer(first)
        rig.pump { p.link != nil && fake.commands(.removeAdvertising).count == 1 }
        #expect(connections == [phone])
        #expect(p.state == .connected(phone))
        #expect(first.requested.isEmpty)  // not bonded: the phone decides when to pair

        let second = try FakeLink(peer: BluetoothAddress("11:22:33:44:55:66")!)
        rig.offer(second)
        rig.pump { !second.isOpen }
        #expect(!second.isOpen)
        #expect(connections == [phone])

        fake.send(.deviceDisconnected, phone.wireBytes + [1, DisconnectReason.connectionTimeout.rawValue])
        rig.pump { fake.commands(.addAdvertising).count == 2 && p.state == .advertising }
        #expect(reasons == [.connectionTimeout])
        #expect(p.link == nil)
        #expect(p.state == .advertising)
    }

    @Test func numericComparisonConfirmedThenBonded() throws {
        let p = makePeripheral()
        var shown: [UInt32] = []
        var ended: [Bool] = []
        p.onPairingRequest = { shown.append($0) }
        p.onPairingEnded = { ended.append($0) }
        try started(p)
        rig.offer(try FakeLink(peer: phone))
        rig.pump { p.link != nil }
        // 123456 = 0x0001E240
        fake.send(.userConfirmationRequest, phone.wireBytes + [1, 0, 0x40, 0xE2, 0x01, 0x00])
        rig.pump { !shown.isEmpty }
        #expect(shown == [123456])
        #expect(PairingDialog.sixDigits(42) == "000042")
        p.confirmPairing(true)
        rig.pump { !fake.commands(.userConfirmationReply).isEmpty }
        #expect(fake.commands(.userConfirmationReply).first?.parameters == phone.wireBytes + [1])
        #expect(ended == [true])

        var event: [UInt8] = [1]
        ltk(phone).encode(into: &event)
        fake.send(.newLongTermKey, event)
        let irk = IdentityResolvingKey(address: phone, addressType: .lePublic, value: Array(0x30...0x3F))
        var irkEvent: [UInt8] = [1] + BluetoothAddress("5A:11:22:33:44:55")!.wireBytes
        irk.encode(into: &irkEvent)
        fake.send(.newIdentityResolvingKey, irkEvent)
        rig.pump { store.irks.count == 1 }
        #expect(store.longTermKeys == [ltk(phone)])
        #expect(store.irks == [irk])
        let reloaded = BondStore(directory: state.path, files: AtomicFileStore())
        #expect(try reloaded.load() == .loaded(bonds: 1))
        #expect(reloaded.longTermKeys == [ltk(phone)] && reloaded.irks == [irk])
    }

    @Test func unansweredPairingIsRejectedAfterTheTimeout() throws {
        let p = makePeripheral()
        var shown: [UInt32] = []
        var ended: [Bool] = []
        p.onPairingRequest = { shown.append($0) }
        p.onPairingEnded = { ended.append($0) }
        try started(p)
        fake.send(.userConfirmationRequest, phone.wireBytes + [1, 0, 0x40, 0xE2, 0x01, 0x00])
        rig.pump { !shown.isEmpty }
        loop.advance(by: .seconds(29))
        #expect(ended.isEmpty)
        loop.advance(by: .seconds(1))
        rig.pump { !fake.commands(.userConfirmationNegativeReply).isEmpty }
        #expect(fake.commands(.userConfirmationNegativeReply).first?.parameters == phone.wireBytes + [1])
        #expect(ended == [false])
        p.confirmPairing(true)  // too late: ignored
        rig.pump()
        #expect(fake.commands(.userConfirmationReply).isEmpty)
    }

    @Test func justWorksIsAcceptedWithoutAsking() throws {
        let p = makePeripheral(io: .noInputNoOutput)
        var asked = false
        p.onPairingRequest = { _ in asked = true }
        try started(p)
        fake.send(.userConfirmationRequest, phone.wireBytes + [1, 1, 0, 0, 0, 0])
        rig.pump { !fake.commands(.userConfirmationReply).isEmpty }
        #expect(!asked)
        #expect(fake.commands(.userConfirmationReply).count == 1)
    }

    @Test func bondedPhoneIsAskedToEncryptAndEncryptionIsReported() throws {
        try store.store(ltk(phone))
        let p = makePeripheral()
        var states: [BluetoothPeripheral.State] = []
        p.onStateChange = { states.append($0) }
        try started(p)
        let link = try FakeLink(peer: phone)
        rig.offer(link)
        rig.pump { p.link != nil }
        #expect(link.requested == [.encrypted])
        link.completedLevel = .authenticated  // the kernel finished: the socket is writable again
        rig.pump { p.state == .encrypted(phone, .authenticated) }
        #expect(states == [.advertising, .connected(phone), .encrypted(phone, .authenticated)])
    }

    @Test func staleBondIsRemovedAndReported() throws {
        try store.store(ltk(phone))
        let other = BluetoothAddress("11:22:33:44:55:66")!
        try store.store(ltk(other, fill: 0xB0))
        let p = makePeripheral()
        var stale: [BluetoothAddress] = []
        p.onStaleBond = { stale.append($0) }
        try started(p)
        let link = try FakeLink(peer: phone)
        rig.offer(link)
        rig.pump { p.link != nil }
        fake.send(.authenticationFailed, phone.wireBytes + [1, ManagementStatus.authenticationFailed.rawValue])
        rig.pump { !fake.commands(.unpairDevice).isEmpty }
        #expect(stale == [phone])
        #expect(link.failedRequests == 1)
        #expect(!store.isBonded(phone) && store.isBonded(other))
        #expect(fake.commands(.unpairDevice).first?.parameters == phone.wireBytes + [1, 0])
        let reloaded = BondStore(directory: state.path, files: AtomicFileStore())
        try reloaded.load()
        #expect(reloaded.bondedPeers.map(\.address) == [other])
    }

    /// The Status screen's "Not paired" (issue 25 item 1): whether some
    /// phone is bonded, at start-up, after a new key, after a stale bond.
    @Test func whetherAPhoneIsPairedIsReportedAtStartAndWhenBondsChange() throws {
        let p = makePeripheral()
        var paired: [Bool] = []
        p.onPairedChanged = { paired.append($0) }
        try started(p)
        #expect(paired == [false])
        rig.offer(try FakeLink(peer: phone))
        rig.pump { p.link != nil }
        var event: [UInt8] = [1]
        ltk(phone).encode(into: &event)
        fake.send(.newLongTermKey, event)
        rig.pump { paired.count == 2 }
        #expect(paired == [false, true])
        fake.send(.authenticationFailed, phone.wireBytes + [1, ManagementStatus.authenticationFailed.rawValue])
        rig.pump { paired.count == 3 }
        #expect(paired == [false, true, false])
    }

    @Test func userRejectionDoesNotCountAsStaleBond() throws {
        try store.store(ltk(phone))
        let p = makePeripheral()
        var stale: [BluetoothAddress] = []
        var shown: [UInt32] = []
        p.onStaleBond = { stale.append($0) }
        p.onPairingRequest = { shown.append($0) }
        try started(p)
        rig.offer(try FakeLink(peer: phone))
        rig.pump { p.link != nil }
        fake.send(.userConfirmationRequest, phone.wireBytes + [1, 0, 1, 0, 0, 0])
        rig.pump { !shown.isEmpty }
        p.confirmPairing(false)
        fake.send(.authenticationFailed, phone.wireBytes + [1, ManagementStatus.authenticationFailed.rawValue])
        rig.pump { !fake.commands(.userConfirmationNegativeReply).isEmpty }
        rig.pump()
        #expect(stale.isEmpty)
        #expect(store.isBonded(phone))
    }

    @Test func stopRemovesAdvertisingAndClosesTheListener() throws {
        let p = makePeripheral()
        try started(p)
        p.stop()
        #expect(listener.closed)
        #expect(p.state == .stopped)
        #expect(!fake.watchEnd.isOpen)
        #expect(loop.sourceCount == 1)  // only the fake kernel's own
        // Written before the socket closed; the kernel reads it after.
        rig.pump()
        #expect(fake.commands(.removeAdvertising).first?.parameters == [0])
    }

    @Test func ioCapabilityFollowsTheBoard() throws {
        let board = try BoardLoader.load(argument: "sim")
        #expect(BluetoothPeripheral.ioCapability(for: board) == (board.buttons.count >= 2 ? .displayYesNo : .noInputNoOutput))
        var none = board
        none.buttons = []
        #expect(BluetoothPeripheral.ioCapability(for: none) == .noInputNoOutput)
    }

    @Test func disconnectBeforeTheATTChannelStillAdvertisesAgain() throws {
        let p = makePeripheral()
        var reasons: [DisconnectReason] = []
        p.onDisconnected = { reasons.append($0) }
        try started(p)
        fake.send(.deviceConnected, phone.wireBytes + [1, 0, 0, 0, 0, 0, 0])
        fake.send(.deviceDisconnected, phone.wireBytes + [1, DisconnectReason.remoteHost.rawValue])
        rig.pump { fake.commands(.addAdvertising).count == 2 }
        #expect(fake.commands(.addAdvertising).count == 2)
        #expect(reasons.isEmpty)
        #expect(p.state == .advertising)
    }
}
