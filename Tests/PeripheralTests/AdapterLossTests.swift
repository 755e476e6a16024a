import BoardConfig
import Glibc
import HAL
import LinuxHAL
import Loop
import Peripheral
import Testing
@testable import Peripheral
@testable import LinuxBoard

/// The adapter going away while the watch runs (mgmt Index Removed, or
/// powered off by another program) and coming back (Index Added, powered on
/// again), against the scripted mgmt peer on a `ManualLoop`.
@Suite struct AdapterLossTests {
    let rig: ManualRig
    var loop: ManualLoop { rig.loop }
    var fake: FakeManagementPeer { rig.fake }
    let state: TemporaryDirectory
    let store: BondStore
    let phone = BluetoothAddress("F0:99:B6:12:34:56")!
    /// What the peripheral reported, in order.
    let log = EventLog()

    final class EventLog {
        var events: [String] = []
        var failures: [BluetoothError] = []
        /// Addresses the listeners were made for, in order.
        var listenedOn: [BluetoothAddress] = []
    }

    /// The whole set-up sequence then Add Advertising, as in `setUpSequenceThenAdvertising`.
    static let setUpThenAdvertising: [UInt16] = ([
        .readControllerInfo, .setPowered, .setLowEnergy, .setBREDR, .setBondable, .setConnectable,
        .setSecureConnections, .setIOCapability, .setPrivacy, .setLocalName, .loadLongTermKeys,
        .loadIdentityResolvingKeys, .setPowered, .addAdvertising,
    ] as [ManagementOpcode]).map(\.rawValue)

    init() throws {
        rig = try ManualRig()
        state = TemporaryDirectory()
        store = BondStore(directory: state.path, files: AtomicFileStore())
    }

    /// A started peripheral whose first listener is the rig's; later ones
    /// (after the adapter came back) are new fakes the rig pumps too.
    func started(lossTimeout: Duration = .seconds(120)) throws -> BluetoothPeripheral {
        var options = BluetoothPeripheral.Options()
        options.adapterLossTimeout = lossTimeout
        let management = fake.watchEnd
        let rig = self.rig
        let log = self.log
        let p = BluetoothPeripheral(
            hciIndex: 0, name: "WristCore", ioCapability: .displayYesNo, keyStore: store, loop: loop,
            logger: quietLogger, options: options, bluetoothdRunning: { false },
            transports: { () throws(HALError) in
                .init(management: management, makeListener: { address throws(HALError) in
                    log.listenedOn.append(address)
                    if log.listenedOn.count == 1 { return rig.listener }
                    let next = try! FakeListener()
                    rig.laterListeners.append(next)
                    return next
                })
            })
        p.onStateChange = { log.events.append("state \($0)") }
        p.onDisconnected = { log.events.append("disconnected \($0)") }
        p.onAdapterLost = { log.events.append("lost \($0)") }
        p.onAdapterReturned = { log.events.append("returned after \($0)") }
        p.onFailure = { log.failures.append($0) }
        var outcome: Result<Void, BluetoothError>?
        p.start { outcome = $0 }
        rig.pump { outcome != nil }
        guard case .success = outcome else { throw BluetoothError("start-up failed: \(String(describing: outcome))") }
        log.events.removeAll()
        return p
    }

    func ltk(_ address: BluetoothAddress, fill: UInt8 = 0xA0) -> LongTermKey {
        LongTermKey(address: address, addressType: .lePublic, keyType: 3, central: false, encryptionSize: 16,
                    ediv: 0, rand: 0, value: [UInt8](repeating: fill, count: 16))
    }

    /// A bonded phone connected and encrypted.
    func connectBondedPhone(_ p: BluetoothPeripheral, on listener: FakeListener? = nil) throws -> FakeLink {
        let link = try FakeLink(peer: phone)
        rig.offer(link, to: listener)
        rig.pump { p.link != nil }
        link.completedLevel = .authenticated
        rig.pump { p.state == .encrypted(phone, .authenticated) }
        return link
    }

    func newSettings(_ s: ManagementSettings) -> [UInt8] { fake.le32(s.rawValue) }

