import HAL
import Log
import Loop

/// The watch as a Bluetooth LE peripheral, owning its controller like
/// firmware does (no bluetoothd): sets the controller up through mgmt,
/// advertises, accepts one phone at a time on the ATT channel, runs
/// numeric-comparison pairing through the UI, keeps bonds in a `BondStore`,
/// and advertises again after a disconnect.
///
/// Everything that needs the operating system is injected: the mgmt channel
/// and the link listener (`Transports`; the composition root passes the
/// kernel's sockets, tests socket-pair fakes), the bond store's files, and
/// whether bluetoothd runs. It runs on any `EventLoop` and never runs the
/// loop itself.
///
/// Wiring (the daemon): set the callbacks, `start { result in ... }`, and on
/// `onConnection` build `PhoneSession(channel: link, loop: loop, security: link)`.
/// `onPairingRequest` shows the 6-digit number; the positive button calls
/// `confirmPairing(true)`, the negative one `confirmPairing(false)`; without
/// an answer the request is rejected after `Options.pairingTimeout`.
/// `stop()` at shutdown.
///
/// The adapter may go away while the watch runs (mgmt Index Removed, or
/// powered off by another program): the link and the listener are dropped,
/// the state becomes `.adapterLost` and `onAdapterLost` is called. When it
/// comes back (Index Added, or powered on again) the controller set-up runs
/// again with the bonds of the `BondStore`, advertising resumes and
/// `onAdapterReturned` is called. Not back within `Options.adapterLossTimeout`:
/// `onFailure`, for the daemon to exit so its supervisor restarts it.
public final class BluetoothPeripheral {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()
    public enum State: Equatable, Sendable, CustomStringConvertible {
        case stopped
        case advertising
        case connected(BluetoothAddress)
        /// The link is encrypted (after pairing or with a stored key).
        case encrypted(BluetoothAddress, LinkSecurityLevel)
        /// The adapter went away: no link, no advertising, waiting for it to return.
        case adapterLost(AdapterLoss)
        case failed(String)

        public var description: String {
            switch self {
            case .stopped: "stopped"
            case .advertising: "advertising"
            case .connected(let a): "connected to \(a)"
            case .encrypted(let a, let l): "connected to \(a), \(l)"
            case .adapterLost(let loss): "adapter \(loss)"
            case .failed(let why): "failed: \(why)"
            }
        }
    }

    public struct Options: Sendable {
        /// Advertise from resolvable private addresses (a stored local IRK keeps the watch recognisable).
        public var privacy = true
        /// How long the pairing number waits for a button before it is rejected.
        public var pairingTimeout: Duration = .seconds(30)
        /// How long `start` may take, from the first mgmt command to advertising.
        public var startTimeout: Duration = .seconds(15)
        /// Refuse to start while bluetoothd runs.
        public var refuseWhenBluetoothdRuns = true
        /// How often a bond that could not be saved (full disk) is written again.
        public var bondSaveRetry: Duration = .seconds(60)
        /// How long a lost adapter may stay away before `onFailure`.
        public var adapterLossTimeout: Duration = .seconds(120)
        public init() {}
    }

    /// The two kernel endpoints; tests pass socket-pair fakes. The
    /// composition root makes the real ones (the mgmt control socket and an
    /// L2CAP LE listener on the ATT channel).
    public struct Transports {
        public var management: any PacketChannel
        /// Made once the controller is powered (its address is known then).
        public var makeListener: (_ controllerAddress: BluetoothAddress) throws(HALError) -> any BluetoothLinkListener
        public init(
            management: any PacketChannel,
            makeListener: @escaping (_ controllerAddress: BluetoothAddress) throws(HALError) -> any BluetoothLinkListener
        ) {
            self.management = management
            self.makeListener = makeListener
        }
    }

    // MARK: callbacks (set before start)

