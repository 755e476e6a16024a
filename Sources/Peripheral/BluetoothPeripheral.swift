import BoardConfig
import HAL
import LinuxHAL
import LinuxLoop
import Logging
import Loop

/// The watch as a Bluetooth LE peripheral, owning its controller like
/// firmware does (no bluetoothd): sets the controller up through mgmt,
/// advertises, accepts one phone at a time on the ATT channel, runs
/// numeric-comparison pairing through the UI, keeps bonds in a `BondStore`,
/// and advertises again after a disconnect.
///
/// Wiring (the daemon): set the callbacks, `try start()`, and on
/// `onConnection` build `PhoneSession(channel: link, loop: loop, security: link)`.
/// `onPairingRequest` shows the 6-digit number; the positive button calls
/// `confirmPairing(true)`, the negative one `confirmPairing(false)`; without
/// an answer the request is rejected after `Options.pairingTimeout`.
/// `stop()` at shutdown.
public final class BluetoothPeripheral {
    public enum State: Equatable, Sendable, CustomStringConvertible {
        case stopped
        case advertising
        case connected(BluetoothAddress)
        /// The link is encrypted (after pairing or with a stored key).
        case encrypted(BluetoothAddress, LinkSecurityLevel)
        case failed(String)

        public var description: String {
            switch self {
            case .stopped: "stopped"
            case .advertising: "advertising"
            case .connected(let a): "connected to \(a)"
            case .encrypted(let a, let l): "connected to \(a), \(l)"
            case .failed(let why): "failed: \(why)"
            }
        }
    }

    public struct Options: Sendable {
        /// Advertise from resolvable private addresses (a stored local IRK keeps the watch recognisable).
        public var privacy = true
        /// How long the pairing number waits for a button before it is rejected.
        public var pairingTimeout: Duration = .seconds(30)
        /// How long `start()` waits for the controller set-up.
        public var startTimeout: Duration = .seconds(15)
        /// Refuse to start while bluetoothd runs.
        public var refuseWhenBluetoothdRuns = true
        public init() {}
    }

    /// The two kernel endpoints; tests pass socket-pair fakes.
    public struct Transports {
        public var management: PacketChannel
        /// Made once the controller is powered (its address is known then).
        public var makeListener: (_ controllerAddress: BluetoothAddress) throws(HALError) -> BluetoothLinkListener
        public init(management: PacketChannel, makeListener: @escaping (_ controllerAddress: BluetoothAddress) throws(HALError) -> BluetoothLinkListener) {
            self.management = management
            self.makeListener = makeListener
        }

