import BoardConfig
import HAL
import LinuxHAL
import LinuxLoop
import Loop
import Peripheral
import Testing
@testable import BoardConfig
@testable import Peripheral

/// The peripheral against a scripted mgmt peer and fake L2CAP links, through
/// the real loop (manual clock for the pairing timeout).
@Suite struct PeripheralTests {
    let clock = ManualClock()
    let loop: EpollLoop
    let fake: FakeManagementPeer
    let listener: FakeListener
    let state: TemporaryDirectory
    let store: BondStore
    let phone = BluetoothAddress("F0:99:B6:12:34:56")!

    init() throws {
        loop = try EpollLoop(clock: .manual(clock))
        fake = try FakeManagementPeer(loop: loop)
        listener = try FakeListener()
        state = TemporaryDirectory()
        store = BondStore(directory: state.path)
    }

    func makePeripheral(io: IOCapability = .displayYesNo, bluetoothd: Bool = false, privacy: Bool = true) -> BluetoothPeripheral {
        var options = BluetoothPeripheral.Options()
        options.privacy = privacy
        let management = fake.watchEnd
        let listener = self.listener
        return BluetoothPeripheral(
            settings: BluetoothSettings(hciIndex: 0, name: "WristCore"), ioCapability: io, keyStore: store, loop: loop,
            logger: quietLogger, options: options, bluetoothdRunning: { bluetoothd },
            transports: { () throws(HALError) in .init(management: management, makeListener: { _ throws(HALError) in listener }) })
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
        try p.start()
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
    }

    @Test func leOnlyControllerWithoutPrivacySkipsThoseSteps() throws {
        fake.info.supportedSettings = [.powered, .connectable, .bondable, .lowEnergy, .secureConnections]
        fake.statuses[.setSecureConnections] = .notSupported
        let p = makePeripheral(io: .noInputNoOutput, privacy: false)
        try p.start()
        #expect(!fake.opcodes.contains(ManagementOpcode.setBREDR.rawValue))
        #expect(!fake.opcodes.contains(ManagementOpcode.setPrivacy.rawValue))
        #expect(fake.commands(.setIOCapability).first?.parameters == [3])
        #expect(p.state == .advertising)
    }