    /// A phone connected: hand the link to `PhoneSession`.
    public var onConnection: ((any BluetoothLink) -> Void)?
    /// The phone's link went down (reason from mgmt Device Disconnected).
    public var onDisconnected: ((DisconnectReason) -> Void)?
    /// Numeric comparison: show this 6-digit number, then call `confirmPairing`.
    public var onPairingRequest: ((UInt32) -> Void)?
    /// The pairing dialog is over (answered, timed out, or failed): close the screen.
    public var onPairingEnded: ((_ accepted: Bool) -> Void)?
    public var onStateChange: ((State) -> Void)?
    /// A stored bond no longer works (the phone forgot the watch); it was
    /// removed: tell the user to pair again.
    public var onStaleBond: ((BluetoothAddress) -> Void)?
    /// A new bond (the key from pairing) could not be written to the bond
    /// store, e.g. the disk is full: show `failure.notice`. Already logged
    /// as an error with the fix; the write is retried every
    /// `Options.bondSaveRetry`. Once per phone until it is saved.
    public var onBondSaveFailed: ((BondSaveFailure) -> Void)?

    /// The controller's index (hciN).
    public let hciIndex: Int
    /// The name the watch advertises.
    public let name: String
    public let ioCapability: IOCapability
    public let keyStore: BondStore
    public let options: Options
    public private(set) var state: State = .stopped {
        didSet { if state != oldValue { onStateChange?(state) } }
    }
    /// The connected phone's link, if any.
    public private(set) var link: (any BluetoothLink)?
    public private(set) var controller: BluetoothController?

    // MARK: adapter loss (callbacks set before start)

    /// The adapter went away (the link, if any, was reported down first).
    public var onAdapterLost: ((AdapterLoss) -> Void)?
    /// The adapter came back, was set up again and advertising resumed,
    /// `after` it went away.
    public var onAdapterReturned: ((_ after: Duration) -> Void)?
    /// Bluetooth failed after start-up and will not recover by itself (the
    /// adapter stayed away longer than `Options.adapterLossTimeout`, the mgmt
    /// socket closed, advertising could not restart): exit, so the service
    /// manager restarts the watch. Start-up failures go to `start`'s completion.
    public var onFailure: ((BluetoothError) -> Void)?
    /// When the adapter went away (nil while it is there).
    public private(set) var adapterLostAt: MonotonicInstant?
    private var adapterLossTimer: TimerID!
    /// Set-up runs again after the adapter returned (bumped to cancel one).
    private var recoveryGeneration = 0
    private var recovering = false
    /// What start-up was given, for setting the adapter up again.
    private var configuration: ControllerConfiguration?
    private var makeListener: ((BluetoothAddress) throws(HALError) -> any BluetoothLinkListener)?
    /// Advertising again after a disconnect failed once: one retry, later.
    private var readvertiseTimer: TimerID!
    private var readvertiseRetried = false

    private let loop: any EventLoop
    private let logger: Logger
    private let bluetoothdRunning: () -> Bool
    private let makeTransports: () throws(HALError) -> Transports
    private var client: ManagementClient?
    private var listener: (any BluetoothLinkListener)?
    private var listenerSource: SourceID?
    private var securitySource: SourceID?
    private var pendingPairing: (address: BluetoothAddress, type: BluetoothAddressType)?
    private var userRejectedPairing = false
    private var pairingTimer: TimerID!
    private var advertisingPayload: AdvertisingPayload
    /// An advertising instance was added (so `stop()` removes it).
    private var advertisingConfigured = false
    /// While starting: who hears how it ended, and what is being waited for.
    private var startUp: (completion: (Result<Void, BluetoothError>) -> Void, step: String)?
    private var startTimer: TimerID!
    /// Keys the kernel gave us that are not on disk yet (the write failed).
    private var unsavedKeys: [LongTermKey] = []
    private var unsavedIRKs: [IdentityResolvingKey] = []
    private var bondRetryTimer: TimerID!

    /// Whether some bond is waiting to be saved (its write failed).
    public var hasUnsavedBonds: Bool { !unsavedKeys.isEmpty || !unsavedIRKs.isEmpty }