        /// The real ones: the mgmt control socket and an L2CAP LE listener on CID 4.
        public static func kernel() throws(HALError) -> Transports {
            Transports(management: try BluetoothManagementSocket()) { address throws(HALError) in
                try L2CAPLESocket.listen(address: address, cid: L2CAPLESocket.attChannel, addressType: .lePublic)
            }
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

    public let settings: BluetoothSettings
    public let ioCapability: IOCapability
    public let keyStore: BondStore
    public let options: Options
    public private(set) var state: State = .stopped {
        didSet { if state != oldValue { onStateChange?(state) } }
    }
    /// The connected phone's link, if any.
    public private(set) var link: (any BluetoothLink)?
    public private(set) var controller: BluetoothController?

    private let loop: EpollLoop
    private let logger: Logger
    private let bluetoothdRunning: () -> Bool
    private let makeTransports: () throws(HALError) -> Transports
    private var client: ManagementClient?
    private var listener: BluetoothLinkListener?
    private var listenerSource: SourceID?
    private var securitySource: SourceID?
    private var pendingPairing: (address: BluetoothAddress, type: BluetoothAddressType)?
    private var userRejectedPairing = false
    private var pairingTimer: TimerID!
    private var advertisingPayload: AdvertisingPayload
    /// An advertising instance was added (so `stop()` removes it).
    private var advertisingConfigured = false

    public init(
        settings: BluetoothSettings, ioCapability: IOCapability, keyStore: BondStore, loop: EpollLoop, logger: Logger,
        options: Options = Options(),
        bluetoothdRunning: @escaping () -> Bool = { SystemProbe.isProcessRunning("bluetoothd") },
        transports: @escaping () throws(HALError) -> Transports = { () throws(HALError) in try Transports.kernel() }
    ) {
        self.settings = settings
        self.ioCapability = ioCapability
        self.keyStore = keyStore
        self.loop = loop
        self.logger = logger
        self.options = options
        self.bluetoothdRunning = bluetoothdRunning
        self.makeTransports = transports
        advertisingPayload = AdvertisingPayload(name: settings.name)
        pairingTimer = loop.makeTimer { [unowned self] in self.pairingTimedOut() }
    }

    deinit { loop.destroyTimer(pairingTimer) }

    /// DisplayYesNo when the board has a display and at least two buttons
    /// (numeric comparison); NoInputNoOutput (Just Works) otherwise.
    public static func ioCapability(for board: Board) -> IOCapability {
        board.buttons.count >= 2 ? .displayYesNo : .noInputNoOutput
    }

    var hci: UInt16 { UInt16(settings.hciIndex) }

    // MARK: - start / stop

    /// Loads the bonds, sets the controller up, listens and advertises.
    /// Runs the loop until that is done (at most `Options.startTimeout`).
    public func start() throws(BluetoothError) {
        if options.refuseWhenBluetoothdRuns && bluetoothdRunning() {
            throw BluetoothError("bluetoothd is running and owns the Bluetooth adapter", hint: BluetoothError.bluetoothdHint)
        }
        do {
            switch try keyStore.load() {
            case .missing: logger.info("no bonds yet (\(keyStore.path)); the phone pairs on first connection")
            case .loaded(let n): logger.info("loaded \(n) bond(s) from \(keyStore.path)")
            case .corrupt(let why): logger.error("bond file \(keyStore.path) was unreadable (\(why)); moved to \(keyStore.path).corrupt, starting without bonds: pair the phone again")
            }
        } catch {
            throw BluetoothError("cannot read the bond store: \(error)", hint: "the state directory (\(keyStore.directory)) must be readable and writable by the watch's user")
        }
        var localIRK: [UInt8]?
        if options.privacy {
            do { localIRK = try keyStore.ensureLocalIRK() } catch {
                throw BluetoothError("cannot store the watch's identity key: \(error)", hint: "the state directory (\(keyStore.directory)) must be writable")
            }
        }
        let transports: Transports
        do { transports = try makeTransports() } catch { throw BluetoothError(error) }
        let client: ManagementClient
        do { client = try ManagementClient(transport: transports.management, loop: loop) } catch { throw BluetoothError(error) }
        self.client = client
        let controller = BluetoothController(client: client, index: hci, logger: logger)
        self.controller = controller
        client.eventHandler = { [unowned self] index, event in
            if index == self.hci { self.handle(event) }
        }
        client.closedHandler = { [unowned self] error in
            self.fail("the management socket closed\(error.map { ": \($0)" } ?? "")")
        }

        var outcome: Result<ControllerInfo, BluetoothError>?
        let configuration = ControllerConfiguration(name: settings.name, ioCapability: ioCapability, localIRK: localIRK)
        controller.setUp(configuration, longTermKeys: keyStore.longTermKeys, irks: keyStore.irks) { outcome = $0 }
        try waitFor("set up hci\(settings.hciIndex)") { outcome != nil }
        let info: ControllerInfo
        switch outcome! {
        case .failure(let e):
            stop()
            throw e
        case .success(let i): info = i
        }
        logger.info("hci\(settings.hciIndex) ready: \(controller.settings); IO capability \(ioCapability)")

        do {
            let listener = try transports.makeListener(info.address)
            self.listener = listener
            listenerSource = try loop.addSource(fd: listener.pollDescriptor, events: .readable) { [unowned self] _ in self.acceptWaiting() }
        } catch {
            stop()
            throw BluetoothError(error)
        }

        var advertised = false
        var advertisingError: BluetoothError?
        controller.startAdvertising(advertisingPayload) { advertisingError = $0; advertised = true }
        try waitFor("start advertising") { advertised }
        if let e = advertisingError {
            stop()
            throw e
        }
        advertisingConfigured = true
        logger.info("advertising as \"\(settings.name)\" (appearance: watch, soliciting ANCS)")
        state = .advertising
    }

    /// Stops advertising and listening (shutdown). The current link stays
    /// with its session, which closes it.
    public func stop() {
        if let s = listenerSource { loop.removeSource(s) }
        listenerSource = nil
        listener?.close()
        listener = nil
        removeSecurityWatch()
        if advertisingConfigured, let controller, let client, client.transport.isOpen {
            var done = false
            controller.stopAdvertising { _ in done = true }
            _ = try? loop.runUntil(timeout: .seconds(1)) { done }
        }
        advertisingConfigured = false
        client?.close()
        client = nil
        controller = nil
        if case .failed = state {} else { state = .stopped }
    }

    private func waitFor(_ what: String, _ condition: () -> Bool) throws(BluetoothError) {
        let finished: Bool
        do { finished = try loop.runUntil(timeout: options.startTimeout, condition) } catch {
            stop()
            throw BluetoothError(error)
        }
        if !finished {
            stop()
            throw BluetoothError("timed out trying to \(what)", hint: "the kernel did not answer the management commands; check 'dmesg' for Bluetooth errors")
        }
    }

    private func fail(_ why: String) {
        logger.error("Bluetooth: \(why)")
        state = .failed(why)
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
        logger.info("pairing not confirmed within \(options.pairingTimeout): rejected")
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
        newLink.securityObserver = { [unowned self] level in self.securityChanged(level) }
        newLink.securityRequestStarted = { [unowned self] in self.watchSecurity() }
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
        securitySource = try? loop.addSource(fd: fd, events: .writable) { [unowned self] _ in
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
        guard let controller, listener != nil else { return }
        controller.startAdvertising(advertisingPayload) { [unowned self] e in
            if let e { self.fail("cannot advertise again: \(e)") } else if self.link == nil { self.state = .advertising }
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
            } catch { logger.error("cannot store the key of \(key.address): \(error); the phone will have to pair again after a restart") }
        case .newIdentityResolvingKey(let storeHint, _, let key):
            guard storeHint else { return }
            do { try keyStore.store(key) } catch { logger.error("cannot store the IRK of \(key.address): \(error)") }
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
            if keyStore.isBonded(address) || keyStore.irks.contains(where: { $0.address == address }) {
                do { try keyStore.remove(address) } catch { logger.error("cannot remove the bond of \(address): \(error)") }
                logger.info("bond with \(address) removed (unpaired)")
            }
        case .newSettings(let s):
            logger.debug("hci\(hci) settings: \(s)")
            if !s.contains(.powered), state != .stopped { fail("the adapter was powered off by someone else (is bluetoothd running?)") }
        case .indexRemoved:
            fail("adapter hci\(hci) was removed")
        default:
            break
        }
    }

    private func staleBond(_ address: BluetoothAddress, _ type: BluetoothAddressType) {
        do { try keyStore.remove(address) } catch { logger.error("cannot remove the stale bond of \(address): \(error)") }
        controller?.send(UnpairDevice(address: address, addressType: type, disconnect: false)) { _, _ in }
        logger.warning("the bond with \(address) no longer works (the phone forgot the watch): removed. Pair again: on the iPhone, Settings > Bluetooth, forget \"\(settings.name)\" if listed, then connect to it again")
        onStaleBond?(address)
    }

    static func sixDigits(_ v: UInt32) -> String {
        let s = String(v % 1_000_000)
        return String(repeating: "0", count: 6 - s.count) + s
    }
}