    @Test func bluetoothdRunningIsRefusedWithTheFix() throws {
        let p = makePeripheral(bluetoothd: true)
        #expect {
            try p.start()
        } throws: { error in
            let e = error as! BluetoothError
            return e.message == "bluetoothd is running and owns the Bluetooth adapter"
                && e.hint!.contains("sudo systemctl disable --now bluetooth.service") && e.hint!.contains("Conflicts=bluetooth.service")
        }
        #expect(fake.commands.isEmpty)
    }

    @Test func busyControllerSaysBluetoothdHoldsIt() throws {
        fake.statuses[.setPowered] = .busy
        let p = makePeripheral()
        #expect {
            try p.start()
        } throws: { error in
            let e = error as! BluetoothError
            return e.status == .busy && e.message == "Set Powered on hci0 failed: Busy" && e.hint!.contains("systemctl disable --now bluetooth")
        }
        #expect(listener.closed == false)  // never opened
    }

    @Test func controllerWithoutLowEnergyIsRefused() throws {
        fake.info.supportedSettings = [.powered, .bredr]
        let p = makePeripheral()
        #expect(throws: BluetoothError.self) { try p.start() }
        #expect(fake.opcodes == [ManagementOpcode.readControllerInfo.rawValue])
    }

    @Test func missingAdapter() throws {
        fake.statuses[.readControllerInfo] = .invalidIndex
        let p = makePeripheral()
        #expect {
            try p.start()
        } throws: { ($0 as! BluetoothError).hint!.contains("ls /sys/class/bluetooth") }
    }

    @Test func onePhoneAtATimeAndAdvertiseAgainAfterDisconnect() throws {
        let p = makePeripheral()
        var connections: [BluetoothAddress] = []
        var reasons: [DisconnectReason] = []
        p.onConnection = { connections.append($0.peerAddress) }
        p.onDisconnected = { reasons.append($0) }
        try p.start()
        let first = try FakeLink(peer: phone)
        listener.offer(first)
        spin(loop) { p.link != nil && fake.commands(.removeAdvertising).count == 1 }
        #expect(connections == [phone])
        #expect(p.state == .connected(phone))
        #expect(first.requested.isEmpty)  // not bonded: the phone decides when to pair

        let second = try FakeLink(peer: BluetoothAddress("11:22:33:44:55:66")!)
        listener.offer(second)
        spin(loop) { !second.isOpen }
        #expect(!second.isOpen)
        #expect(connections == [phone])

        fake.send(.deviceDisconnected, phone.wireBytes + [1, DisconnectReason.connectionTimeout.rawValue])
        spin(loop) { fake.commands(.addAdvertising).count == 2 && p.state == .advertising }
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
        try p.start()
        listener.offer(try FakeLink(peer: phone))
        spin(loop) { p.link != nil }
        // 123456 = 0x0001E240
        fake.send(.userConfirmationRequest, phone.wireBytes + [1, 0, 0x40, 0xE2, 0x01, 0x00])
        spin(loop) { !shown.isEmpty }
        #expect(shown == [123456])
        #expect(BluetoothPeripheral.sixDigits(42) == "000042")
        p.confirmPairing(true)
        spin(loop) { !fake.commands(.userConfirmationReply).isEmpty }
        #expect(fake.commands(.userConfirmationReply).first?.parameters == phone.wireBytes + [1])
        #expect(ended == [true])

        var event: [UInt8] = [1]
        ltk(phone).encode(into: &event)
        fake.send(.newLongTermKey, event)
        let irk = IdentityResolvingKey(address: phone, addressType: .lePublic, value: Array(0x30...0x3F))
        var irkEvent: [UInt8] = [1] + BluetoothAddress("5A:11:22:33:44:55")!.wireBytes
        irk.encode(into: &irkEvent)
        fake.send(.newIdentityResolvingKey, irkEvent)
        spin(loop) { store.irks.count == 1 }
        #expect(store.longTermKeys == [ltk(phone)])
        #expect(store.irks == [irk])
        let reloaded = BondStore(directory: state.path)
        #expect(try reloaded.load() == .loaded(bonds: 1))
        #expect(reloaded.longTermKeys == [ltk(phone)] && reloaded.irks == [irk])
    }

    @Test func unansweredPairingIsRejectedAfterTheTimeout() throws {
        let p = makePeripheral()
        var ended: [Bool] = []
        p.onPairingEnded = { ended.append($0) }
        try p.start()
        fake.send(.userConfirmationRequest, phone.wireBytes + [1, 0, 0x40, 0xE2, 0x01, 0x00])
        spin(loop) { clock.now > .zero || true }
        _ = try loop.runOnce(timeout: .milliseconds(200))
        loop.advanceClock(by: .seconds(29))
        #expect(ended.isEmpty)
        loop.advanceClock(by: .seconds(1))
        spin(loop) { !fake.commands(.userConfirmationNegativeReply).isEmpty }
        #expect(fake.commands(.userConfirmationNegativeReply).first?.parameters == phone.wireBytes + [1])
        #expect(ended == [false])
        p.confirmPairing(true)  // too late: ignored
        #expect(fake.commands(.userConfirmationReply).isEmpty)
    }

    @Test func justWorksIsAcceptedWithoutAsking() throws {
        let p = makePeripheral(io: .noInputNoOutput)
        var asked = false
        p.onPairingRequest = { _ in asked = true }
        try p.start()
        fake.send(.userConfirmationRequest, phone.wireBytes + [1, 1, 0, 0, 0, 0])
        spin(loop) { !fake.commands(.userConfirmationReply).isEmpty }
        #expect(!asked)
        #expect(fake.commands(.userConfirmationReply).count == 1)
    }

    @Test func bondedPhoneIsAskedToEncryptAndEncryptionIsReported() throws {
        try store.store(ltk(phone))
        let p = makePeripheral()
        var states: [BluetoothPeripheral.State] = []
        p.onStateChange = { states.append($0) }
        try p.start()
        let link = try FakeLink(peer: phone)
        listener.offer(link)
        spin(loop) { p.link != nil }
        #expect(link.requested == [.encrypted])
        link.completedLevel = .authenticated  // the kernel finished: the socket is writable again
        spin(loop) { p.state == .encrypted(phone, .authenticated) }
        #expect(states == [.advertising, .connected(phone), .encrypted(phone, .authenticated)])
    }

    @Test func staleBondIsRemovedAndReported() throws {
        try store.store(ltk(phone))
        let other = BluetoothAddress("11:22:33:44:55:66")!
        try store.store(ltk(other, fill: 0xB0))
        let p = makePeripheral()
        var stale: [BluetoothAddress] = []
        p.onStaleBond = { stale.append($0) }
        try p.start()
        let link = try FakeLink(peer: phone)
        listener.offer(link)
        spin(loop) { p.link != nil }
        fake.send(.authenticationFailed, phone.wireBytes + [1, ManagementStatus.authenticationFailed.rawValue])
        spin(loop) { !fake.commands(.unpairDevice).isEmpty }
        #expect(stale == [phone])
        #expect(link.failedRequests == 1)
        #expect(!store.isBonded(phone) && store.isBonded(other))
        #expect(fake.commands(.unpairDevice).first?.parameters == phone.wireBytes + [1, 0])
        let reloaded = BondStore(directory: state.path)
        try reloaded.load()
        #expect(reloaded.bondedPeers.map(\.address) == [other])
    }

    @Test func userRejectionDoesNotCountAsStaleBond() throws {
        try store.store(ltk(phone))
        let p = makePeripheral()
        var stale: [BluetoothAddress] = []
        p.onStaleBond = { stale.append($0) }
        try p.start()
        listener.offer(try FakeLink(peer: phone))
        spin(loop) { p.link != nil }
        fake.send(.userConfirmationRequest, phone.wireBytes + [1, 0, 1, 0, 0, 0])
        spin(loop) { fake.commands.count > 15 || p.link == nil || true }
        _ = try loop.runOnce(timeout: .milliseconds(200))
        p.confirmPairing(false)
        fake.send(.authenticationFailed, phone.wireBytes + [1, ManagementStatus.authenticationFailed.rawValue])
        spin(loop) { !fake.commands(.userConfirmationNegativeReply).isEmpty }
        _ = try loop.runOnce(timeout: .milliseconds(200))
        #expect(stale.isEmpty)
        #expect(store.isBonded(phone))
    }

    @Test func stopRemovesAdvertisingAndClosesTheListener() throws {
        let p = makePeripheral()
        try p.start()
        p.stop()
        #expect(fake.commands(.removeAdvertising).first?.parameters == [0])
        #expect(listener.closed)
        #expect(p.state == .stopped)
    }

    @Test func ioCapabilityFollowsTheBoard() throws {
        let board = try BoardLoader.load(argument: "sim")
        #expect(BluetoothPeripheral.ioCapability(for: board) == (board.buttons.count >= 2 ? .displayYesNo : .noInputNoOutput))
        var none = board
        none.buttons = []
        #expect(BluetoothPeripheral.ioCapability(for: none) == .noInputNoOutput)
    }
}