    /// `bluetoothdRunning` and `transports` come from the composition root
    /// (on Linux: a /proc scan, and the kernel's mgmt and L2CAP sockets).
    public init(
        hciIndex: Int, name: String, ioCapability: IOCapability, keyStore: BondStore, loop: any EventLoop, logger: Logger,
        options: Options = Options(),
        bluetoothdRunning: @escaping () -> Bool,
        transports: @escaping () throws(HALError) -> Transports
    ) {
        self.hciIndex = hciIndex
        self.name = name
        self.ioCapability = ioCapability
        self.keyStore = keyStore
        self.loop = loop
        self.logger = logger
        self.options = options
        self.bluetoothdRunning = bluetoothdRunning
        self.makeTransports = transports
        advertisingPayload = AdvertisingPayload(name: name)
        pairingTimer = loop.makeTimer { [unowned(unsafe) self] in self.pairingTimedOut() }
        startTimer = loop.makeTimer { [unowned(unsafe) self] in self.startTimedOut() }
        bondRetryTimer = loop.makeTimer { [unowned(unsafe) self] in self.retrySavingBonds() }
        adapterLossTimer = loop.makeTimer { [unowned(unsafe) self] in self.adapterLossTimedOut() }
        readvertiseTimer = loop.makeTimer { [unowned(unsafe) self] in self.advertiseAgain() }
    }

    deinit {
        lifetime.end()
        loop.destroyTimer(pairingTimer)
        loop.destroyTimer(startTimer)
        loop.destroyTimer(bondRetryTimer)
        loop.destroyTimer(adapterLossTimer)
        loop.destroyTimer(readvertiseTimer)
    }

    var hci: UInt16 { UInt16(hciIndex) }

    // MARK: - start / stop

    /// Loads the bonds, sets the controller up, listens and advertises,
    /// driven by the mgmt answers on the loop; returns at once.
    ///
    /// `completion` runs once, on the loop and never from inside `start`:
    /// `.success` when advertising, or the first failure (with its fix),
    /// after which everything opened is closed again. The whole start-up
    /// is bounded by `Options.startTimeout`. `stop()` before then cancels
    /// it, and `completion` is not called.
    public func start(completion: @escaping (Result<Void, BluetoothError>) -> Void) {
        precondition(startUp == nil && client == nil, "BluetoothPeripheral.start while started")
        startUp = (completion, "set up hci\(hciIndex)")
        let prepared: (transports: Transports, localIRK: [UInt8]?)
        do throws(BluetoothError) { prepared = try prepare() } catch {
            return finishStartFromTheLoop(.failure(error))
        }
        let transports = prepared.transports
        loop.arm(startTimer, after: options.startTimeout)
        let client: ManagementClient
        do { client = try ManagementClient(transport: transports.management, loop: loop) } catch {
            transports.management.close()
            return finishStartFromTheLoop(.failure(BluetoothError(error)))
        }
        self.client = client
        let controller = BluetoothController(client: client, index: hci, logger: logger)
        self.controller = controller
        client.eventHandler = { [unowned(unsafe) self] index, event in
            if index == self.hci { self.handle(event) }
        }
        client.closedHandler = { [unowned(unsafe) self] error in
            self.fail("the management socket closed\(error.map { ": \($0)" } ?? "")", hint: "the kernel closed the Bluetooth management interface; restarting the watch opens it again")
        }
        let configuration = ControllerConfiguration(name: name, ioCapability: ioCapability, localIRK: prepared.localIRK)
        self.configuration = configuration
        makeListener = transports.makeListener
        controller.setUp(configuration, longTermKeys: keyStore.longTermKeys, irks: keyStore.irks) { [unowned(unsafe) self] outcome in
            self.controllerReady(outcome)
        }
    }

