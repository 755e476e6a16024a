
import HAL
import Loop

/// The security state of one simulated Bluetooth link, shared by its two
/// ends (the watch's bearer and the simulated iPhone) in one process.
///
/// `requestSecurity` on either end "pairs" after `pairingDelay` on the loop
/// (or fails, leaving the level unchanged, when `pairingSucceeds` is false)
/// and reports the new level to both ends, like the kernel does after SMP.
public final class SimulatedLink {
    public private(set) var level: LinkSecurityLevel
    /// How long simulated pairing takes.
    public var pairingDelay: Duration
    /// Whether pairing succeeds (the user taps "Pair" on the phone).
    public var pairingSucceeds: Bool
    /// The level pairing reaches (Just Works: `.encrypted`).
    public var pairingLevel: LinkSecurityLevel
    /// How many times pairing was requested.
    public private(set) var pairingRequests = 0

    public let watchEnd: End
    public let phoneEnd: End
    private let timers: TimerScheduling
    private var pairingTimer: TimerID?
    private var pending = false

    public init(
        timers: TimerScheduling, level: LinkSecurityLevel = .none, pairingDelay: Duration = .milliseconds(20),
        pairingSucceeds: Bool = true, pairingLevel: LinkSecurityLevel = .encrypted
    ) {
        self.timers = timers
        self.level = level
        self.pairingDelay = pairingDelay
        self.pairingSucceeds = pairingSucceeds
        self.pairingLevel = pairingLevel
        watchEnd = End()
        phoneEnd = End()
        watchEnd.link = self
        phoneEnd.link = self
        // unowned(unsafe): self owns the timer and destroys it in deinit.
        pairingTimer = timers.makeTimer { [unowned(unsafe) self] in self.completePairing() }
    }

    deinit {
        if let t = pairingTimer { timers.destroyTimer(t) }
        // The ends may outlive the link (a bearer holds one): they must see it gone.
        watchEnd.link = nil
        phoneEnd.link = nil
    }

    fileprivate func request(_ wanted: LinkSecurityLevel) {
        pairingRequests += 1
        if level >= wanted {
            // Already there: report at once, as the kernel does.
            watchEnd.securityChangeHandler?(level)
            phoneEnd.securityChangeHandler?(level)
            return
        }
        guard !pending, let t = pairingTimer else { return }
        pending = true
        timers.arm(t, after: pairingDelay)
    }

    private func completePairing() {
        pending = false
        if pairingSucceeds { level = max(level, pairingLevel) }
        watchEnd.securityChangeHandler?(level)
        phoneEnd.securityChangeHandler?(level)
    }

    /// Sets the level directly (a link that starts bonded, or a test).
    public func setLevel(_ new: LinkSecurityLevel) {
        level = new
        watchEnd.securityChangeHandler?(level)
        phoneEnd.securityChangeHandler?(level)
    }

    /// One end's view of the link.
    public final class End: LinkSecurityControl {
        /// Set to nil by the link's deinit (no weak references in Embedded Swift).
        fileprivate unowned(unsafe) var link: SimulatedLink?
        public var securityChangeHandler: ((LinkSecurityLevel) -> Void)?
        public var securityLevel: LinkSecurityLevel { link?.level ?? .none }
        public func requestSecurity(_ level: LinkSecurityLevel) throws(HALError) {
            guard let link else {
                throw HALError(operation: "raise link security", errno: 0, reason: "simulated link is gone")
            }
            link.request(level)
        }
    }
}
