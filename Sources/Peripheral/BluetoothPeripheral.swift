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
///
/// Its jobs live in parts of their own: `PairingDialog` (the number on the
/// screen and the answer), `BondKeeper` (the bond store: saving, retries,
/// removal), `AdapterLossWatch` with `BluetoothPeripheral+AdapterLoss.swift`
/// (the adapter going and coming back), `BluetoothPeripheral+PhoneLink.swift`
/// (the listener, the one phone's link and its security) and
/// `BluetoothPeripheral+ManagementEvents.swift` (which mgmt event goes
/// where). This file starts and stops it.
public final class BluetoothPeripheral {
    /// Ended in deinit: callbacks handed out check it (no weak references in Embedded Swift).
    private let lifetime = Lifetime()

    // MARK: callbacks (set before start)

    /// A phone connected: hand the link to `PhoneSession`.
    public var onConnection: ((any BluetoothLink) -> Void)?
    /// The phone's link went down (reason from mgmt Device Disconnected).
    public var onDisconnected: ((DisconnectReason) -> Void)?
    /// Numeric comparison: show this 6-digit number, then call `confirmPairing`.
    public var onPairingRequest: ((UInt32) -> Void)? {
        get { pairing.onRequest }
        set { pairing.onRequest = newValue }
    }
    /// The pairing dialog is over (answered, timed out, or failed): close the screen.
    public var onPairingEnded: ((_ accepted: Bool) -> Void)? {
        get { pairing.onEnded }
        set { pairing.onEnded = newValue }
    }
    public var onStateChange: ((State) -> Void)?
    /// A stored bond no longer works (the phone forgot the watch); it was
    /// removed: tell the user to pair again.
    public var onStaleBond: ((BluetoothAddress) -> Void)? {
        get { bonds.onStale }
        set { bonds.onStale = newValue }
    }
    /// A new bond (the key from pairing) could not be written to the bond
    /// store, e.g. the disk is full: show `failure.notice`. Already logged
    /// as an error with the fix; the write is retried every
    /// `Options.bondSaveRetry`. Once per phone until it is saved.
    public var onBondSaveFailed: ((BondSaveFailure) -> Void)? {
        get { bonds.onSaveFailed }
        set { bonds.onSaveFailed = newValue }
    }
    /// Whether some phone is bonded changed: at start-up (the bond store
    /// read), after a pairing, an unpairing or a stale bond.
    public var onPairedChanged: ((Bool) -> Void)? {
        get { bonds.onPairedChanged }
        set { bonds.onPairedChanged = newValue }
    }
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

    // MARK: what it is and where it is

    /// The controller's index (hciN).
    public let hciIndex: Int
    /// The name the watch advertises.
    public let name: String
    public let ioCapability: IOCapability
    public let keyStore: BondStore
    public let options: Options
    public internal(set) var state: State = .stopped {
        didSet { if state != oldValue { onStateChange?(state) } }
    }
    /// The connected phone's link, if any.
    public internal(set) var link: (any BluetoothLink)?
    public private(set) var controller: BluetoothController? {
        // The parts answer the kernel through it (none while stopped).
        didSet {
            pairing.controller = controller
            bonds.controller = controller
        }
    }
    /// When the adapter went away (nil while it is there).
    public var adapterLostAt: MonotonicInstant? { lossWatch.lostAt }
    /// Whether some bond is waiting to be saved (its write failed).
    public var hasUnsavedBonds: Bool { bonds.hasUnsaved }

    // MARK: its parts and resources (the extensions in the other files use them)

    let pairing: PairingDialog
    let bonds: BondKeeper
    /// While the adapter is away (see `BluetoothPeripheral+AdapterLoss.swift`).
    let lossWatch: AdapterLossWatch
    let loop: any EventLoop
    let logger: Logger
    let advertisingPayload: AdvertisingPayload
    private let bluetoothdRunning: () -> Bool
    private let makeTransports: () throws(HALError) -> Transports
    private var client: ManagementClient?
    /// What start-up was given, for setting the adapter up again.
    private(set) var configuration: ControllerConfiguration?
    private(set) var makeListener: ((BluetoothAddress) throws(HALError) -> any BluetoothLinkListener)?
    /// The ATT channel's listener and its loop source (see `BluetoothPeripheral+PhoneLink.swift`).
    var listener: (any BluetoothLinkListener)?
    var listenerSource: SourceID?
    /// Watches the link while a security request runs.
    var securitySource: SourceID?
    /// An advertising instance was added (so `stop()` removes it).
    var advertisingConfigured = false
    /// While starting: who hears how it ended, and what is being waited for.
    private var startUp: (completion: (Result<Void, BluetoothError>) -> Void, step: String)?
    private var startTimer: TimerID!
    /// Advertising again after a disconnect failed once: one retry, later.
    private(set) var readvertiseTimer: TimerID!
    var readvertiseRetried = false

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
        pairing = PairingDialog(ioCapability: ioCapability, timeout: options.pairingTimeout, loop: loop, logger: logger)
        bonds = BondKeeper(store: keyStore, watchName: name, retryInterval: options.bondSaveRetry, loop: loop, logger: logger)
        lossWatch = AdapterLossWatch(loop: loop)
        startTimer = loop.makeTimer { [unowned(unsafe) self] in self.startTimedOut() }
        readvertiseTimer = loop.makeTimer { [unowned(unsafe) self] in self.advertiseAgain() }
        lossWatch.onDeadline = { [unowned(unsafe) self] in self.adapterLossTimedOut() }
    }

    deinit {
        lifetime.end()
        loop.destroyTimer(startTimer)
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
        let localIRK = try bonds.load(privacy: options.privacy)
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
        bonds.stopRetrying()
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
    func fail(_ why: String, hint: String? = nil) {
        logger.error("Bluetooth: \(why)")
        endAdapterLossWatch()
        state = .failed(why)
        if startUp == nil { onFailure?(BluetoothError(why, hint: hint)) }
    }

    // MARK: - pairing

    /// The user's answer to the number shown by `onPairingRequest`.
    public func confirmPairing(_ accept: Bool) {
        pairing.answer(accept)
    }
}