    /// The checks and files before the first mgmt command.
    private func prepare() throws(BluetoothError) -> (transports: Transports, localIRK: [UInt8]?) {
        if options.refuseWhenBluetoothdRuns && bluetoothdRunning() {
            throw BluetoothError("bluetoothd is running and owns the Bluetooth adapter", hint: BluetoothError.bluetoothdHint)
        }
        do {
            switch try keyStore.load() {
            case .missing: logger.info("no bonds yet (\(keyStore.path)); the phone pairs on first connection")
            case .loaded(let n): logger.info("loaded \(n) bond(s) from \(keyStore.path)")
            case .corrupt(let why, let keptAs): logger.error("bond file \(keyStore.path) was unreadable (\(why)); kept as \(keptAs ?? keyStore.path), starting without bonds: pair the phone again")
            }
        } catch {
            throw BluetoothError("cannot read the bond store: \(error)", hint: error.hint ?? "the state directory (\(keyStore.directory)) and its files must be readable and writable by the watch's user: 'sudo chown -R wristcore:wristcore \(keyStore.directory)' (or the user the daemon runs as)")
        }
        var localIRK: [UInt8]?
        if options.privacy {
            do { localIRK = try keyStore.ensureLocalIRK() } catch {
                throw BluetoothError("cannot store the watch's identity key: \(error.operation): \(error.reason)", hint: BondStore.fixHint(for: error, directory: keyStore.directory))
            }
        }
        do { return (try makeTransports(), localIRK) } catch { throw BluetoothError(error) }
    }

    private func controllerReady(_ outcome: Result<ControllerInfo, BluetoothError>) {
        guard startUp != nil, let controller else { return }
        let info: ControllerInfo
        switch outcome {
        case .failure(let e): return finishStart(.failure(e))
        case .success(let i): info = i
        }
        logger.info("hci\(hciIndex) ready: \(controller.settings); IO capability \(ioCapability)")
        do throws(BluetoothError) { try listen(on: info.address) } catch {
            return finishStart(.failure(error))
        }
        startUp?.step = "start advertising"
        controller.startAdvertising(advertisingPayload) { [unowned(unsafe) self] error in
            guard self.startUp != nil else { return }
            if let error { return self.finishStart(.failure(error)) }
            self.advertisingConfigured = true
            self.logger.info("advertising as \"\(self.name)\" (appearance: watch, soliciting ANCS)")
            self.state = .advertising
            self.finishStart(.success(()))
        }
    }

    private func startTimedOut() {
        guard let step = startUp?.step else { return }
        finishStart(.failure(BluetoothError(
            "timed out trying to \(step)",
            hint: "the kernel did not answer the management commands; check 'dmesg' for Bluetooth errors")))
    }

    /// A failure found inside `start` itself is reported from the loop, like
    /// every other outcome (and cancelled by `stop()` like them).
    private func finishStartFromTheLoop(_ result: Result<Void, BluetoothError>) {
        loop.deferWork { [lifetime, unowned(unsafe) self] in if !lifetime.isOver { self.finishStart(result) } }
    }

    /// Ends start-up once: on failure everything opened is closed first.
    private func finishStart(_ result: Result<Void, BluetoothError>) {
        guard let completion = startUp?.completion else { return }
        startUp = nil
        loop.disarm(startTimer)
        if case .failure = result { stop() }
        completion(result)
    }

    /// Stops advertising and listening (shutdown); returns at once, never
    /// running the loop. The current link stays with its session, which
    /// closes it. Removing the advertising instance is best effort: the
    /// command is written to the mgmt socket just before it closes (the
    /// kernel applies it on the write), its answer is not awaited. A start-up
    /// still in progress is cancelled without calling its completion.
    public func stop() {
        startUp = nil
        loop.disarm(startTimer)
        loop.disarm(bondRetryTimer)
        endAdapterLossWatch()
        closeListener()
        removeSecurityWatch()
        if advertisingConfigured {
            client?.closeAfterSending(RemoveAdvertising(instance: 0), index: hci)
        } else {
            client?.close()
        }
        advertisingConfigured = false
        client = nil
        controller = nil
        if case .failed = state {} else { state = .stopped }
    }

    /// A failure after start-up: reported through `onFailure` (during
    /// start-up, `start`'s completion reports it).
    private func fail(_ why: String, hint: String? = nil) {
        logger.error("Bluetooth: \(why)")
        endAdapterLossWatch()
        state = .failed(why)
        if startUp == nil { onFailure?(BluetoothError(why, hint: hint)) }
    }