    @Test func indexRemovedDropsTheLinkAndTheListenerAndSaysSo() throws {
        try store.store(ltk(phone))
        let p = try started()
        _ = try connectBondedPhone(p)
        log.events.removeAll()
        let sent = fake.commands.count
        fake.send(.indexRemoved, [])
        rig.pump { p.state == .adapterLost(.removed) }
        #expect(p.state == .adapterLost(.removed))
        #expect(log.events == ["state adapter removed", "disconnected closed by the watch", "lost removed"])
        #expect(p.link == nil)
        #expect(rig.listener.closed)
        #expect(p.adapterLostAt == loop.now)
        rig.pump()
        #expect(fake.commands.count == sent)  // nothing sent to an adapter that is not there
        #expect(log.failures.isEmpty)
        // Another controller's index does not matter.
        fake.send(.indexAdded, [], index: 1)
        rig.pump()
        #expect(fake.commands.count == sent && p.state == .adapterLost(.removed))
    }

    @Test func indexAddedRunsTheSetUpAgainWithTheStoredBondsAndTheBondedPhoneReconnects() throws {
        try store.store(ltk(phone))
        let p = try started()
        // A second phone bonds while running: its key must be loaded again too.
        let other = BluetoothAddress("11:22:33:44:55:66")!
        var event: [UInt8] = [1]
        ltk(other, fill: 0xB0).encode(into: &event)
        fake.send(.newLongTermKey, event)
        rig.pump { store.isBonded(other) }
        _ = try connectBondedPhone(p)
        fake.send(.indexRemoved, [])
        rig.pump { p.state == .adapterLost(.removed) }
        loop.advance(by: .seconds(30))

        // A dongle comes back (another one: another address, powered off).
        let dongle = BluetoothAddress("00:AA:01:00:00:02")!
        fake.info.address = dongle
        fake.settings = [.bredr]
        log.events.removeAll()
        let before = fake.commands.count
        fake.send(.indexAdded, [])
        rig.pump { p.state == .advertising }
        #expect(p.state == .advertising)
        #expect(Array(fake.opcodes[before...]) == Self.setUpThenAdvertising)
        let replay = Array(fake.commands[before...])
        #expect(replay.allSatisfy { $0.index == 0 })
        #expect(replay[7].parameters == [IOCapability.displayYesNo.rawValue])
        #expect(replay[8].parameters == [1] + (store.localIRK ?? []))  // the same identity: the phone still knows the watch
        #expect(replay[10].parameters == LoadLongTermKeys(store.longTermKeys).encodeParameters())
        #expect(store.longTermKeys.count == 2)
        #expect(replay[13].parameters == AdvertisingPayload(name: "WristCore").command.encodeParameters())
        #expect(fake.settings.isSuperset(of: [.powered, .lowEnergy, .bondable, .connectable, .secureConnections, .privacy]))
        #expect(log.listenedOn == [FakeManagementPeer.controllerAddress, dongle])
        #expect(log.events == ["state advertising", "returned after 30.0 seconds"])
        #expect(p.adapterLostAt == nil)
        #expect(loop.armedTimerCount == 0)  // the loss deadline was cancelled

        // The bonded phone reconnects on the new listener and is asked to encrypt with its stored key.
        let listener = try #require(rig.laterListeners.first)
        let link = try connectBondedPhone(p, on: listener)
        #expect(link.requested == [.encrypted])
        #expect(p.state == .encrypted(phone, .authenticated))
        loop.advance(by: .seconds(600))
        #expect(log.failures.isEmpty)
    }

    @Test func poweredOffByAnotherProgramIsLostUntilPoweredOnAgain() throws {
        let p = try started()
        // Settings changing while powered are not a loss.
        fake.send(.newSettings, newSettings([.powered, .lowEnergy, .connectable]))
        rig.pump()
        #expect(p.state == .advertising)
        let link = try FakeLink(peer: phone)
        rig.offer(link)
        rig.pump { p.link != nil }
        log.events.removeAll()

        fake.settings.remove(.powered)
        fake.send(.newSettings, newSettings(fake.settings))
        rig.pump { p.state == .adapterLost(.poweredOff) }
        #expect(log.events == ["state adapter powered off by another program", "disconnected closed by the watch", "lost powered off by another program"])
        #expect(p.link == nil && rig.listener.closed)

        // `btmgmt power on`: the set-up runs again from the start.
        let before = fake.commands.count
        fake.settings.insert(.powered)
        fake.send(.newSettings, newSettings(fake.settings))
        rig.pump { p.state == .advertising }
        #expect(Array(fake.opcodes[before...]) == Self.setUpThenAdvertising)
        #expect(log.events.last == "returned after 0.0 seconds")
    }

