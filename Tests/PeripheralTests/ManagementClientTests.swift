import HAL
import Loop
import Peripheral
import Testing

/// The mgmt client alone, on a `ManualLoop`: ordering, foreign answers, timeouts.
@Suite struct ManagementClientTests {
    @Test func oneCommandAtATimeAndTimeoutOnSilence() throws {
        let rig = try ManualRig()
        let fake = rig.fake
        fake.silent = [.setBondable]
        let client = try ManagementClient(transport: fake.watchEnd, loop: rig.loop, commandTimeout: .seconds(5))
        var results: [(ManagementStatus, [UInt8])] = []
        client.send(SetControllerSetting.bondable(true), index: 0) { results.append(($0, $1)) }
        client.send(SetControllerSetting.powered(true), index: 0) { results.append(($0, $1)) }
        rig.pump { fake.commands.count == 1 }
        rig.pump()
        #expect(fake.commands.count == 1)  // the second waits for the first
        // An answer to someone else's command is ignored.
        fake.send(.commandComplete, [0x05, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00])
        rig.pump()
        #expect(results.isEmpty)
        rig.loop.advance(by: .seconds(5))
        #expect(results.first?.0 == .timeout)
        rig.pump { results.count == 2 }
        #expect(results[1].0 == .success && results[1].1 == [0x81, 0x00, 0x00, 0x00])  // powered + the fake's BR/EDR
        #expect(fake.opcodes == [ManagementOpcode.setBondable.rawValue, ManagementOpcode.setPowered.rawValue])
    }

    @Test func eventsGoToTheHandlerAndClosingFailsPendingCommands() throws {
        let rig = try ManualRig()
        let fake = rig.fake
        fake.silent = [.setPowered]
        let client = try ManagementClient(transport: fake.watchEnd, loop: rig.loop)
        var events: [(UInt16, ManagementEvent)] = []
        client.eventHandler = { events.append(($0, $1)) }
        var closed = false
        client.closedHandler = { _ in closed = true }
        var status: ManagementStatus?
        client.send(SetControllerSetting.powered(true), index: 0) { s, _ in status = s }
        fake.send(.newSettings, [0x01, 0x02, 0x00, 0x00], index: 3)
        rig.pump { !events.isEmpty }
        #expect(events.first?.0 == 3 && events.first?.1 == .newSettings([.powered, .lowEnergy]))
        fake.end.close()
        rig.pumpWaitingForTheKernel { closed }
        #expect(closed)
        #expect(status == .disconnected)
    }

    @Test func closeAfterSendingWritesTheCommandThenCloses() throws {
        let rig = try ManualRig()
        let fake = rig.fake
        fake.silent = [.setPowered]
        let client = try ManagementClient(transport: fake.watchEnd, loop: rig.loop)
        var status: ManagementStatus?
        client.send(SetControllerSetting.powered(true), index: 0) { s, _ in status = s }
        rig.pump { fake.commands.count == 1 }
        client.closeAfterSending(RemoveAdvertising(instance: 0), index: 0)  // ahead of the unanswered one
        #expect(status == .disconnected)
        #expect(!fake.watchEnd.isOpen)
        rig.pump()
        #expect(fake.opcodes == [ManagementOpcode.setPowered.rawValue, ManagementOpcode.removeAdvertising.rawValue])
    }
}

/// BondStore through an in-memory `StateFileStore`: the store's own logic
/// (what is written when, and that a failed write changes nothing).
@Suite struct BondStoreInMemoryTests {
    let phone = BluetoothAddress("F0:99:B6:12:34:56")!

    func ltk(_ a: BluetoothAddress, fill: UInt8 = 0xA0) -> LongTermKey {
        LongTermKey(address: a, addressType: .lePublic, keyType: 3, central: false, encryptionSize: 16,
                    ediv: 1, rand: 2, value: [UInt8](repeating: fill, count: 16))
    }

    @Test func writesTheWholeFileWithModesAndReadsItBack() throws {
        let files = InMemoryStateFiles()
        let store = BondStore(directory: "/var/lib/wristcore/", files: files)
        #expect(try store.load() == .missing)
        try store.store(ltk(phone))
        let saved = try #require(files.files["/var/lib/wristcore/bonds"])
        #expect(saved.mode == 0o600)
        #expect(files.directories == ["/var/lib/wristcore": 0o700])
        #expect(try BondStore.decode(saved.bytes).get() == store.contents)
        let again = BondStore(directory: "/var/lib/wristcore", files: files)
        #expect(try again.load() == .loaded(bonds: 1))
        #expect(again.longTermKeys == [ltk(phone)])
    }

    @Test func aFailedWriteLeavesTheStoreAsItWas() throws {
        let files = InMemoryStateFiles()
        let store = BondStore(directory: "/state", files: files)
        try store.store(ltk(phone))
        let before = store.contents
        files.writeFailure = HALError(operation: "fsync /state/bonds.tmp", errno: 5, reason: "Input/output error")
        #expect(throws: HALError.self) { try store.store(ltk(phone, fill: 0xB0)) }
        #expect(throws: HALError.self) { try store.remove(phone) }
        #expect(store.contents == before)
        #expect(try BondStore.decode(files.files["/state/bonds"]!.bytes).get() == before)
    }

    @Test func aCorruptFileIsMovedAside() throws {
        let files = InMemoryStateFiles()
        try files.writeAtomically("/state/bonds", Array("wristcore-bonds 1\nend 7\n".utf8), mode: 0o600)
        let store = BondStore(directory: "/state", files: files)
        #expect(try store.load() == .corrupt(reason: "line 2: record count does not match (incomplete file)", keptAs: "/state/bonds.corrupt.1"))
        #expect(files.files["/state/bonds"] == nil)
        #expect(files.files["/state/bonds.corrupt.1"] != nil)
        #expect(store.bondedPeers.isEmpty)
    }
}