/// The mgmt client alone: ordering, foreign answers, timeouts.
@Suite struct ManagementClientTests {
    @Test func oneCommandAtATimeAndTimeoutOnSilence() throws {
        let clock = ManualClock()
        let loop = try EpollLoop(clock: .manual(clock))
        let fake = try FakeManagementPeer(loop: loop)
        fake.silent = [.setBondable]
        let client = try ManagementClient(transport: fake.watchEnd, loop: loop, commandTimeout: .seconds(5))
        var results: [(ManagementStatus, [UInt8])] = []
        client.send(SetControllerSetting.bondable(true), index: 0) { results.append(($0, $1)) }
        client.send(SetControllerSetting.powered(true), index: 0) { results.append(($0, $1)) }
        spin(loop) { fake.commands.count == 1 }
        _ = try loop.runOnce(timeout: .milliseconds(100))
        #expect(fake.commands.count == 1)  // the second waits for the first
        // An answer to someone else's command is ignored.
        fake.send(.commandComplete, [0x05, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00])
        _ = try loop.runOnce(timeout: .milliseconds(100))
        #expect(results.isEmpty)
        loop.advanceClock(by: .seconds(5))
        #expect(results.first?.0 == .timeout)
        spin(loop) { results.count == 2 }
        #expect(results[1].0 == .success && results[1].1 == [0x81, 0x00, 0x00, 0x00])  // powered + the fake's BR/EDR
        #expect(fake.opcodes == [ManagementOpcode.setBondable.rawValue, ManagementOpcode.setPowered.rawValue])
    }

    @Test func eventsGoToTheHandlerAndClosingFailsPendingCommands() throws {
        let loop = try EpollLoop(clock: .manual(ManualClock()))
        let fake = try FakeManagementPeer(loop: loop)
        fake.silent = [.setPowered]
        let client = try ManagementClient(transport: fake.watchEnd, loop: loop)
        var events: [(UInt16, ManagementEvent)] = []
        client.eventHandler = { events.append(($0, $1)) }
        var closed = false
        client.closedHandler = { _ in closed = true }
        var status: ManagementStatus?
        client.send(SetControllerSetting.powered(true), index: 0) { s, _ in status = s }
        fake.send(.newSettings, [0x01, 0x02, 0x00, 0x00], index: 3)
        spin(loop) { !events.isEmpty }
        #expect(events.first?.0 == 3 && events.first?.1 == .newSettings([.powered, .lowEnergy]))
        fake.end.close()
        spin(loop) { closed }
        #expect(status == .disconnected)
    }
}

extension PeripheralTests {
    @Test func disconnectBeforeTheATTChannelStillAdvertisesAgain() throws {
        let p = makePeripheral()
        var reasons: [DisconnectReason] = []
        p.onDisconnected = { reasons.append($0) }
        try p.start()
        fake.send(.deviceConnected, phone.wireBytes + [1, 0, 0, 0, 0, 0, 0])
        fake.send(.deviceDisconnected, phone.wireBytes + [1, DisconnectReason.remoteHost.rawValue])
        spin(loop) { fake.commands(.addAdvertising).count == 2 }
        #expect(fake.commands(.addAdvertising).count == 2)
        #expect(reasons.isEmpty)
        #expect(p.state == .advertising)
    }
}