    @Test func notBackInTimeIsAFailure() throws {
        let p = try started(lossTimeout: .seconds(60))
        fake.send(.indexRemoved, [])
        rig.pump { p.state == .adapterLost(.removed) }
        loop.advance(by: .seconds(59))
        #expect(log.failures.isEmpty)
        loop.advance(by: .seconds(1))
        #expect(log.failures.count == 1)
        let e = try #require(log.failures.first)
        #expect(e.message == "adapter hci0 removed and not back within 60 s")
        #expect(BluetoothPeripheral.seconds(.milliseconds(10_032)) == "10.032 s" && BluetoothPeripheral.seconds(.milliseconds(5_007)) == "5.007 s")
        #expect(e.hint?.contains("USB") == true)
        guard case .failed = p.state else {
            Issue.record("state \(p.state)")
            return
        }
        // Too late: a return is not acted on any more (the daemon is exiting).
        let sent = fake.commands.count
        fake.send(.indexAdded, [])
        rig.pump()
        #expect(fake.commands.count == sent)
        loop.advance(by: .seconds(600))
        #expect(log.failures.count == 1)
    }

    @Test func goneAgainWhileBeingSetUpStopsThatSetUpAndKeepsTheDeadline() throws {
        let p = try started(lossTimeout: .seconds(60))
        fake.send(.indexRemoved, [])
        rig.pump { p.state == .adapterLost(.removed) }
        loop.advance(by: .seconds(10))
        fake.silent = [.setBondable]  // the set-up hangs at Set Bondable
        fake.send(.indexAdded, [])
        rig.pump { fake.commands(.setBondable).count == 1 }
        fake.send(.indexRemoved, [])
        rig.pump()
        loop.advance(by: .seconds(5))  // Set Bondable times out in the mgmt client
        rig.pump()
        #expect(fake.commands(.setBondable).count == 1)
        #expect(fake.commands(.setConnectable).count == 1)  // only the first start-up's: no step after the cancelled one
        #expect(p.state == .adapterLost(.removed))

        fake.silent = []
        let before = fake.commands.count
        fake.send(.indexAdded, [])
        rig.pump { p.state == .advertising }
        #expect(Array(fake.opcodes[before...]) == Self.setUpThenAdvertising)
        loop.advance(by: .seconds(120))
        #expect(log.failures.isEmpty)
    }

    @Test func poweredOffNewsDuringTheSetUpDoNotStopIt() throws {
        let p = try started()
        fake.settings.remove(.powered)
        fake.send(.newSettings, newSettings(fake.settings))
        rig.pump { p.state == .adapterLost(.poweredOff) }
        // Powered on, then (while the set-up that follows runs, which itself
        // powers the adapter off first) news of it being off.
        fake.send(.newSettings, newSettings([.powered, .lowEnergy]))
        fake.send(.newSettings, newSettings([.lowEnergy]))
        rig.pump { p.state == .advertising }
        #expect(p.state == .advertising)
        #expect(log.failures.isEmpty)
    }

    @Test func aFailedSetUpOnReturnKeepsWaitingUntilTheDeadline() throws {
        let p = try started(lossTimeout: .seconds(60))
        fake.send(.indexRemoved, [])
        rig.pump { p.state == .adapterLost(.removed) }
        fake.statuses[.setLowEnergy] = .busy
        fake.send(.indexAdded, [])
        rig.pump { fake.commands(.setLowEnergy).count == 2 }
        rig.pump()
        #expect(p.state == .adapterLost(.removed))
        #expect(log.failures.isEmpty)
        loop.advance(by: .seconds(60))
        #expect(log.failures.count == 1)
    }

