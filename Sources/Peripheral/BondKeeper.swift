import HAL
import Log
import Loop

/// Keeps the `BondStore` in step with the kernel while the peripheral runs:
/// loads it at start-up (with the watch's own IRK), writes each key the
/// kernel hands over after pairing, and removes the bonds of phones that
/// were unpaired or whose bond went stale.
///
/// A key that cannot be written (a full disk) stays in memory: the kernel
/// keeps it for this session, so the phone stays connected. The failure is
/// logged with its fix and reported once per phone (`onSaveFailed`), and the
/// write is retried every `retryInterval` until it succeeds.
///
/// Owned by `BluetoothPeripheral`: its `onBondSaveFailed` and `onStaleBond`
/// are this keeper's callbacks, and it sets `controller` while it runs.
final class BondKeeper {
    let store: BondStore
    /// A new bond could not be written (already logged as an error with the fix).
    var onSaveFailed: ((BondSaveFailure) -> Void)?
    /// A stored bond no longer works and was removed: the phone must pair again.
    var onStale: ((BluetoothAddress) -> Void)?
    /// Whether some phone is bonded changed (`isPaired`): the Status screen's "Not paired".
    var onPairedChanged: ((Bool) -> Void)?
    /// Where a stale bond is unpaired too (nil while the peripheral is stopped).
    var controller: BluetoothController?
    /// Some phone is bonded: a key is stored, or waits to be saved.
    var isPaired: Bool { !store.longTermKeys.isEmpty || !unsavedKeys.isEmpty }

    /// Keys the kernel gave us that are not on disk yet (the write failed).
    private var unsavedKeys: [LongTermKey] = []
    private var unsavedIRKs: [IdentityResolvingKey] = []
    /// Phones whose failed save was reported (once each, until saved). A
    /// list: a phone or two, and no Set's hash table code in the daemon.
    private var reportedUnsaved: [BluetoothAddress] = []
    private var retryTimer: TimerID!
    private let retryInterval: Duration
    /// The name the watch advertises, for the "pair again" instructions.
    private let watchName: String
    private let loop: any EventLoop
    private let logger: Logger

    init(store: BondStore, watchName: String, retryInterval: Duration, loop: any EventLoop, logger: Logger) {
        self.store = store
        self.watchName = watchName
        self.retryInterval = retryInterval
        self.loop = loop
        self.logger = logger
        retryTimer = loop.makeTimer { [unowned(unsafe) self] in self.retrySaving() }
    }

    deinit {
        loop.destroyTimer(retryTimer)
    }

    /// Whether some bond is waiting to be saved (its write failed).
    var hasUnsaved: Bool { !unsavedKeys.isEmpty || !unsavedIRKs.isEmpty }

    /// Start-up: reads the bonds, and with `privacy` makes sure the watch's
    /// own IRK is stored (it must stay the same across restarts); returns it.
    func load(privacy: Bool) throws(BluetoothError) -> [UInt8]? {
        do {
            switch try store.load() {
            case .missing: logger.info("no bonds yet (\(store.path)); the phone pairs on first connection")
            case .loaded(let n): logger.info("loaded \(n) bond(s) from \(store.path)")
            case .corrupt(let why, let keptAs): logger.error("bond file \(store.path) was unreadable (\(why)); kept as \(keptAs ?? store.path), starting without bonds: pair the phone again")
            }
        } catch {
            throw BluetoothError("cannot read the bond store: \(error)", hint: error.hint ?? "the state directory (\(store.directory)) and its files must be readable and writable by the watch's user: 'sudo chown -R wristcore:wristcore \(store.directory)' (or the user the daemon runs as)")
        }
        onPairedChanged?(isPaired)
        guard privacy else { return nil }
        do { return try store.ensureLocalIRK() } catch {
            throw BluetoothError("cannot store the watch's identity key: \(error.operation): \(error.reason)", hint: BondStore.fixHint(for: error, directory: store.directory))
        }
    }