    /// Listens on the ATT channel at the controller's address.
    private func listen(on address: BluetoothAddress) throws(BluetoothError) {
        guard let makeListener else { throw BluetoothError("no link listener (not started)") }
        do throws(HALError) {
            let listener = try makeListener(address)
            self.listener = listener
            listenerSource = try loop.addSource(fd: listener.pollDescriptor, events: .readable) { [unowned(unsafe) self] _ in self.acceptWaiting() }
        } catch {
            closeListener()
            throw BluetoothError(error)
        }
    }

    private func closeListener() {
        if let s = listenerSource { loop.removeSource(s) }
        listenerSource = nil
        listener?.close()
        listener = nil
    }

    // MARK: - pairing

    /// The user's answer to the number shown by `onPairingRequest`.
    public func confirmPairing(_ accept: Bool) {
        guard let p = pendingPairing else { return }
        pendingPairing = nil
        loop.disarm(pairingTimer)
        userRejectedPairing = !accept
        logger.info("pairing with \(p.address) \(accept ? "confirmed" : "rejected") on the watch")
        controller?.send(UserConfirmationReply(address: p.address, addressType: p.type, accept: accept)) { [logger] status, _ in
            if status != .success { logger.warning("User Confirmation Reply failed: \(status)") }
        }
        onPairingEnded?(accept)
    }

    private func pairingTimedOut() {
        guard pendingPairing != nil else { return }
        logger.info("pairing not confirmed within \(options.pairingTimeout.secondsText): rejected")
        confirmPairing(false)
    }

    // MARK: - links

    private func acceptWaiting() {
        while let listener {
            let accepted: (any BluetoothLink)?
            do { accepted = try listener.acceptLink() } catch {
                logger.warning("accept failed: \(error)")
                return
            }
            guard let newLink = accepted else { return }
            if link != nil {
                logger.notice("\(newLink.peerAddress) connected while another phone is connected: closing (one phone at a time)")
                newLink.close()
                continue
            }
            adopt(newLink)
        }
    }

    private func adopt(_ newLink: any BluetoothLink) {
        link = newLink
        userRejectedPairing = false
        logger.info("phone \(newLink.peerAddress) (\(newLink.peerAddressType)) connected\(keyStore.isBonded(newLink.peerAddress) ? " (bonded)" : "")")
        state = .connected(newLink.peerAddress)
        // One phone at a time: no advertising while connected.
        controller?.stopAdvertising { [logger] e in if let e { logger.warning("\(e)") } }
        newLink.securityObserver = { [unowned(unsafe) self] level in self.securityChanged(level) }
        newLink.securityRequestStarted = { [unowned(unsafe) self] in self.watchSecurity() }
        onConnection?(newLink)
        if keyStore.isBonded(newLink.peerAddress) && newLink.securityLevel < .encrypted {
            // A bonded phone: ask for encryption with the stored key right away
            // (a Security Request); a phone that lost the key fails here (stale bond).
            do { try newLink.requestSecurity(.encrypted) } catch { logger.warning("\(error)") }
        }
    }

    private func watchSecurity() {
        guard securitySource == nil, let link else { return }
        let fd = link.securityWatchDescriptor
        guard fd >= 0 else { return }
        securitySource = try? loop.addSource(fd: fd, events: .writable) { [unowned(unsafe) self] _ in
            if self.link?.pollSecurity() ?? true { self.removeSecurityWatch() }
        }
    }

    private func removeSecurityWatch() {
        if let s = securitySource { loop.removeSource(s) }
        securitySource = nil
    }

    private func securityChanged(_ level: LinkSecurityLevel) {
        removeSecurityWatch()
        guard let link else { return }
        logger.info("link to \(link.peerAddress): security \(level)")
        if level >= .encrypted { state = .encrypted(link.peerAddress, level) }
    }