    /// `btmgmt power off` with a phone connected: the kernel drops the link
    /// (Device Disconnected) just before the New Settings; advertising again
    /// in between may fail. That is not a failure of its own.
    @Test func disconnectJustBeforePowerOffIsNotAFailure() throws {
        let p = try started()
        let link = try FakeLink(peer: phone)
        rig.offer(link)
        rig.pump { p.link != nil }
        fake.statuses[.addAdvertising] = .notPowered
        fake.send(.deviceDisconnected, phone.wireBytes + [1, DisconnectReason.localHost.rawValue])
        fake.settings.remove(.powered)
        fake.send(.newSettings, newSettings(fake.settings))
        rig.pump { p.state == .adapterLost(.poweredOff) }
        loop.advance(by: .seconds(5))
        rig.pump()
        #expect(log.failures.isEmpty)
        #expect(p.state == .adapterLost(.poweredOff))
        #expect(log.events.filter { $0.hasPrefix("disconnected") }.count == 1)

        fake.statuses = [:]
        fake.settings.insert(.powered)
        fake.send(.newSettings, newSettings(fake.settings))
        rig.pump { p.state == .advertising }
        #expect(p.state == .advertising)
    }

    @Test func advertisingAgainIsRetriedOnceThenAFailure() throws {
        let p = try started()
        rig.offer(try FakeLink(peer: phone))
        rig.pump { p.link != nil }
        fake.statuses[.addAdvertising] = .failed
        fake.send(.deviceDisconnected, phone.wireBytes + [1, DisconnectReason.remoteHost.rawValue])
        rig.pump { fake.commands(.addAdvertising).count == 2 }
        rig.pump()
        #expect(log.failures.isEmpty)
        loop.advance(by: .seconds(2))
        rig.pump { !log.failures.isEmpty }
        #expect(fake.commands(.addAdvertising).count == 3)
        #expect(log.failures.first?.message.hasPrefix("cannot advertise again") == true)
    }

    @Test func advertisingAgainSucceedsOnTheRetry() throws {
        let p = try started()
        rig.offer(try FakeLink(peer: phone))
        rig.pump { p.link != nil }
        fake.statuses[.addAdvertising] = .busy
        fake.send(.deviceDisconnected, phone.wireBytes + [1, DisconnectReason.remoteHost.rawValue])
        rig.pump { fake.commands(.addAdvertising).count == 2 }
        rig.pump()
        fake.statuses = [:]
        loop.advance(by: .seconds(2))
        rig.pump { p.state == .advertising }
        #expect(p.state == .advertising && log.failures.isEmpty)
    }

    @Test func theManagementSocketClosingIsAFailure() throws {
        let p = try started()
        fake.end.close()
        rig.pumpWaitingForTheKernel { !log.failures.isEmpty }
        #expect(log.failures.first?.message == "the management socket closed")
        #expect(p.state == .failed("the management socket closed"))
    }

    @Test func stopWhileLostCancelsTheDeadline() throws {
        let p = try started(lossTimeout: .seconds(60))
        fake.send(.indexRemoved, [])
        rig.pump { p.state == .adapterLost(.removed) }
        p.stop()
        #expect(p.state == .stopped)
        loop.advance(by: .seconds(120))
        #expect(log.failures.isEmpty)
        #expect(loop.armedTimerCount == 0)
    }

    /// systemd's STATUS= line for each state (LinuxBoardDevices).
    @Test func bluetoothStatusLines() throws {
        let board = BoardLoader.builtInSimulated  // hci0, "WristCore", 120 s
        let at = CivilTime(year: 2024, month: 5, day: 1, hour: 9, minute: 41, second: 7)
        let phone = BluetoothAddress("F0:99:B6:12:34:56")!
        func status(_ s: BluetoothPeripheral.State) -> String { LinuxBoardDevices.status(of: s, board: board, now: at) }
        #expect(status(.advertising) == "advertising as \"WristCore\" on hci0")
        #expect(status(.connected(phone)) == "connected to F0:99:B6:12:34:56")
        #expect(status(.adapterLost(.removed)) == "Bluetooth adapter hci0 gone since 2024-05-01T09:41:07 (removed); exiting if not back within 120 s")
        #expect(status(.adapterLost(.poweredOff)).contains("(powered off by another program)"))
        #expect(status(.failed("x")) == "Bluetooth failed: x")
    }
}