    /// mgmt New Long Term Key with the store hint: a new bond.
    func save(_ key: LongTermKey) {
        do {
            try store.store(key)
            logger.info("bonded with \(key.address) (\(key.isAuthenticated ? "authenticated" : "unauthenticated") key stored)")
        } catch {
            unsavedKeys.removeAll { $0.address == key.address && $0.addressType == key.addressType && $0.central == key.central }
            unsavedKeys.append(key)
            notSaved(key.address, error)
        }
        onPairedChanged?(isPaired)
    }

    /// mgmt New IRK with the store hint: the phone's identity, part of its bond.
    func save(_ irk: IdentityResolvingKey) {
        do { try store.store(irk) } catch {
            unsavedIRKs.removeAll { $0.address == irk.address && $0.addressType == irk.addressType }
            unsavedIRKs.append(irk)
            notSaved(irk.address, error)
        }
    }

    /// mgmt Device Unpaired: 'wristcore forget' (or another mgmt client)
    /// unpaired it while we run. Dropped from our store too, or our next
    /// save would bring it back.
    func unpaired(_ address: BluetoothAddress) {
        dropUnsaved(address)
        if store.isBonded(address) || store.irks.contains(where: { $0.address == address }) {
            do { try store.remove(address) } catch { logger.error("cannot remove the bond of \(address): \(error)") }
            logger.info("bond with \(address) removed (unpaired)")
        }
        onPairedChanged?(isPaired)
    }

    /// The phone's encryption with a stored key failed (it forgot the
    /// watch): the bond goes from the store and the kernel, and the user is
    /// told to pair again.
    func removeStale(_ address: BluetoothAddress, _ type: BluetoothAddressType) {
        dropUnsaved(address)
        do { try store.remove(address) } catch { logger.error("cannot remove the stale bond of \(address): \(error)") }
        controller?.send(UnpairDevice(address: address, addressType: type, disconnect: false)) { _, _ in }
        logger.warning("the bond with \(address) no longer works (the phone forgot the watch): removed. Pair again: on the iPhone, Settings > Bluetooth, forget \"\(watchName)\" if listed, then connect to it again")
        onStale?(address)
        onPairedChanged?(isPaired)
    }

    /// The peripheral stops: no more retries (unsaved keys are lost with the session).
    func stopRetrying() {
        loop.disarm(retryTimer)
    }

    /// Logs the failure with its fix, tells the watch (once per phone until
    /// saved), and retries later: the kernel keeps the key for this session.
    private func notSaved(_ address: BluetoothAddress, _ error: HALError) {
        let failure = BondSaveFailure(address: address, error: error, directory: store.directory)
        if !loop.isArmed(retryTimer) { loop.arm(retryTimer, after: retryInterval) }
        guard !reportedUnsaved.contains(address) else {
            logger.debug("\(failure)")
            return
        }
        reportedUnsaved.append(address)
        logger.error("\(failure.logMessage)")
        onSaveFailed?(failure)
    }

    private func dropUnsaved(_ address: BluetoothAddress) {
        unsavedKeys.removeAll { $0.address == address }
        unsavedIRKs.removeAll { $0.address == address }
        reportedUnsaved.removeAll { $0 == address }
        if !hasUnsaved { loop.disarm(retryTimer) }
    }

    /// Writes the unsaved keys again; re-arms while the write still fails.
    private func retrySaving() {
        var saved: [BluetoothAddress] = []
        do throws(HALError) {
            while let key = unsavedKeys.first {
                try store.store(key)
                unsavedKeys.removeFirst()
                if !saved.contains(key.address) { saved.append(key.address) }
            }
            while let irk = unsavedIRKs.first {
                try store.store(irk)
                unsavedIRKs.removeFirst()
                if !saved.contains(irk.address) { saved.append(irk.address) }
            }
        } catch {
            logger.debug("bond still not saved: \(error)")
            loop.arm(retryTimer, after: retryInterval)
        }
        for address in saved where !unsavedKeys.contains(where: { $0.address == address }) && !unsavedIRKs.contains(where: { $0.address == address }) {
            reportedUnsaved.removeAll { $0 == address }
            logger.notice("bond with \(address) saved after all (\(store.path)): the phone reconnects after a restart")
        }
    }
}