    private func linkWentDown(_ reason: DisconnectReason, hadLink: Bool) {
        removeSecurityWatch()
        if pendingPairing != nil {
            pendingPairing = nil
            loop.disarm(pairingTimer)
            onPairingEnded?(false)
        }
        link?.securityObserver = nil
        link?.securityRequestStarted = nil
        link = nil
        if hadLink { onDisconnected?(reason) }
        readvertiseRetried = false
        advertiseAgain()
    }

    /// Advertising after a disconnect. A failure is retried once, a moment
    /// later: when another program powers the adapter off, the link drops
    /// just before the New Settings that says so, and this command may fail
    /// in between.
    private func advertiseAgain() {
        guard let controller, listener != nil, link == nil else { return }
        controller.startAdvertising(advertisingPayload) { [unowned(unsafe) self] e in
            guard self.listener != nil else { return }  // lost or stopped meanwhile
            if let e {
                if self.readvertiseRetried { return self.fail("cannot advertise again: \(e)") }
                self.readvertiseRetried = true
                self.logger.warning("advertising again failed (\(e)); retrying in 2 s")
                self.loop.arm(self.readvertiseTimer, after: .seconds(2))
            } else if self.link == nil {
                self.state = .advertising
            }
        }
    }

    // MARK: - mgmt events

    func handle(_ event: ManagementEvent) {
        switch event {
        case .deviceConnected(let address, let type, _, _):
            logger.debug("mgmt: \(address) (\(type)) connected")
        case .deviceDisconnected(let address, let type, let reason):
            guard type != .bredr else { return }
            logger.info("phone \(address) disconnected: \(reason)")
            if reason == .authenticationFailure, keyStore.isBonded(address), !userRejectedPairing { staleBond(address, type) }
            // One phone at a time: any LE disconnect is our link's. Without a
            // link (the phone dropped before the ATT channel was accepted) the
            // controller still stopped advertising when it connected: restart it.
            linkWentDown(reason, hadLink: link != nil)
        case .userConfirmationRequest(let address, let type, let hint, let value):
            if hint == 1 || ioCapability == .noInputNoOutput {
                // Just Works: nothing to compare; the phone's own dialog is the consent.
                logger.info("Just Works pairing with \(address): accepted")
                controller?.send(UserConfirmationReply(address: address, addressType: type, accept: true)) { _, _ in }
                return
            }
            pendingPairing = (address, type)
            loop.arm(pairingTimer, after: options.pairingTimeout)
            logger.info("pairing request from \(address): confirm \(Self.sixDigits(value)) on the watch")
            onPairingRequest?(value)
        case .newLongTermKey(let storeHint, let key):
            guard storeHint else {
                logger.info("pairing with \(key.address) finished without bonding (not stored)")
                return
            }
            do {
                try keyStore.store(key)
                logger.info("bonded with \(key.address) (\(key.isAuthenticated ? "authenticated" : "unauthenticated") key stored)")
            } catch {
                unsavedKeys.removeAll { $0.address == key.address && $0.addressType == key.addressType && $0.central == key.central }
                unsavedKeys.append(key)
                bondNotSaved(key.address, error)
            }
        case .newIdentityResolvingKey(let storeHint, _, let key):
            guard storeHint else { return }
            do { try keyStore.store(key) } catch {
                unsavedIRKs.removeAll { $0.address == key.address && $0.addressType == key.addressType }
                unsavedIRKs.append(key)
                bondNotSaved(key.address, error)
            }
        case .authenticationFailed(let address, let type, let status):
            let s = ManagementStatus(rawValue: status).map { "\($0)" } ?? "0x\(String(status, radix: 16))"
            logger.warning("authentication with \(address) failed: \(s)")
            if pendingPairing != nil {
                pendingPairing = nil
                loop.disarm(pairingTimer)
                onPairingEnded?(false)
            }
            link?.securityRequestFailed()
            if keyStore.isBonded(address) && !userRejectedPairing { staleBond(address, type) }
        case .deviceUnpaired(let address, _):
            // 'wristcore forget' (or another mgmt client) unpaired it while we run:
            // drop it from our store too, or our next save would bring it back.
            dropUnsaved(address)
            if keyStore.isBonded(address) || keyStore.irks.contains(where: { $0.address == address }) {
                do { try keyStore.remove(address) } catch { logger.error("cannot remove the bond of \(address): \(error)") }
                logger.info("bond with \(address) removed (unpaired)")
            }
        case .newSettings(let s):
            logger.debug("hci\(hci) settings: \(s)")
            // Our own set-up's changes are not echoed to us (the kernel skips
            // the socket that asked), and set-up ignores this anyway.
            if s.contains(.powered) { adapterReturned("powered on again") } else { adapterLost(.poweredOff) }
        case .indexAdded:
            adapterReturned("index added")
        case .indexRemoved:
            adapterLost(.removed)
        default:
            break
        }
    }

    // MARK: - bonds that could not be saved

    private var reportedUnsaved: Set<BluetoothAddress> = []

    /// Logs the failure with its fix, tells the watch (once per phone until
    /// saved), and retries later: the kernel keeps the key for this session.
    private func bondNotSaved(_ address: BluetoothAddress, _ error: HALError) {
        let failure = BondSaveFailure(address: address, error: error, directory: keyStore.directory)
        if !loop.isArmed(bondRetryTimer) { loop.arm(bondRetryTimer, after: options.bondSaveRetry) }
        guard reportedUnsaved.insert(address).inserted else {
            logger.debug("\(failure)")
            return
        }
        logger.error("\(failure.logMessage)")
        onBondSaveFailed?(failure)
    }

    private func dropUnsaved(_ address: BluetoothAddress) {
        unsavedKeys.removeAll { $0.address == address }
        unsavedIRKs.removeAll { $0.address == address }
        reportedUnsaved.remove(address)
        if !hasUnsavedBonds { loop.disarm(bondRetryTimer) }
    }

    /// Writes the unsaved keys again; re-arms while the write still fails.
    func retrySavingBonds() {
        var saved: [BluetoothAddress] = []
        do throws(HALError) {
            while let key = unsavedKeys.first {
                try keyStore.store(key)
                unsavedKeys.removeFirst()
                if !saved.contains(key.address) { saved.append(key.address) }
            }
            while let irk = unsavedIRKs.first {
                try keyStore.store(irk)
                unsavedIRKs.removeFirst()
                if !saved.contains(irk.address) { saved.append(irk.address) }
            }
        } catch {
            logger.debug("bond still not saved: \(error)")
            loop.arm(bondRetryTimer, after: options.bondSaveRetry)
        }
        for address in saved where !unsavedKeys.contains(where: { $0.address == address }) && !unsavedIRKs.contains(where: { $0.address == address }) {
            reportedUnsaved.remove(address)
            logger.notice("bond with \(address) saved after all (\(keyStore.path)): the phone reconnects after a restart")
        }
    }

    private func staleBond(_ address: BluetoothAddress, _ type: BluetoothAddressType) {
        dropUnsaved(address)
        do { try keyStore.remove(address) } catch { logger.error("cannot remove the stale bond of \(address): \(error)") }
        controller?.send(UnpairDevice(address: address, addressType: type, disconnect: false)) { _, _ in }
        logger.warning("the bond with \(address) no longer works (the phone forgot the watch): removed. Pair again: on the iPhone, Settings > Bluetooth, forget \"\(name)\" if listed, then connect to it again")
        onStaleBond?(address)
    }

    // MARK: - adapter loss and return

    /// The adapter went away: drop the link and the listener, report it, and
    /// wait (bounded) for it to come back. Ignored before start-up finished
    /// (its commands fail on their own) and once stopped or failed.
    private func adapterLost(_ loss: AdapterLoss) {
        switch state {
        case .stopped, .failed: return
        case .adapterLost:
            // Removed again while being set up: stop that set-up; the deadline
            // stays. Powered off while being set up is ignored: our own Set
            // Powered off is not echoed to us by the kernel, but if it were it
            // must not stop the set-up that powers the adapter on again.
            guard recovering, loss == .removed else { return }
            cancelRecovery()
            logger.error("Bluetooth adapter hci\(hci) \(loss) again while it was being set up")
            state = .adapterLost(loss)
            return
        case .advertising, .connected, .encrypted: break
        }
        adapterLostAt = loop.now
        loop.arm(adapterLossTimer, after: options.adapterLossTimeout)
        logger.error("Bluetooth adapter hci\(hci) \(loss): no phone link until it is back (waiting up to \(Self.seconds(options.adapterLossTimeout)))")
        closeListener()
        removeSecurityWatch()
        loop.disarm(readvertiseTimer)
        advertisingConfigured = false  // a new adapter has none; ours is added again on return
        if pendingPairing != nil {
            pendingPairing = nil
            loop.disarm(pairingTimer)
            onPairingEnded?(false)
        }
        let hadLink = link != nil
        link?.securityObserver = nil
        link?.securityRequestStarted = nil
        link = nil
        state = .adapterLost(loss)
        if hadLink { onDisconnected?(.localHost) }
        onAdapterLost?(loss)
    }

    /// The adapter is there again: the whole controller set-up runs again
    /// (power, LE, bondable, SC, IO capability, privacy, keys from the bond
    /// store), then listening and advertising.
    private func adapterReturned(_ how: String) {
        guard case .adapterLost = state, !recovering, let controller, let configuration else { return }
        recovering = true
        let generation = recoveryGeneration
        logger.notice("Bluetooth adapter hci\(hci) is back (\(how)): setting it up again")
        controller.setUp(configuration, longTermKeys: keyStore.longTermKeys, irks: keyStore.irks) { [unowned(unsafe) self] outcome in
            guard generation == self.recoveryGeneration else { return }
            let info: ControllerInfo
            switch outcome {
            case .failure(let e): return self.recoveryFailed(e)
            case .success(let i): info = i
            }
            do throws(BluetoothError) { try self.listen(on: info.address) } catch { return self.recoveryFailed(error) }
            controller.startAdvertising(self.advertisingPayload) { [unowned(unsafe) self] error in
                guard generation == self.recoveryGeneration else { return }
                if let error { return self.recoveryFailed(error) }
                self.recovered()
            }
        }
    }

    private func recovered() {
        recovering = false
        advertisingConfigured = true
        let away = adapterLostAt.map { loop.now - $0 } ?? .zero
        adapterLostAt = nil
        loop.disarm(adapterLossTimer)
        logger.notice("Bluetooth adapter hci\(hci) set up again after \(Self.seconds(away)) away: advertising as \"\(name)\"")
        state = .advertising
        onAdapterReturned?(away)
    }

    /// Setting the returned adapter up failed: keep waiting for the next
    /// return until the deadline.
    private func recoveryFailed(_ error: BluetoothError) {
        cancelRecovery()
        logger.warning("setting hci\(hci) up again failed: \(error); still waiting for the adapter")
    }

    private func cancelRecovery() {
        recoveryGeneration &+= 1
        recovering = false
        controller?.cancelSetUp()
        closeListener()
    }

    private func adapterLossTimedOut() {
        guard case .adapterLost(let loss) = state else { return }
        cancelRecovery()
        fail("adapter hci\(hci) \(loss) and not back within \(Self.seconds(options.adapterLossTimeout))", hint: loss.hint)
    }

    /// Stops waiting for the adapter (it returned, or the peripheral stops / failed).
    private func endAdapterLossWatch() {
        loop.disarm(adapterLossTimer)
        loop.disarm(readvertiseTimer)
        if recovering { cancelRecovery() }
        adapterLostAt = nil
    }

    /// "120 s", "10.032 s": for the log.
    static func seconds(_ d: Duration) -> String {
        let ms = d.millisecondsClamped
        let fraction = ms % 1000
        guard fraction != 0 else { return "\(ms / 1000) s" }
        let f = String(fraction)
        return "\(ms / 1000).\(String(repeating: "0", count: 3 - f.count) + f) s"
    }

    static func sixDigits(_ v: UInt32) -> String {
        let s = String(v % 1_000_000)
        return String(repeating: "0", count: 6 - s.count) + s
    }
}
